select
    Organization_Identifier,
    Industry_Code,
    Organization_Name,
    Dun_And_Bradstreet_Identifier,
    Organization_Type_Code,
    Alternate_Name,
    Organization_Description,
    Acronym_Name,
    Industry_Type_Code
from dbt_cdw_benchmark__seed.organization