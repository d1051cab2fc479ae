"""docs/ holds what a user needs: every code the audit or the layer can emit is documented with
an example and a fix, every governance key is shown, and the README links into docs/ — nothing a
user needs points outside the repository."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

from showwork.harness.audit.audit import ANSWER_CHECKS
from showwork.harness.audit.checks import CHECKS
from showwork.harness.audit.findings import ANSWER_FINDINGS, FINDINGS
from showwork.harness.audit.steps import codes_of
from showwork.harness.audit.types import DEFECT_CODES, FINDING_CODES, SCOPE_CODES
from showwork.protocol.errors import ProtocolError
from showwork.semantic_layer.errors import SemanticError
from showwork.semantic_layer.governance import Governance

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"


def _subclasses(root: type) -> list[type]:
    out = [root]
    for sub in root.__subclasses__():
        out += _subclasses(sub)
    return out


def _documented() -> dict[str, str]:
    """code → its section of docs/codes.md (from its `### \\`code\\`` heading to the next)."""
    text = (DOCS / "codes.md").read_text(encoding="utf-8")
    parts = re.split(r"^### `([a-z_]+)`\n", text, flags=re.M)
    return dict(zip(parts[1::2], parts[2::2], strict=True))


def test_every_audit_code_is_documented_with_an_example_or_fix() -> None:
    """Every defect and finding code the audit's steps declare (and the code tables list) has a
    section in docs/codes.md, and each section says how to fix it."""
    emitted = codes_of(CHECKS + ANSWER_CHECKS + FINDINGS + ANSWER_FINDINGS)
    codes = emitted | set(DEFECT_CODES) | set(FINDING_CODES) | set(SCOPE_CODES)
    documented = _documented()
    assert codes - documented.keys() == set()
    assert all("Fix:" in documented[c] for c in codes)


def test_every_blocked_call_and_error_code_is_documented() -> None:
    """Every code a governed call, a model, a warehouse or an answer can fail with is there."""
    codes = {cls.code for root in (SemanticError, ProtocolError) for cls in _subclasses(root)}
    assert codes - _documented().keys() == set()


def test_every_governance_key_is_shown() -> None:
    """docs/projects.md names every key the governance file accepts, at every level."""
    from showwork.semantic_layer.governance import (
        ALIASES,
        CoverageSpec,
        DimensionGovernance,
        ExactEdge,
        InfluenceEdge,
        MetricGovernance,
        MetricTree,
    )

    text = (DOCS / "projects.md").read_text(encoding="utf-8")
    for model in (Governance, MetricGovernance, DimensionGovernance, CoverageSpec, ExactEdge,
                  InfluenceEdge, MetricTree):
        for f in dataclasses.fields(model):
            key = ALIASES.get(f.name, f.name)
            assert re.search(rf"\b{re.escape(key)}:", text), f"{model.__name__}.{key}"


def test_readme_links_into_docs_and_links_resolve() -> None:
    """The README points at docs/, not a design document outside the repository, and every
    relative link in docs/ and the README names a file that exists."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "../shared" not in readme and "docs/README.md" in readme
    for page in [ROOT / "README.md", *DOCS.glob("*.md")]:
        for target in re.findall(r"\]\(([^)#:]+)(?:#[^)]*)?\)", page.read_text(encoding="utf-8")):
            assert (page.parent / target).exists(), f"{page.name} links to missing {target}"


def test_the_api_pages_audit_answer_example_runs() -> None:
    """The `results` the API page shows is accepted by the real `audit_answer`, and audits an
    answer citing it (a key the page shows but the API rejects — `filters` once — fails here)."""
    import ast

    import showwork

    page = (DOCS / "api.md").read_text(encoding="utf-8")
    call = page[page.index("results={"):page.index("catalog=project.catalog")]
    results = ast.literal_eval(call.removeprefix("results=").split("  # optional")[0]
                               .rstrip().rstrip(","))
    answer = {"status": "answered", "answer": "Brooklyn's revenue was 269,173.31 in June 2019.",
              "value": 269173.31,
              "claims": [{"text": "Brooklyn's revenue was 269,173.31", "kind": "measurement",
                          "sources": ["r1[store=Brooklyn]:revenue.value"], "value": 269173.31}]}
    report = showwork.audit_answer(answer, results=results)
    assert report.grounded, report.defects
