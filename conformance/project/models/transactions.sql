select * from {{ ref('raw_transactions') }}
