"""Every audit code is declared by exactly the steps that emit it, and the set is DESIGN's."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from showwork.harness.audit.audit import ANSWER_CHECKS
from showwork.harness.audit.checks import CHECKS
from showwork.harness.audit.context import ClaimContext
from showwork.harness.audit.findings import ANSWER_FINDINGS, FINDINGS
from showwork.harness.audit.steps import codes_of, emits
from showwork.harness.audit.types import DEFECT_CODES, FINDING_CODES, Defect

DESIGN = Path(__file__).resolve().parents[3] / "shared" / "DESIGN.md"


def _design_defects() -> set[str]:
    """The codes after "Defect codes:", its bullets, and "One more defect"."""
    text = DESIGN.read_text(encoding="utf-8")
    part = text[text.index("Defect codes:"):text.index("Findings, each a first-class record")]
    listed = part[:part.index("and:")]
    codes = set(re.findall(r"`([a-z_]+)`", listed))
    codes |= set(re.findall(r"^- `([a-z_]+)` —", part, re.M))
    return codes | set(re.findall(r"One more defect: `([a-z_]+)`", part))


def test_checks_declare_exactly_the_defect_codes() -> None:
    """The codes the checks declare are exactly DEFECT_CODES, each from a named step."""
    assert codes_of(CHECKS + ANSWER_CHECKS) == set(DEFECT_CODES)


def test_finders_declare_exactly_the_finding_codes() -> None:
    """The codes the finders declare are exactly FINDING_CODES."""
    assert codes_of(FINDINGS + ANSWER_FINDINGS) == set(FINDING_CODES)


@pytest.mark.skipif(not DESIGN.exists(), reason="shared/DESIGN.md is not beside the checkout")
def test_defect_codes_are_designs() -> None:
    """DEFECT_CODES are the defect codes DESIGN.md lists under "Audit"."""
    assert set(DEFECT_CODES) == _design_defects()


def test_a_step_may_not_emit_an_undeclared_code() -> None:
    """The runner refuses a code the step did not declare, so the declaration cannot drift."""
    @emits("no_support")
    def sloppy(ctx: ClaimContext) -> list[Defect]:
        return [Defect("value_mismatch", "c1", "x")]

    with pytest.raises(AssertionError, match="does not declare"):
        sloppy(None)  # type: ignore[arg-type]
