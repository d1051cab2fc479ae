select * from {{ ref('raw_refunds') }}
