select
    Policy_Amount_Identifier
from dbt_cdw_benchmark__seed.premium