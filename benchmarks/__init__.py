"""Benchmarks: each reports ratios measured side by side in one run (`showwork bench …`)."""
