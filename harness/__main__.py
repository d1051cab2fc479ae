"""`python -m harness` is the same as the `showwork` command."""

from harness.cli import main

main()
