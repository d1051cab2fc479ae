select  
    Party_Identifier,
    Party_Name,
    Begin_Date,
    End_Date,
    Party_Type_Code
from dbt_cdw_benchmark__seed.party