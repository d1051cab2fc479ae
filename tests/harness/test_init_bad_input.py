"""Bad input is an error, not a silent table (issue 44, item 7): each malformed CSV and each value
breaking its column's type is refused naming the file and the line — through `showwork init`
(exit 3, never 70) and through a `files:` warehouse — on two domains (sales, flights)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from test_project import home, showwork  # noqa: F401 (fixtures)

from showwork.harness.init import init_project
from showwork.harness.project import ProjectError
from showwork.semantic_layer import errors
from showwork.semantic_layer.engines import open_engine
from showwork.semantic_layer.execute import Limits

SALES = "region,sold_on,amount\nnorth,2016-01-01,10\nsouth,2016-04-01,20\neast,2016-07-01,30\n" \
        "west,2016-10-01,40\n"
FLIGHTS = "carrier,flight_date,dep_delay\nUA,2013-01-01,4\nAA,2013-01-02,-2\nDL,2013-01-03,12\n" \
          "B6,2013-01-04,0\n"

CASES = {
    # name: (how the good file is broken, what the message must say)
    "unclosed_quote": (lambda t: t.replace("\n", '\n"', 1).replace(",", ",", 1),
                       r":2: a quoted field opened on this line is never closed"),
    "ragged_row": (lambda t: t.replace("\n", ",extra,fields\n", 3).replace(
        ",extra,fields\n", "\n", 2), r":3: this row has 5 fields, the header has 3"),
    "no_header": (lambda t: t.split("\n", 1)[1], r":1: the first line \(.*\) holds data, not "
                  "column names"),
    "mixed_delimiters": (lambda t: _semicolons(t, 3),
                         r":3: .*this row is separated by ';', the header by ','"),
    "bad_date": (lambda t: _replace_line(t, 3, lambda f: [f[0], f[1][:5] + "13-01", f[2]]),
                 r":3: column '(sold_on|flight_date)' could not be typed: .*-13-01'"),
    "bad_number": (lambda t: _replace_line(t, 3, lambda f: [f[0], f[1], "2O"]),
                   r":3: column '(amount|dep_delay)' could not be typed: .*'2O'"),
}


def _replace_line(text: str, line: int, change) -> str:  # type: ignore[no-untyped-def]
    lines = text.split("\n")
    lines[line - 1] = ",".join(change(lines[line - 1].split(",")))
    return "\n".join(lines)


def _semicolons(text: str, line: int) -> str:
    lines = text.split("\n")
    lines[line - 1] = lines[line - 1].replace(",", ";")
    return "\n".join(lines)


def _folder(root: Path, domain: str, case: str) -> Path:
    folder = root / f"{domain}_{case}"
    folder.mkdir()
    good = SALES if domain == "sales" else FLIGHTS
    (folder / f"{domain}.csv").write_text(CASES[case][0](good), encoding="utf-8")
    return folder


@pytest.mark.parametrize("domain", ["sales", "flights"])
@pytest.mark.parametrize("case", sorted(CASES))
class TestBadInput:
    """One malformed file per case and domain."""

    def test_init_names_file_and_line(self, tmp_path: Path, case: str, domain: str) -> None:
        """init refuses the folder with FILE:LINE and writes nothing."""
        folder = _folder(tmp_path, domain, case)
        with pytest.raises(ProjectError, match=f"{domain}.csv{CASES[case][1]}"):
            init_project(tmp_path / "draft", folder)
        assert not (tmp_path / "draft" / "showwork.yaml").exists()

    def test_files_warehouse_names_file_and_line(self, tmp_path: Path, case: str,
                                                 domain: str) -> None:
        """A `files:` warehouse refuses the same file with the same words."""
        folder = _folder(tmp_path, domain, case)
        with pytest.raises(errors.FileLoadError, match=f"{domain}.csv{CASES[case][1]}"):
            open_engine({"files": str(folder)}, tmp_path).close()


def test_the_good_files_load(tmp_path: Path) -> None:
    """The unbroken files draft and load (the cases above fail for their fault alone)."""
    for domain, text in (("sales", SALES), ("flights", FLIGHTS)):
        folder = tmp_path / domain
        folder.mkdir()
        (folder / f"{domain}.csv").write_text(text, encoding="utf-8")
        engine = open_engine({"files": str(folder)}, tmp_path)
        assert engine.run(f"SELECT count(*) FROM {domain}", Limits()) == [(4,)]
        engine.close()
        init_project(tmp_path / f"draft_{domain}", folder)
        assert (tmp_path / f"draft_{domain}" / "showwork.yaml").exists()


@pytest.mark.parametrize("case", sorted(CASES))
def test_cli_exits_3_not_70(tmp_path: Path, home: Path, case: str) -> None:  # noqa: F811
    """`showwork init` on each malformed CSV exits 3 with the file, the line and what is wrong,
    no traceback."""
    folder = _folder(tmp_path, "sales", case)
    result = showwork("init", str(tmp_path / "draft"), "--from", str(folder), home=home)
    assert result.returncode == 3, result.stderr
    assert re.search(f"sales.csv{CASES[case][1]}", " ".join(result.stderr.split())), \
        result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize("domain", ["sales", "flights"])
def test_a_column_mostly_text_is_kept_as_text_with_a_note(tmp_path: Path, domain: str) -> None:
    """A column where at most half the values read as numbers stays text, and init says so
    (a warning naming the file and the column) instead of refusing or guessing."""
    folder = tmp_path / domain
    folder.mkdir()
    good = SALES if domain == "sales" else FLIGHTS
    lines = good.strip().split("\n")
    tagged = [lines[0] + ",tag"] + [f"{x},{t}" for x, t in zip(lines[1:], ("12", "n/a", "x", "y"),
                                                                strict=True)]
    (folder / f"{domain}.csv").write_text("\n".join(tagged) + "\n", encoding="utf-8")
    result = init_project(tmp_path / "draft", folder)
    assert any(f"{domain}.csv: column 'tag' kept as text: 1 of its 4 values read as DOUBLE" in w
               for w in result.warnings), result.warnings
