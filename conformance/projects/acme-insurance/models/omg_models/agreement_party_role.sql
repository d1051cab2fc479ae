select
    Agreement_Identifier,
    Party_Identifier,
    Party_Role_Code,
    Effective_Date,
    Expiration_Date
from 
    dbt_cdw_benchmark__seed.agreement_party_role