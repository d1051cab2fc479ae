select
    Agreement_Identifier,
    Assessment_Identifier
from dbt_cdw_benchmark__seed.agreement_assessment