"""showwork's public Python API (a thin facade over the packages below it).

    import showwork
    report = showwork.audit_answer(answer, results={"r1": {...}}, catalog=...)
    project = showwork.Project.open("path/to/project")     # a showwork.yaml folder, or "demo"

Names load on first use, so `import showwork` stays light: `audit_answer` never loads a
database engine or a model client; `Project` does (it runs governed queries).
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

from showwork.errors import AuditInputError, BlockedCall, ProjectError, ShowworkError

if TYPE_CHECKING:
    from showwork._results import ResultInput, WindowInput
    from showwork.api import audit_answer
    from showwork.harness.audit import AuditReport
    from showwork.project import GovernedResult, Project, ask

_LAZY = {
    "audit_answer": "showwork.api", "AuditReport": "showwork.harness.audit",
    "ResultInput": "showwork._results", "WindowInput": "showwork._results",
    "Project": "showwork.project", "GovernedResult": "showwork.project", "ask": "showwork.project",
}

__all__ = ["AuditInputError", "AuditReport", "BlockedCall", "GovernedResult", "Project",
           "ProjectError", "ResultInput", "ShowworkError", "WindowInput", "ask", "audit_answer"]


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'showwork' has no attribute {name!r}")
    if name == "AuditReport":
        import_module("showwork.api")  # loads the audit without the database engine first
    value = getattr(import_module(module), name)
    globals()[name] = value
    return value
