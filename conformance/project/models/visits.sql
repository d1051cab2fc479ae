select * from {{ ref('raw_visits') }}
