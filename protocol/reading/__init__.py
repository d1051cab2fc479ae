"""One deterministic reader of text against any catalog.

`read_text(text, catalog)` says which governed metrics, members, dimensions and periods a text
names, what shape of answer it asks for, and what it names that the catalog cannot read. The
rules analyst reads questions with it; the audit reads claims with it. Stdlib only; the catalog
is the plain dict `semantic_layer.catalog.build_catalog` writes (optional governance keys:
dimension `synonyms` and `member_synonyms`).
"""

from showwork.protocol.reading._calendar import Period, previous_period
from showwork.protocol.reading._reader import Reading, rate_metrics, read_text
from showwork.protocol.reading.asks import Asks, By, Ranking, asks_why
from showwork.protocol.reading.gaps import Gap
from showwork.protocol.reading.instructions import split_instruction
from showwork.protocol.reading.mentions import Mention, find_mentions, find_metrics
from showwork.protocol.reading.periods import PeriodMention, PeriodProblem, Periods, find_periods, parse_day

__all__ = ["Asks", "By", "Gap", "Mention", "Period", "PeriodMention", "PeriodProblem", "Periods",
           "Ranking", "Reading", "asks_why", "find_mentions", "find_metrics", "find_periods",
           "parse_day", "previous_period", "rate_metrics", "read_text", "split_instruction"]
