select
    Assessment_Result_Identifier,
    Assessment_Identifier,
    Assessment_Result_Type_Code
from 
    dbt_cdw_benchmark__seed.assessment_result