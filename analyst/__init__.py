"""The analyst loop: model clients, governed tools with handles, traces."""

if not __name__.startswith("showwork."):  # one import name: the folders live under showwork
    raise ImportError(f"import showwork.{__name__}, not {__name__} (see showwork/__init__.py)")
