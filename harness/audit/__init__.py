"""The deterministic audit: citations resolved by lookup, findings reported, a serving decision."""

from showwork.harness.audit.audit import audit, decide
from showwork.harness.audit.evidence import Call, Evidence
from showwork.harness.audit.types import (
    DECISIONS,
    DEFECT_CODES,
    FINDING_CODES,
    AuditReport,
    ClaimAudit,
    Defect,
    Finding,
)

__all__ = ["DECISIONS", "DEFECT_CODES", "FINDING_CODES", "AuditReport", "Call", "ClaimAudit",
           "Defect", "Evidence", "Finding", "audit", "decide"]
