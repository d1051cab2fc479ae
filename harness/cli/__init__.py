"""The `showwork` command line: the app is built in app.py; errors map to exit codes in errors.py."""

from showwork.harness.cli.app import build_app, run

__all__ = ["build_app", "run"]
