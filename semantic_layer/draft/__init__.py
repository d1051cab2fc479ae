"""Drafting a project from a warehouse (`showwork init`): `profile` reads each table's columns,
types, values and keys; `models` turns a profile into dbt semantic models, metrics and a
governance draft, with the reason for each inference.

Part of the semantic layer: imports nothing of ours outside it. Writing the draft into a folder
and validating it as a project is `showwork.harness.init`.
"""
