select * from {{ ref('raw_countries') }}
