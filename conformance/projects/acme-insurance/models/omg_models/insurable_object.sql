select  
    Insurable_Object_Identifier,
    Geographic_Location_Identifier,
    Insurable_Object_Type_Code
from dbt_cdw_benchmark__seed.insurable_object
