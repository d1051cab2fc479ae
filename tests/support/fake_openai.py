"""Tests use the loopback server the benchmarks use (one copy: benchmarks/loopback.py)."""

from showwork.benchmarks.loopback import FakeOpenAI, completion

__all__ = ["FakeOpenAI", "completion"]
