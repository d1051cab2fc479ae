"""The `rendered` switch: measurement sentences written from cited values, not by the model."""

from __future__ import annotations


def _fmt(value: float | int, fraction: bool) -> str:
    if fraction:
        return f"{value:.4g}"
    if isinstance(value, int) or float(value).is_integer():
        return f"{int(value):,}"
    return f"{value:,.2f}" if abs(value) >= 10 else f"{value:.3g}"


def render_measurement(label: str, field: str, fields: dict[str, float | int | None],
                       windows: list[str], segment: str = "", fraction: bool = False) -> str:
    """One sentence stating a cited field, e.g. 'Days per user fell 15.28% (2.67 → 2.26), …'.

    >>> render_measurement("days per user", "pct_change",
    ...     {"value": 2.264, "previous": 2.6724, "delta": -0.408, "pct_change": -15.284},
    ...     ["2026-03-09..2026-03-15", "2026-03-02..2026-03-08"])
    'Days per user fell 15.28% (2.67 → 2.26), 2026-03-09..2026-03-15 versus 2026-03-02..2026-03-08.'
    """
    subject = (label[:1].upper() + label[1:]) + (f" ({segment})" if segment else "")
    value, previous = fields.get("value"), fields.get("previous")
    when = f"{windows[0]} versus {windows[1]}" if len(windows) > 1 else (windows[0] if windows else "")
    if field in ("pct_change", "delta") and fields.get(field) is not None:
        change = fields[field]
        assert change is not None
        word = "rose" if change > 0 else "fell" if change < 0 else "was unchanged"
        amount = f"{abs(change):.2f}%" if field == "pct_change" else _fmt(abs(change), fraction)
        span = ""
        if value is not None and previous is not None:
            span = f" ({_fmt(previous, fraction)} → {_fmt(value, fraction)})"
        if word == "was unchanged":
            return f"{subject} was unchanged{span}, {when}."
        return f"{subject} {word} {amount}{span}, {when}."
    if field == "previous" and previous is not None:
        return f"{subject} was {_fmt(previous, fraction)} in {windows[-1]}."
    shown = fields.get(field)
    stated = "no value" if shown is None else _fmt(shown, fraction)
    return f"{subject} was {stated} in {windows[0]}." if windows else f"{subject} was {stated}."
