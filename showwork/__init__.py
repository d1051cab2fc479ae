"""showwork's public Python API (a thin facade over the packages below it)."""
