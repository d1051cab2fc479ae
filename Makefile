# Works on a fresh machine: the first target run creates .venv and installs the project.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: install demo test bench lint conformance clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev,spark]'
	touch $(STAMP)

install: $(STAMP)

demo: $(STAMP)
	$(BIN)/showwork demo

test: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/python -m pytest

# The Spark engine alone: the same governed queries on local Spark, Spark Connect and DuckDB.
spark-test: $(STAMP)
	$(BIN)/python -m pytest tests/semantic_layer/test_spark.py tests/semantic_layer/test_engines.py

bench: $(STAMP)
	$(BIN)/showwork bench semantic
	$(BIN)/showwork bench audit
	$(BIN)/showwork bench concurrency

# showwork's numbers against dbt MetricFlow's own (installs dbt + MetricFlow in conformance/.venv)
conformance: $(STAMP)
	$(BIN)/python conformance/run.py

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/mypy

clean:
	rm -rf $(VENV) .showwork .pytest_cache conformance/.venv
