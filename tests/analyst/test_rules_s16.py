"""The rules analyst on a fresh batch of new-user questions (issue 42, session 16:
examples/flights/questions_s16.yaml, 50 questions; examples/shop/questions_s16.yaml, 40;
harness/questions/demo_s16.yaml, 40), written from the catalogs and the raw data before reading
the reader, the analyst, the audit or any earlier question file: the balanced accuracy first
measured on them under claims+repair (s16q, from main 6d3d966) is held as a floor, and no wrong
answer is served clean beyond the ones the first run had (none).

The first run's misses (question; what the analyst read or answered; the gold):

flights - 34 of 41 answerable right, 7 refused, 0 wrong served clean, 1 with caveats (s16f-034,
'avg' in doubt, right); 9 of 9 refused.
  refused: s16f-006 'what fraction of flights to boston got cancelled in 2013' (unread 'boston':
  no member is the city, BOS's name is General Edward Lawrence Logan Intl; gold 0.0296);
  s16f-012 'how many flights went to chicago o'hare over the summer (jun through aug)' ('over the
  summer' read as a season the catalog cannot read, the months in parentheses unused; gold
  4,724); s16f-013 'what share of all nyc flights in 2013 were united flights' (unread 'all nyc';
  gold 0.1742); s16f-030 'what fraction of flights from new york to san francisco were canceled'
  (unread 'new york', 'san francisco', closest San Francisco Intl; gold 0.00758); s16f-037 'what
  was the cancelation rate for flights to miami in sept' (unread 'cancelation rate', closest
  cancellation_rate, and 'miami', closest MIA; gold 0.00329); s16f-040 'how many more flights did
  united have than delta out of newark, all of 2013' (unread 'all'; gold 41,745); s16f-041 'hi,
  could you tell me the average visibility at lga in january? thanks' (unread 'thanks'; gold
  8.71).

shop - 29 of 33 answerable right, 4 refused, 0 wrong served clean, 11 with caveats (all right:
s16s-004/015/018/019/022/025/026/028/032 a year the data covers in part; s16s-003 'avg' and
s16s-030 'incl' in doubt; s16s-027 'new customers in quebec in 2019' also an off_question_filter
finding though the value is Québec's 47); 7 of 7 refused.
  refused: s16s-006 'what fraction of orders got cancelled in june 2019' (read as a share with no
  member; gold cancellation rate 0.0423); s16s-012 'what share of 2019 sales came from drinks?'
  (read as revenue, which has no product_type; product revenue equals revenue in total; gold
  0.357); s16s-021 'what % of 2018 orders came through the website' (unread 'through'; gold
  0.524); s16s-033 'what percentage of the new signups in 2018 were buisness customers' (unread
  the typo 'buisness', closest business; gold 0.202).

demo - 30 of 33 answerable right, 3 refused, 0 wrong served clean, 3 with caveats (all right:
s16d-007 February and s16d-015 January covered from their data's first day; s16d-011 'subs' in
doubt); 7 of 7 refused.
  refused: s16d-003 'avg active days per user in april' (unread 'avg'; gold 8.655); s16d-004 'how
  many new signups came in through paid search in march 2026' (unread 'through'; gold 3,746);
  s16d-021 'what fraction of the reminders sent to ios users in march got opened?' (read as
  reminders_sent, unread 'opened'; gold open rate 0.398).

After s16q (each reading tested on two domains in tests/protocol/test_fresh_s16.py): flights 40 of
41 answerable right, shop 32 of 33, demo 33 of 33, every unanswerable refused, none wrong served
clean. Mended: s16f-041 ('hi', 'thanks': politeness), s16f-040 ('all of 2013': the whole of the
period), s16f-012 ('over the summer (jun through aug)': the period in parentheses; "o'hare": the
word without its apostrophe, as names are matched), s16f-037 ('cancelation': not a slip toward its
own plural, so cancellation, in doubt), s16f-013/030 ('nyc', 'new york': the origin's synonyms 'nyc
airport', 'new york airport' say every origin is one; in doubt, so served with caveats), s16s-006
('orders got cancelled': the rate whose numerator the count read is), s16s-012 (a share by a member
of a dimension revenue cannot split: product_revenue, as a breakdown already was), s16s-021 and
s16d-004 ('through' before a member), s16d-003 ('avg': a short form of one English word, read with
no doubt; so s16f-034 and s16s-003 are served clean, and 'incl' on s16s-030), s16d-021 ('the
reminders sent … got opened': the open rate), and s16s-027's false off_question_filter (a filter on
region__region_name carries the customers' region). Left refused: s16f-006 ('boston': no catalog
entry or data value names BOS so; the one airport named Boston, Boston Back Bay Station, has no
flights) and s16s-033 ('buisness': a misspelled member is refused with a did-you-mean naming
business, as the question files' near misses are).
"""

from __future__ import annotations

from pathlib import Path

from rules_runs import file_tests

ROOT = Path(__file__).resolve().parents[2]
FILES = {
    "flights": ROOT / "examples" / "flights" / "questions_s16.yaml",
    "shop": ROOT / "examples" / "shop" / "questions_s16.yaml",
    "demo": ROOT / "harness" / "questions" / "demo_s16.yaml",
}

HELD = {
    # domain: how many questions, the balanced accuracy held (first run, s16q from main 6d3d966:
    # flights 0.9146, shop 0.9394, demo 0.9545; after s16q: 0.9878, 0.9848, 1.0), the ids answered
    # wrong and served clean (first run and since: none)
    "flights": (50, 0.987, set()),
    "shop": (40, 0.984, set()),
    "demo": (40, 1.0, set()),
}


LAYERS = {"flights": "flights_layer", "shop": "shop_layer", "demo": "layer"}


globals().update(file_tests(FILES, HELD, LAYERS))
