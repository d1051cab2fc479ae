"""Whether the Spark tests can run here: pyspark installed and a Java the launcher finds."""

from __future__ import annotations

import importlib.util
import os
import shutil
from pathlib import Path


def spark_missing() -> str | None:
    """None when pyspark and Java are both present; else what is missing and how to add it."""
    home = os.environ.get("JAVA_HOME")
    java = (Path(home) / "bin" / "java").exists() if home else shutil.which("java") is not None
    if importlib.util.find_spec("pyspark") is not None and java:
        return None
    return ("pyspark or Java is missing (pip install -e '.[spark]'; apt-get install "
            "openjdk-17-jre-headless)")


def skip_without_spark() -> None:
    """Skip the calling test module when Spark cannot run; under CI that is an error instead."""
    import pytest

    why = spark_missing()
    if why is None:
        return
    if os.environ.get("CI"):
        raise RuntimeError("CI must install pyspark (make test installs '.[dev,spark]') and Java "
                           "(.ci/run installs openjdk-17-jre-headless) for the Spark tests")
    pytest.skip(why, allow_module_level=True)
