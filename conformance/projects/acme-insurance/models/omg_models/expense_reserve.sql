select  
    Claim_Amount_Identifier
from dbt_cdw_benchmark__seed.expense_reserve