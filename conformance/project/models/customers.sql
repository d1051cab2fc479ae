select * from {{ ref('raw_customers') }}
