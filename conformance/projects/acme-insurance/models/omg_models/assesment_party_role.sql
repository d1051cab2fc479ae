select
    Party_Identifier,
    Assessment_Identifier,
    Party_Role_Code,
    Begin_Date,
    End_Date
from dbt_cdw_benchmark__seed.assesment_party_role
