"""Canonical JSON, digests and the SHA-256 hash chain that seals each trace line."""

from __future__ import annotations

import hashlib
import json
from typing import Any


def canonical_json(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def digest(value: Any) -> str:
    return hashlib.sha256(canonical_json(value).encode("utf-8")).hexdigest()


GENESIS = "0" * 64


def chain_hash(prev: str, body: dict[str, Any]) -> str:
    """The hash of one record: SHA-256 of the previous hash and the record's canonical JSON."""
    body = {k: v for k, v in body.items() if k != "chain"}
    return hashlib.sha256((prev + canonical_json(body)).encode("utf-8")).hexdigest()
