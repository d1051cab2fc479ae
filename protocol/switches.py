"""Protocol switches: which contract the model must follow.

>>> Protocol.parse("claims+repair+tree=auto").name
'claims+repair+tree=auto'
>>> Protocol.parse("baseline").claims
False
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from showwork.protocol.errors import SwitchError

FLAGS = ("claims", "repair", "purpose", "rendered")
TREE_MODES = ("always", "never", "auto")


@dataclass(frozen=True)
class Protocol:
    """A configuration: the switches that are on."""

    claims: bool = False
    """The answer declares claims with citations."""
    repair: bool = False
    """Broken citations go back to the model (at most two rounds)."""
    purpose: bool = False
    """Every governed call carries a one-line reason."""
    rendered: bool = False
    """The harness writes measurement sentences from cited values."""
    tree: Literal["always", "never", "auto"] = "auto"
    """Inject the metric tree into the prompt always, never, or for diagnostic questions."""
    tree_named: bool = field(default=False, compare=False)
    """tree= was written out (kept in the name so configurations round-trip)."""

    @classmethod
    def parse(cls, text: str) -> Protocol:
        text = text.strip()
        if not text:
            raise SwitchError("Empty configuration; use e.g. baseline, claims or claims+repair.")
        if text == "baseline":
            return cls()
        on: dict[str, object] = {}
        for part in text.split("+"):
            part = part.strip()
            if part.startswith("tree="):
                mode = part.removeprefix("tree=")
                if mode not in TREE_MODES:
                    raise SwitchError(f"Unknown tree mode {mode!r}; use tree=always, tree=never "
                                      "or tree=auto.")
                on["tree"], on["tree_named"] = mode, True
            elif part in FLAGS:
                on[part] = True
            else:
                raise SwitchError(f"Unknown switch {part!r} in {text!r}; switches: "
                                  f"{', '.join(FLAGS)}, tree=always|never|auto, or baseline.")
        proto = cls(**on)  # type: ignore[arg-type]
        if (proto.repair or proto.rendered) and not proto.claims:
            raise SwitchError(f"{text!r}: repair and rendered work on claims; add 'claims'.")
        return proto

    @property
    def name(self) -> str:
        parts = [f for f in FLAGS if getattr(self, f)]
        if self.tree != "auto" or self.tree_named:
            parts.append(f"tree={self.tree}")
        return "+".join(parts) or "baseline"

    def tree_in_prompt(self, diagnostic: bool) -> bool:
        return self.tree == "always" or (self.tree == "auto" and diagnostic)
