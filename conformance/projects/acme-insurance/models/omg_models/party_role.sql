select
    Party_Role_Code,
    Party_Role_Name,
    Party_Role_Description
from dbt_cdw_benchmark__seed.party_role