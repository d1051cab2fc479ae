select
    Claim_Identifier,
    Effective_Date,
    Policy_Coverage_Detail_Identifier
from dbt_cdw_benchmark__seed.claim_coverage
