"""What the model is shown of untrusted text: control, bidi and zero-width characters removed.

The trace keeps the raw text; only the model's copy is cleaned, and the cleaning is reported so
it can be flagged.

>>> clean_for_model("active\\u202eusers\\u200b\\x07")
('activeusers', 3)
"""

from __future__ import annotations

import unicodedata

KEEP = {"\n", "\t"}


def clean_for_model(text: str) -> tuple[str, int]:
    """(text without control/format characters, how many were removed)."""
    kept = [ch for ch in text if ch in KEEP or unicodedata.category(ch) not in ("Cc", "Cf")]
    return "".join(kept), len(text) - len(kept)
