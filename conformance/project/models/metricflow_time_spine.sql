-- one row per day: MetricFlow joins cumulative metrics and offsets to it
select cast(range as date) as date_day
from range(date '2023-01-01', date '2025-12-31', interval 1 day)
