"""`python -m showwork` is the same as the `showwork` command."""

from showwork.cli import main

main()
