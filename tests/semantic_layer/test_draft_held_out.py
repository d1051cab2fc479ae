"""What two held-out public tables taught init (issue 44, session 6), each inference tested where
it fires and where it must not, on small CSV folders shaped like them (a table of loans with its
help page; a monthly price index stored as year and month columns; a state × year panel):

- a row is the thing several columns' documentation calls them a part of, also when the clause
  after it has no 'that' ('the amount of the loan the applicant received');
- a metric's description names the event its time dimension dates ('issue_month': issued), so
  'loans issued in March' is read, while a state the metric does not carry is still refused;
- a level named so (a balance) in a table of events is summed across rows; in a panel it stays
  a level at the period's end;
- a column named late that is money (late fees paid) is an amount, not a delay;
- the documentation's own order of a column's words names it ('interest paid'), and a total
  named last is asked for with 'total' first ('total paid');
- an index or a stock also has its mean over a window's rows ('the average CPI in 2013'), while
  the level itself stays its last period.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from showwork.benchmarks.init_questions import _ask
from showwork.harness.init import init_project
from showwork.harness.project import Project

MONTHS = ("Jan-2018", "Feb-2018", "Mar-2018")
LOANS_DOC = """## Loan data

### Format

A data frame with 90 observations on the following 9 variables.

state

Two-letter state code.

listing

Initial listing status of the loan: whole or fractional.

loan_amount

The amount of the loan the applicant received.

interest_rate

Interest rate of the loan the applicant received.

issue_month

Month the loan was issued.

balance

Current balance on the loan.

paid_total

Total that has been paid on the loan by the applicant.

paid_interest

The amount of interest paid so far by the applicant.

paid_late_fees

Late fees paid by the applicant.
"""


def _loans(folder: Path) -> Path:
    folder.mkdir(parents=True)
    rows = [f"{i + 1},{('CA', 'NY', 'TX')[i % 3]},{('whole', 'fractional')[i % 2]},"
            f"{1000 * (1 + i % 7)},{5 + (i % 9) * 1.5},{MONTHS[i % 3]},{700.5 * (1 + i % 5)},"
            f"{90.25 * (1 + i % 4)},{30.5 * (1 + i % 3)},{(i % 4 == 0) * 15.0}"
            for i in range(90)]
    (folder / "loans.csv").write_text(
        "rownames,state,listing,loan_amount,interest_rate,issue_month,balance,paid_total,"
        "paid_interest,paid_late_fees\n" + "\n".join(rows) + "\n", encoding="utf-8")
    (folder / "loans.md").write_text(LOANS_DOC, encoding="utf-8")
    return folder


def _draft(tmp_path: Path, folder: Path) -> tuple[dict[str, str], dict[str, Any], Any]:
    result = init_project(tmp_path / "draft", folder)
    gov = yaml.safe_load((tmp_path / "draft" / "governance.yaml").read_text("utf-8"))
    roles = {f"{r.table}.{r.column}": r.role for r in result.roles}
    return roles, gov, Project.open(tmp_path / "draft").layer()


def _value(layer: Any, text: str) -> tuple[Any, str]:
    answer, trace = _ask(layer, "q", text)
    served = trace.served()
    return answer.get("value"), str(((served.audit if served else None) or {}).get("decision"))


@pytest.fixture(scope="module")
def loans(tmp_path_factory) -> Any:
    root = tmp_path_factory.mktemp("loans")
    roles, gov, layer = _draft(root, _loans(root / "data"))
    yield {"roles": roles, "gov": gov, "layer": layer}
    layer.close()


def _sql(layer: Any, sql: str) -> Any:
    return layer.run_sql(sql)[0][0]


def _equal_sql(layer: Any, asked: dict[str, str]) -> None:
    """Each question's answer is its SQL's value on the raw table."""
    got = {text: _value(layer, text)[0] for text in asked}
    assert got == {text: pytest.approx(_sql(layer, sql)) for text, sql in asked.items()}


class TestEventsWithMoney:
    def test_roles(self, loans) -> None:
        """A balance in a table of events and late fees are amounts; the rate is averaged."""
        roles = loans["roles"]
        assert {k: roles[f"loans.{k}"] for k in ("balance", "paid_late_fees", "interest_rate",
                                                 "loan_amount")} == {
            "balance": "amount", "paid_late_fees": "amount", "interest_rate": "average",
            "loan_amount": "amount"}

    def test_rows_are_the_documented_thing(self, loans) -> None:
        """Three columns' documentation calls them a part of the loan: the count is of loans."""
        counts = [n for n, m in loans["gov"]["metrics"].items()
                  if "number of loans" in (m.get("synonyms") or ())]
        assert len(counts) == 1

    @pytest.mark.parametrize(("text", "sql"), [
        ("How many loans were issued in March 2018?",
         "SELECT count(*) FROM loans WHERE issue_month = 'Mar-2018'"),
        ("What was the total loan amount issued in January 2018?",
         "SELECT sum(loan_amount) FROM loans WHERE issue_month = 'Jan-2018'"),
        ("What was the total current balance of loans in CA?",
         "SELECT sum(balance) FROM loans WHERE state = 'CA'"),
        ("What was the total interest paid in February 2018?",
         "SELECT sum(paid_interest) FROM loans WHERE issue_month = 'Feb-2018'"),
        ("What were the total late fees paid?", "SELECT sum(paid_late_fees) FROM loans"),
        ("What was the total paid in March 2018?",
         "SELECT sum(paid_total) FROM loans WHERE issue_month = 'Mar-2018'"),
    ])
    def test_answers_equal_sql_and_are_served(self, loans, text: str, sql: str) -> None:
        """Each answer equals SQL on the raw table and is served (with the draft's caveat): the
        analyst's note of the whole covered range names no listing status 'whole'."""
        value, decision = _value(loans["layer"], text)
        assert value == pytest.approx(_sql(loans["layer"], sql))
        assert decision == "serve_with_caveats"

    def test_the_window_note_names_no_member_on_a_second_domain(self, tmp_path: Path) -> None:
        """Sales by channel, one channel named 'whole': an answer over the whole covered range
        equals SQL and is served; naming the member still filters by it."""
        folder = tmp_path / "data"
        folder.mkdir()
        (folder / "sales.csv").write_text("sold_on,channel,amount\n" + "\n".join(
            f"2020-{m:02d}-{d:02d},{('whole', 'retail')[(m + d) % 2]},{12.5 * (d % 6 + 1)}"
            for m in range(1, 7) for d in (3, 11, 19)) + "\n", encoding="utf-8")
        _, _, layer = _draft(tmp_path, folder)
        try:
            value, decision = _value(layer, "What was the total amount?")
            assert (value, decision) == (pytest.approx(_sql(layer, "SELECT sum(amount) FROM "
                                                                   "sales")), "serve_with_caveats")
            _equal_sql(layer, {"What was the total amount of the whole channel?":
                               "SELECT sum(amount) FROM sales WHERE channel = 'whole'"})
        finally:
            layer.close()

    def test_a_state_the_metric_does_not_carry_is_still_refused(self, loans) -> None:
        """'shipped' is no word of the time dimension (issue_month): refused, not read away."""
        value, _ = _value(loans["layer"], "How many loans were shipped in March 2018?")
        assert value is None


class TestWhereItMustNotFire:
    def test_a_balance_per_account_per_month_stays_a_level(self, tmp_path: Path) -> None:
        """In an account × month panel the balance is its last month over time, summed across
        accounts; a delay in minutes stays a delay; a time column named only as time adds no
        word to the metrics' descriptions."""
        folder = tmp_path / "data"
        folder.mkdir()
        (folder / "accounts.csv").write_text("account,month,balance,arr_delay\n" + "\n".join(
            f"a{a},2020-{m:02d}-01,{100 * (a % 3) + 10.5 * (m % 4)},{(a * m) % 40 - 5}"
            for a in range(1, 6) for m in range(1, 13)) + "\n", encoding="utf-8")
        roles, gov, layer = _draft(tmp_path, folder)
        try:
            assert {k: roles[f"accounts.{k}"] for k in ("balance", "arr_delay")} == {
                "balance": "snapshot", "arr_delay": "delay"}
            value, _ = _value(layer, "What was the balance in 2020?")
            assert value == pytest.approx(_sql(layer, "SELECT sum(balance) FROM accounts "
                                                      "WHERE month = '2020-12-01'"))
            metrics = yaml.safe_load((tmp_path / "draft" / "models" / "metrics.yml")
                                     .read_text("utf-8"))["metrics"]
            assert not any(", by " in m["description"] for m in metrics)
        finally:
            layer.close()


    def test_a_total_named_for_the_things_keeps_its_name(self, tmp_path: Path) -> None:
        """order_total is not 'total orders' (how many orders): only paid_total-like names get
        'total' first."""
        folder = tmp_path / "data"
        folder.mkdir()
        (folder / "orders.csv").write_text("ordered_on,store,order_total,paid_total\n" + "\n".join(
            f"2020-01-{d:02d},s{d % 3},{10.5 * (d % 7 + 1)},{9.25 * (d % 5 + 1)}"
            for d in range(1, 29)) + "\n", encoding="utf-8")
        _, gov, layer = _draft(tmp_path, folder)
        layer.close()
        said = {n: m.get("synonyms") or [] for n, m in gov["metrics"].items()}
        assert "total paid" in said["paid_total"]
        assert not any(s.startswith("total order") for s in said["order_total"])


    def test_a_whole_head_sharing_a_word_with_a_longer_name_is_a_name(self) -> None:
        """'Current balance on the loan' names balance though current_installment_accounts has
        the word 'current'; 'average state' still names nothing (state is a column's name)."""
        from showwork.semantic_layer.draft.docs import doc_names

        names = doc_names({"balance": "Current balance on the loan.",
                           "current_installment_accounts": "Number of installment accounts.",
                           "tax": "average state, federal, and local excise taxes"},
                          {"balance": "balance", "state": "state", "tax": "tax",
                           "current_installment_accounts": "current installment accounts"})
        assert "current balance" in names["balance"]
        assert "average state" not in names.get("tax", ())


class TestMeanOfALevel:
    def test_a_monthly_index_in_year_and_month_columns(self, tmp_path: Path) -> None:
        """The CPI of 2013 is December's; its average in 2013 is the mean of the months; a
        one-letter time index t is no measure."""
        folder = tmp_path / "data"
        folder.mkdir()
        (folder / "prices.csv").write_text("Month,Year,CPI,t\n" + "\n".join(
            f"{m},{y},{200 + (y - 2012) * 12 + m + (m % 3) * 0.25},{(y - 2012) * 12 + m}"
            for y in (2012, 2013, 2014) for m in range(1, 13)) + "\n", encoding="utf-8")
        roles, _, layer = _draft(tmp_path, folder)
        try:
            assert roles["prices.CPI"] == "index" and roles["prices.t"] in ("key", "time part")
            _equal_sql(layer, {
                "What was the average CPI in 2013?":
                    'SELECT avg("CPI") FROM prices WHERE "Year" = 2013',
                "What was the CPI in 2013?":
                    'SELECT "CPI" FROM prices WHERE "Year" = 2013 AND "Month" = 12'})
        finally:
            layer.close()

    def test_a_population_by_state_and_year(self, tmp_path: Path) -> None:
        """The average population of 1990 is the mean over the states; the total is their sum."""
        folder = tmp_path / "data"
        folder.mkdir()
        (folder / "states.csv").write_text("state,year,population,income\n" + "\n".join(
            f"{s},{y},{1000 * (i + 1) + 7 * (y - 1985)},{50.5 * (i + 2) * (y - 1980)}"
            for i, s in enumerate(("AL", "CA", "NY", "TX")) for y in range(1985, 1996))
            + "\n", encoding="utf-8")
        roles, _, layer = _draft(tmp_path, folder)
        try:
            assert roles["states.population"] == "stock"
            _equal_sql(layer, {
                "What was the average population in 1990?":
                    "SELECT avg(population) FROM states WHERE year = 1990",
                "What was the total population in 1990?":
                    "SELECT sum(population) FROM states WHERE year = 1990"})
        finally:
            layer.close()


def _documented(tmp_path: Path, table: str, columns: str, values: Any, doc: str
                ) -> tuple[dict[str, list[str]], Any]:
    """A state × year panel (three states, 1982-88) with its help page, drafted: each metric's
    synonyms, and the layer."""
    folder = tmp_path / "data"
    folder.mkdir()
    (folder / f"{table}.csv").write_text(f"state,year,{columns}\n" + "\n".join(
        f"{s},{y},{values(i, y)}" for i, s in enumerate(("al", "az", "ca"))
        for y in range(1982, 1989)) + "\n", encoding="utf-8")
    (folder / f"{table}.md").write_text(doc, encoding="utf-8")
    _, gov, layer = _draft(tmp_path, folder)
    return {n: m.get("synonyms") or [] for n, m in gov["metrics"].items()}, layer


class TestNamesRunTogether:
    def test_a_name_run_together_reads_as_its_documented_words(self, tmp_path: Path) -> None:
        """'beertax', documented 'Tax on case of beer.', is asked for as 'beer tax'; 'milestot'
        ('Total vehicle miles') gets no such name: 'tot' is no word of its documentation."""
        said, layer = _documented(tmp_path, "panel", "beertax,milestot", lambda i, y: (
            f"{0.5 + i * 0.25 + (y - 1982) * 0.01},{1000 + 37 * i + 3 * y}"),
            "beertax\n\nnumeric. Tax on case of beer.\n\nmilestot\n\n"
            "numeric. Total vehicle miles (millions).\n")
        try:
            assert "beer tax" in said["beertax"]
            assert not any("miles tot" in s for names in said.values() for s in names)
            _equal_sql(layer, {"What was the average beer tax in 1988?":
                               "SELECT avg(beertax) FROM panel WHERE year = 1988"})
        finally:
            layer.close()

    def test_a_shared_head_is_named_with_its_qualifier(self, tmp_path: Path) -> None:
        """pop1517 and pop1820, both documented 'Population, <ages>.', are asked for by their
        ages; income ('Personal income, in dollars of 1987.': no other column's head) gets no
        such name."""
        said, layer = _documented(tmp_path, "ages", "pop1517,pop1820,income", lambda i, y: (
            f"{100 * (i + 1) + y - 1980},{150 * (i + 1) + 2 * (y - 1980)},{1000.5 * (i + 1) + y}"),
            "pop1517\n\nnumeric. Population, 15-17 year olds.\n\npop1820\n\nnumeric. Population, "
            "18-20 year olds.\n\nincome\n\nnumeric. Personal income, in dollars of 1987.\n")
        try:
            assert "population of 18-20 year olds" in said["pop1820"]
            assert not any("income in" in s or "income of" in s for s in said["income"])
            _equal_sql(layer, {"What was the population of 15-17 year olds in 1988?":
                               "SELECT sum(pop1517) FROM ages WHERE year = 1988"})
        finally:
            layer.close()
