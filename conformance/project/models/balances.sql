select * from {{ ref('raw_balances') }}
