select
    Agreement_Type_Code,
    Agreement_Name,
    Agreement_Original_Inception_Date,
    Product_Identifier
from 
    dbt_cdw_benchmark__seed.agreement
