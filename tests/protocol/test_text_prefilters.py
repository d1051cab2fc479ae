"""The text readers skip a pattern only where it cannot match: the number masks
(`numbers._masked_spans`), the number words (`numbers._wordy`) and the kept-out and 'only' cues
(`filters.exclusions`), and any module pattern behind `_literals.may_match` (what every match
holds, read from the pattern's parse) or tried only where a match may start (`_literals.places`:
what every match starts with) read every text exactly as the unfiltered search reads it — the golden traces' questions and answers, and texts
built here from each catalog's own members, cue words in any case and the letters re's
IGNORECASE folds onto ASCII ('ſ', 'K', 'ı'), on the demo and the shop."""

from __future__ import annotations

import importlib.util
import itertools
import re
from pathlib import Path

import pytest
from golden_texts import golden_texts
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from showwork.protocol import numbers
from showwork.protocol.reading import _literals, filters
from showwork.protocol.reading.mentions import find_mentions

ROOT = Path(__file__).resolve().parents[2]
LAYER = {"demo": "layer", "shop": "shop_layer"}


_DATED = ("Jan 4", "FEB. '13", "sept 2019", "12 March", "13th of April, 2026", "Week 11",
          "WK 3", "fy 2026", "Quarter 2", "day 7", "9am", "5 P.M.", "10:30", "No. 4", "#2", "(3)",
          "1.2.3", "07/2019", "2026-03-09", "tree:orders>aov", "r4[product=\"x 2\"]:revenue.value",
          "1. Brooklyn", "ſept 3", "weeK 4", "ſeptember 9", "\u212a 5", "fıscal year 2019",
          "12 ſep", "4 aM", "3 a.m.", "f\u0130scal year 2019", "2.56 → 2.78 in week 3",
          "\u0130SO week 4", "Sales Q1 → Q2 (2026-03-09)")


def _mask_texts() -> list[str]:
    frames = ("{} rose 4.2 % to 1,204", "Revenue was $59,224.50 in {}; {} it fell 3",
              "{}: 18 orders, 7 % of {}")
    built = [frame.format(*pair) for frame in frames
             for pair in itertools.product(_DATED, repeat=frame.count("{}"))]
    return built + [d.upper() for d in _DATED] + golden_texts()


def _unfiltered_masks(text: str) -> list[tuple[int, int]]:
    return [m.span() for mask in numbers.MASKS for m in mask.finditer(text)]


def test_the_masks_are_searched_where_they_may_match() -> None:
    """Every text's masked spans are those of every mask searched, in the same order; and the
    prefilter does skip masks (a text with no month or time of day is not searched for one)."""
    texts = _mask_texts()
    assert len(texts) > 1_000
    assert [t for t in texts if numbers._masked_spans(t) != _unfiltered_masks(t)] == []
    plain = "Orders rose 18.4 % to 1,204"
    searched = [mask for mask, needs in numbers._MASK_NEEDS
                if not needs or any(w in plain.lower() for w in needs)]
    assert len(searched) < len(numbers.MASKS) // 2


_CUES = ("excluding", "EXCLUDING", "except for", "without", "not counting", "not including",
         "other than", "apart from", "aside from", "but not", "leaving out", "outside of",
         "all stores but", "every platform save", "only", "ONLY", "ſave", "wıthout", "aſide from",
         "exclude", "Except")


def _members(catalog: dict) -> list[str]:
    out = [str(m) for info in catalog.get("dimensions", {}).values()
           for m in info.get("members") or ()]
    return out[:12]


def _cue_texts(catalog: dict) -> list[str]:
    members = _members(catalog)
    assert len(members) >= 3
    frames = ("How many orders {} {}?", "Revenue for {} {} rose 4 %", "{} {}, and {}, fell",
              "Every metric {} {} or {} only", "{} the {} {} in March")
    out = []
    for frame, cue in itertools.product(frames, _CUES):
        for a, b in itertools.islice(itertools.permutations(members, 2), 0, None, 5):
            values = (cue, a, b) if frame.count("{}") == 3 else (cue, a)
            out.append(frame.format(*values))
            out.append(frame.format(*reversed(values)))
    return out + [f"{a} and {b} only" for a, b in itertools.combinations(members, 2)]


def _unfiltered_exclusions():
    """`filters.exclusions` run from its source with every cue pattern searched (a module of
    its own: the compiled build's calls within it are not patched)."""
    spec = importlib.util.spec_from_file_location("unfiltered_filters",
                                                  ROOT / "protocol/reading/filters.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.may_hold = lambda _text, _words: True
    return module.exclusions


@pytest.mark.parametrize("domain", sorted(LAYER))
def test_kept_out_and_only_cues_are_searched_where_they_may_match(domain, request) -> None:
    """Every text reads the same members kept out and kept alone with the cue prefilter as
    with every cue pattern searched; the texts include members kept out and alone (the
    prefilter has matches to keep) and texts with no cue (it has searches to skip)."""
    catalog = request.getfixturevalue(LAYER[domain]).catalog()
    texts = _cue_texts(catalog) + golden_texts()
    read = [(t, find_mentions(t, catalog)) for t in texts]
    filtered = [repr(filters.exclusions(t, m)) for t, m in read]
    unfiltered_exclusions = _unfiltered_exclusions()
    unfiltered = [repr(unfiltered_exclusions(t, m)) for t, m in read]
    assert [t for (t, _), a, b in zip(read, filtered, unfiltered, strict=True) if a != b] == []
    kept_out = [f for f in filtered if "excluding " in f]
    assert kept_out and any("'only'" in f for f in filtered)
    skipped = [t for t in texts if not filters.may_hold(t, filters._CUE_WORDS)
               and not filters.may_hold(t, ("only",))]
    assert skipped and not any(re.search(r"(?i)exclud|except|without|only|but|save", t)
                               for t in skipped)


_WORDY = ("doubled", "Tripled", "QUADRUPLED", "quintupled", "halved", "half", "halves", "a third",
          "thirds", "quarter", "Quarters", "fifths", "sixth", "sevenths", "eighth", "ninths",
          "tenth", "twentieths", "hundredths", "threefold", "two-fold", "10-Fold", "hundred",
          "thousand", "MILLION", "billion", "percent", "per cent", "twice", "3 times", "factor",
          "3x", "2.5X", "a 4 %", "to 40 % of", "ſeven hundred", "tımes", "hal\u017fves",
          "\u212a 3x", "fold", "folded", "unfold", "x", "axe 3", "centre", "t\u0130mes",
          "2.5 → 3 %", "rose → 4", "h\u0130gh")


def test_number_words_are_searched_where_they_may_match() -> None:
    """`numbers._wordy` (the prefilter before the number-word pattern) says of every text what
    the pattern's search says: the golden texts, the mask texts, and each word the pattern
    reads in frames, in any case and with the letters IGNORECASE folds; and it skips texts
    (most texts with no number word are not searched)."""
    frames = ("Revenue {} in May", "{}", "Orders rose 4.2 {}", "{}: 18 orders")
    texts = [f.format(w) for f in frames for w in _WORDY] + _mask_texts()
    searched = [numbers._WORDY.search(t) is not None for t in texts]
    assert [t for t, s in zip(texts, searched, strict=True) if numbers._wordy(t) != s] == []
    assert 0 < sum(searched) < len(texts)
    skipped = [t for t in texts if t.isascii() and not any(
        w in t.lower() for w in numbers._WORDY_WORDS) and "x" not in t.lower()]
    assert len(skipped) > len(texts) // 4


def _module_patterns() -> list[re.Pattern[str]]:
    """Every compiled text pattern of the audit and the readers, at module level."""
    import importlib

    out: dict[re.Pattern[str], None] = {}
    for folder in ("harness/audit", "protocol", "protocol/reading"):
        for path in sorted((ROOT / folder).glob("*.py")):
            name = "showwork." + f"{folder}/{path.stem}".replace("/", ".")
            module = importlib.import_module(name)
            out.update(dict.fromkeys(v for v in _flat(vars(module).values())
                                     if isinstance(v, re.Pattern) and isinstance(v.pattern, str)))
    return list(out)


def _flat(values, depth: int = 2) -> list:
    """The values, and the items of tuples among them (patterns kept in a tuple: `_BASES`)."""
    out = []
    for v in values:
        out.append(v)
        if depth and isinstance(v, tuple):
            out += _flat(v, depth - 1)
    return out


def test_a_pattern_is_skipped_only_where_it_cannot_match() -> None:
    """`_literals.may_match` says False of no text that a pattern matches in: every module
    pattern of the audit and the readers over the golden and mask texts, and the texts built
    from each pattern's own needs (in any case, and with the letters IGNORECASE folds); those
    texts hold thousands of matches, and the prefilter skips most pattern-text pairs."""
    patterns = _module_patterns()
    assert len(patterns) > 150
    texts = golden_texts() + list(_DATED) + [
        t for p in patterns for w in sorted(_literals.needs(p) or ())[:3]
        for t in (f"Orders {w} 4 %", w.upper(), w.replace("s", "ſ"))]
    matched = skipped = 0
    for p in patterns:
        for t in texts:
            if not _literals.may_match(p, t):
                skipped += 1
                assert p.search(t) is None, (p.pattern, t)
            elif p.search(t) is not None:
                matched += 1
    assert matched > 5_000 and skipped > len(patterns) * len(texts) // 2, (matched, skipped)


@pytest.mark.parametrize(("pattern", "held"), [
    (r"(?i)\b(?:rose|fell)\b", {"rose", "fell"}), (r"\d+", None), (r"(?:abc)?d", {"d"}),
    (r"(?:ab)+c", {"ab"}), (r"x(?:yz|w)?", {"x"}), (r"(?=foo)b", {"b"}), (r"(?i)ſ", None),
    (r"(?i)caf\u00e9s", {"caf"}), (r"rose|\d", None), (r"[ab]c", {"c"}), (r"(?:up)*", None),
])
def test_what_a_pattern_needs_is_read_from_its_parse(pattern, held) -> None:
    """Each run of literal ASCII characters is held, a branch holds one of its branches' needs,
    an optional or starred part nothing, a class or a non-ASCII letter nothing."""
    assert _literals.needs(re.compile(pattern)) == (None if held is None else frozenset(held))


@pytest.mark.slow
def test_texts_a_pattern_matches_are_never_skipped() -> None:
    """For text each module pattern with needs matches, generated from the pattern
    (hypothesis's `from_regex`, ASCII and not), `may_match` is True."""
    patterns = [p for p in _module_patterns() if _literals.needs(p) is not None]
    assert len(patterns) > 100

    @settings(max_examples=8, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    @given(text=st.data())
    def holds(pattern: re.Pattern[str], text) -> None:
        drawn = text.draw(st.from_regex(pattern))
        assert _literals.may_match(pattern, drawn), (pattern.pattern, drawn)

    for pattern in patterns:
        holds(pattern)


def _found(matches: list[re.Match[str]] | re.Match[str] | None) -> list[object]:
    found = [matches] if isinstance(matches, re.Match) else matches or []
    return [(m.span(), m.groups(), m.groupdict()) for m in found]


def test_a_pattern_is_tried_only_where_a_match_may_start() -> None:
    """`_literals.search` and `_literals.matches` (a pattern tried only where one of the
    strings every match starts with is written, `places`) find what `search` and `finditer`
    find, groups and all, for every module pattern of the audit and the readers over the
    golden and mask texts and texts built from each pattern's starts (in any case, with the
    letters IGNORECASE folds, and written often enough that the text is searched whole); most
    pattern-text pairs with a match are found so."""
    patterns = _module_patterns()
    started = [p for p in patterns if _literals.starts(p) is not None]
    assert len(started) > 150
    texts = golden_texts() + _mask_texts() + [
        t for p in started for w in sorted(_literals.starts(p) or ())[:3]
        for t in (f"Orders {w} 4 % in 2019", f"{w.upper()}{w}", w.replace("s", "ſ"),
                  " ".join([w] * (_literals.AT_MOST + 2)), f"x{w}, {w}→{w.title()}")]
    tried = 0
    for p in patterns:
        for t in texts:
            assert _found(_literals.matches(p, t)) == _found(list(p.finditer(t))), (p.pattern, t)
            assert _found(_literals.search(p, t)) == _found(p.search(t)), (p.pattern, t)
            tried += _literals.places(p, t) is not None and p.search(t) is not None
    assert tried > 5_000, tried


@pytest.mark.parametrize(("pattern", "starts"), [
    (r"(?i)\b(?:the\s+)?(?:rose|fell)\b", {"the", "rose", "fell"}), (r"\d+", None),
    (r"(?:abc)?d", {"abc", "d"}), (r"(?:ab)+c", {"ab"}), (r"x(?:yz|w)?", {"x"}),
    (r"(?<![\w.])Rs?\b", {"r"}), (r"(?=foo)bar", {"bar"}), (r"[.;!?](?=\s)", {".", ";", "!", "?"}),
    (r"(?i)caf\u00e9s", {"caf"}), (r"rose|\d", None), (r"[a-c]x", None), (r"(?:up)*x", {"up", "x"}),
    (r"(?:x?)+y", None), (r"\u00e9t\u00e9", None), (r"[^.]x", None),
])
def test_what_a_match_starts_with_is_read_from_its_parse(pattern, starts) -> None:
    """A match starts with its first literal run, past what matches no character (`\\b`, a
    look-around); a group with what it and what follows it start with, a branch with one of
    its branches', an optional part with its own or what follows; a class of ASCII characters
    written out with one of them; anything else (a range, a category, a letter outside ASCII,
    a part that may match nothing) shows nothing."""
    assert _literals.starts(re.compile(pattern)) == (None if starts is None else frozenset(starts))


@pytest.mark.slow
def test_a_pattern_tried_where_it_may_start_matches_as_re_does() -> None:
    """For text each module pattern with starts matches (hypothesis's `from_regex`), and that
    text behind other words, `_literals.matches` finds what `finditer` finds."""
    patterns = [p for p in _module_patterns() if _literals.starts(p) is not None]

    @settings(max_examples=8, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    @given(data=st.data())
    def same(pattern: re.Pattern[str], data) -> None:
        drawn = data.draw(st.from_regex(pattern))
        for text in (drawn, f"Orders {drawn} rose", drawn * 3):
            assert _found(_literals.matches(pattern, text)) == _found(list(pattern.finditer(text)))

    for pattern in patterns:
        same(pattern)


_STATED = ("stood at ", "Stands at ", "the percent change was ", "THE PERCENTAGE CHANGE IS ",
           "a change of\n ", "was ", "were\n", "about a ", "roughly  ", "ſtood at ", "took ",
           "at ", "cat ", "hat 5 at ", "(was) ", "was: ", "it's about ", "just\u00a0",
           "\u212aeeps ", "reached - ", "totalled\t", "came in at ", "no. was ")


def test_a_stated_value_cue_is_searched_from_the_run_before_the_number() -> None:
    """`words._stated_as(text, end)` (the cue before a number, searched from where the run of
    letters and white space before `end` begins) finds what the search of the whole text
    before `end` finds, at every position of the golden and mask texts and of texts built
    with each cue (in any case, after digits, punctuation and the letters IGNORECASE folds)."""
    from showwork.harness.audit import words

    built = [f"{lead}{cue}{n}" for lead in ("", "Orders ", "In 2019 revenue ", "x9", "a, b; ")
             for cue in _STATED for n in ("4", "11,343 orders", "")]
    texts = built + [c.upper() for c in built] + _mask_texts()
    found = compared = 0
    for text in texts:
        for end in range(len(text) + 1):
            whole = words._STATED_AS.search(text, 0, end)
            assert _span(words._stated_as(text, end)) == _span(whole), (text, end)
            found += whole is not None
            compared += 1
    assert found > 1_000 and compared > 100_000, (found, compared)


def _span(m: re.Match[str] | None) -> tuple[int, int] | None:
    return None if m is None else m.span()


def test_texts_outside_ascii_are_prefiltered_as_re_folds_them() -> None:
    """Outside ASCII a text is lowered as IGNORECASE compares (`_literals.lowered`): the four
    letters re matches to an ASCII letter ('İ', 'ı', 'ſ', Kelvin's 'K') are that letter, so a
    text with an arrow is skipped where it holds none of a pattern's needs, and never where a
    folded letter makes the match ('İs' is 'is')."""
    every = "".join(chr(i) for i in range(128, 0x110000) if not 0xD800 <= i < 0xE000)
    folding = {c for x in "abcdefghijklmnopqrstuvwxyz" for c in re.findall(f"(?i){x}", every)}
    assert folding == {"\u0130", "\u0131", "\u017f", "\u212a"}
    assert all(re.fullmatch(f"(?i){_literals.lowered(c)}", c) for c in folding)
    arrow = "Orders 2,616 → 2,093"
    assert not _literals.may_match(re.compile(r"(?i)\b(?:rose|fell)\b"), arrow)
    assert _literals.may_match(re.compile(r"(?i)\bis\b"), "it \u0130S → 4")
    assert not numbers._wordy(arrow) and numbers._wordy("2.5 → 3 percent")


def _matches(pattern: re.Pattern[str], text: str) -> list[object]:
    return [(m.span(), m.groups(), m.groupdict()) for m in pattern.finditer(text)]


def test_a_pattern_s_ascii_twin_matches_as_it_does_in_plain_texts() -> None:
    """`_literals.ascii_twin` (the pattern compiled with re.ASCII, searched in a `plain` text)
    finds the very matches of the pattern, groups and all, for every module pattern of the
    audit and the readers over the plain golden and mask texts and texts built from each
    pattern's needs (in any case, and with marks outside ASCII: '→', '—'); a text with a
    letter, digit or white space outside ASCII or a character only Unicode's `\\s` reads as
    white space is not plain, and a pattern naming a letter IGNORECASE folds onto ASCII keeps
    no twin."""
    patterns = _module_patterns()
    texts = [t for t in golden_texts() + _mask_texts() + [
        s for p in patterns for w in sorted(_literals.needs(p) or ())[:3]
        for s in (f"Orders {w} 4 % in 2019", w.upper(), f"{w}\t{w.title()}_2",
                  f"{w}→{w.upper()} — 2,616 ≈ {w}’s")]
        if _literals.plain(t)]
    assert len(texts) > 2_000
    twins = [(p, _literals.ascii_twin(p)) for p in patterns]
    assert sum(t is not p for p, t in twins) > 150
    found = 0
    for pattern, twin in twins:
        for text in texts:
            got = _matches(twin, text)
            assert got == _matches(pattern, text), (pattern.pattern, text)
            found += len(got)
    assert found > 10_000, found
    assert _literals.plain("Orders rose 4.2 %\n\t(1,204)")
    assert _literals.plain("Orders 2,616 → 2,093 — about ≈ 20 % of Q1’s")
    assert sum(not t.isascii() for t in texts) > 50  # marks outside ASCII are plain
    for odd in ("a\x1cb", "café", "a\u00a0b", "ſum", "\u212a 5", "\u0663 orders", "f\u0130scal"):
        assert not _literals.plain(odd), odd
    spaced = re.compile(r"a\sb")
    assert spaced.search("a\x1cb") and not _literals.ascii_twin(spaced).search("a\x1cb")
    for folded in (r"(?i)\bſum", r"(?i)[^\u212a]", r"(?i)f[\u0100-\u0200]scal", r"(?u)x"):
        pattern = re.compile(folded)
        assert _literals.ascii_twin(pattern) is pattern
    assert _literals.fit(spaced, "a\x1cb") is spaced


@pytest.mark.slow
def test_a_twin_matches_as_its_pattern_in_any_plain_text() -> None:
    """For plain text drawn at random (ASCII letters, digits, punctuation, white space and
    marks outside ASCII) and text each module pattern matches (hypothesis's `from_regex`, kept
    where plain), a pattern and its ASCII twin find the same matches."""
    patterns = _module_patterns()
    ascii_text = st.text(st.characters(min_codepoint=9, max_codepoint=126,
                                       blacklist_characters="\x0e\x0f\x10\x11\x12\x13\x14\x15"
                                       "\x16\x17\x18\x19\x1a\x1b\x1c\x1d\x1e\x1f")
                         | st.sampled_from("→—–≈’€£±×÷·…“”"), max_size=60)

    @settings(max_examples=8, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    @given(data=st.data())
    def same(pattern: re.Pattern[str], data) -> None:
        for text in (data.draw(ascii_text), data.draw(st.from_regex(pattern))):
            if _literals.plain(text):
                assert _matches(_literals.ascii_twin(pattern), text) == _matches(pattern, text)

    for pattern in patterns:
        same(pattern)
