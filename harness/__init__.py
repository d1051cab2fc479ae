"""Audit, findings, repair, scoring, experiments, reports and the CLI."""

from showwork.protocol.compiled import guard

guard()  # before any compiled module loads: a stale build is never used

if not __name__.startswith("showwork."):  # one import name: the folders live under showwork
    raise ImportError(f"import showwork.{__name__}, not {__name__} (see showwork/__init__.py)")
