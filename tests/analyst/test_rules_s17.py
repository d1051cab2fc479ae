"""The rules analyst on a fresh batch of new-user questions (issue 42, session 17: 50 on the
flights, 40 on ACME Insurance), written from the catalogs and the raw data before reading the
reader, the analyst, the audit or any earlier question file: the balanced accuracy first measured
on them under claims+repair (from main 01360f6) is held as a floor, and no wrong answer is served
clean.

First run, after one wording fix (below): flights 0.947 (34 of 38 answerable right, 4 refused,
none wrong served clean, none with caveats; 12 of 12 unanswerable refused); acme 0.700 (15 of 30
answerable right, 13 refused, 1 withheld malformed, 1 wrong served with caveats, none wrong
served clean; 9 of 10 unanswerable refused, s17a-034 withheld malformed rather than refused).

After s17fb (the reader, issue 42; tests/protocol/test_fresh_s17b.py): acme 0.866 (22 of 30
answerable right, none wrong served clean; 10 of 10 unanswerable refused). Now right: s17a-003
('paid' of loss payments: the verb of its '-ment' noun), s17a-004 ('holding' in a question of
how much: a verb of having), s17a-005 ('plus' between the parts of a metric defined as their
sum), s17a-013 ('no.' between a thing and its number), s17a-016 ('texas' the state code TX,
ISO 3166-2:US; 'insured' of insurable objects), s17a-023 ('premium' the flag has_premium = 1),
s17a-026 ('how much premium': the one summed amount of the flag's rows; 'carried' a verb of
having). Left, with why:
- s17a-009 'how much premium did we write': 'write' a premium is the trade's word for issuing
  a policy; nothing in the catalog says it, so it stays unread (refused).
- s17a-010 'policies took effect in 2019': the catalog a reader gets names no metric's time
  dimension (effective_date), so 'effect' cannot be tied to the window's date (refused).
- s17a-018 'by how many dollars': ACME's amounts have no unit or currency in the catalog, so
  'dollars' would assume one (refused; 'dollars'/'bucks' read where the unit is USD).
- s17a-024 'total policy amount excluding premiums': now read (has_premium != 1), but the
  flag's other rows have no value (NULL), so the layer's not_in keeps none and the answer,
  'had no value', is withheld; the right filter is 'has_premium is null', which the analyst's
  wording and the audit's kept-out check do not yet say (withheld, never served).
- s17a-028 'what share of total losses is reserves': 'total losses' is now read
  (total_loss_amount), but a share of one metric in another is no governed query (a contract
  question: refused).
- s17a-030 'how many tornado claims': the layer answers a count over no rows as no value
  (`CASE WHEN COUNT(*) > 0`, MetricFlow's way), so 0 is no number any governed query gives;
  served with caveats ('had no value'), never clean.

After s17fa (measured on branch s17fa): flights 1.0 (38 of 38 answerable right; s17f-011 the
preamble 'for the ops review:', s17f-013 '(airport codes)', s17f-035 '(the blizzard)' served
clean, s17f-026 'san fran' read in doubt and served with caveats), acme 0.766 (s17a-029 'for the q3
board pack:' no longer read as a window: answered; s17a-034 refused, its refusal held to the
contract's 2,000 characters; s17a-027's refusal too, now refused on 'more', 'paid', 'hold',
which are s17fb's); none wrong served clean. The floors are raised to them. After both (merged
in s17-lead): flights 1.0, acme 0.883 (23 of 30 answerable right, 10 of 10 refused).

Wording fix (the tester's, not the analyst's): s17f-030 and s17a-018 first read "by how much did
X change / grow from A to B"; the analyst answered a percent change (-71.3 %, 0.0984 %) served
clean against a gold of B minus A (-15.48 min, 1,000). "By how much" admits both readings, so
both now say the unit ("by how many minutes", "by how many dollars").

Flights misses (gold in brackets):
- s17f-011 "for the ops review: what was the delay rate out of JFK in july?": refused, the
  preamble 'ops review' unread [0.3184]
- s17f-013 "top 3 destinations by number of flights (airport codes)": refused, 'codes' unread
  [ORD, ATL, LAX]
- s17f-026 "flights from jfk to san fran in the second half of 2013": refused, 'san fran' not
  read as SFO [4227]
- s17f-035 "what was the cancellation rate on feb 8 2013 (the blizzard)?": refused, the aside
  'blizzard' unread [0.5075]

Acme misses (gold in brackets):
- s17a-003 "total loss payments paid out so far?": refused, 'paid' unread [3500]
- s17a-004 "how much are we holding in loss reserves": refused, 'holding' unread [3100]
- s17a-005 "what is the total loss amount (payments plus reserves)?": refused, 'plus' unread [6600]
- s17a-009 "how much premium did we write in 2019?": refused, unknown metric 'premium'
  (total_policy_amount with policy_amount__has_premium = 1) [32000]
- s17a-010 "how many policies took effect in 2019": refused, 'effect' unread [1]
- s17a-013 "whats the loss reserve on claim no. 12312702": refused, 'no. 12312702' unread
  (closest named: company_claim_number = 12312702) [2100]
- s17a-016 "how many claims came from insured objects in texas": refused, 'insured' and 'texas'
  unread (state_code TX) [2]
- s17a-018 "by how many dollars did the total policy amount grow from 2016 to 2017?": refused,
  'dollars' unread (read as a change as a difference) [1000]
- s17a-023 "what fraction of the total policy amount is premium?": refused, 'premium' unread
  [0.0172]
- s17a-024 "total policy amount excluding premiums": refused, 'excluding premiums' unread
  [5600000]
- s17a-026 "how much premium has policy number 31003000336 carried overall?": refused, no
  metric [86000]
- s17a-027 "quick one for finance: how much more have we paid in losses than we hold in loss
  reserves?": withheld malformed, the refusal_reason over 2000 characters [400]
- s17a-028 "what share of total losses is reserves": refused, no metric read from 'total
  losses' [0.4697]
- s17a-029 "for the q3 board pack: total policy amount 2015 vs 2016, as a percent change": the
  preamble's 'q3' read as a period (q3 versus 2015), refused on 'board pack' [0.0985]
- s17a-030 "hello, how many tornado claims have we had?": served with caveats, "had no value"
  instead of 0 claims [0]
"""

from __future__ import annotations

from pathlib import Path

from rules_runs import file_tests

ROOT = Path(__file__).resolve().parents[2]
FILES = {
    "flights": ROOT / "examples" / "flights" / "questions_s17.yaml",
    "acme": ROOT / "conformance" / "questions" / "acme_s17.yaml",
}
HELD = {
    # domain: (how many questions, the balanced accuracy held (after s17fa, rounded DOWN to 3
    # places), the ids answered wrong and served clean in the first run)
    "flights": (50, 1.0, set()),  # after s17fa
    "acme": (40, 0.883, set()),  # after s17fa and s17fb together
}
LAYERS = {"flights": "flights_layer", "acme": "acme_layer"}

globals().update(file_tests(FILES, HELD, LAYERS))
