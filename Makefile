# rag-assets: `make demo` and `make test` work on a fresh machine (they create .venv first).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
export DAGSTER_HOME := $(CURDIR)/.dagster_home
export HF_HUB_OFFLINE := 1
export GX_ANALYTICS_ENABLED := false
export DAGSTER_DISABLE_TELEMETRY := 1

.PHONY: install demo ask test test-fast test-corpora ui serve bench bench-real bench-statements bench-reading bench-judgments bench-vocabulary bench-probe bench-ask bench-ask-scale backfill-check scale-check lint typecheck settings-table sample clean

install: $(STAMP) ocr

# llama.cpp (the LLM tests' OpenAI-compatible server) built for portable x86-64 with AVX2: a
# native build on a CPU with AMX segfaults in llama.cpp's batched decode of the SmolLM2 Q4_1 model
# (seen 2026-11-24: every chat completion killed the server; a one-token prompt did not). No
# pip cache: pip keys a built wheel by version alone and would hand back a native build.
LLAMA_STAMP := $(VENV)/.llama-portable
LLAMA_CMAKE_ARGS := -DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON \
	-DGGML_AVX512=OFF -DGGML_AMX_TILE=OFF -DGGML_AMX_INT8=OFF -DGGML_AMX_BF16=OFF

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(LLAMA_STAMP): | $(BIN)/python
	CMAKE_ARGS="$(LLAMA_CMAKE_ARGS)" $(BIN)/python -m pip install --quiet --no-cache-dir \
	    --force-reinstall --no-deps 'llama-cpp-python[server]==0.3.36'
	touch $(LLAMA_STAMP)

# CPU torch first (a plain `torch` requirement would pull a multi-GB CUDA build), then the project.
$(STAMP): pyproject.toml $(LLAMA_STAMP) | $(BIN)/python
	$(BIN)/python -m pip install --quiet torch==2.13.0
	$(BIN)/python -m pip install --quiet -e '.[dev,test]'
	touch $(STAMP)

$(DAGSTER_HOME)/dagster.yaml: deploy/dagster.yaml
	mkdir -p $(DAGSTER_HOME)
	cp deploy/dagster.yaml $@

sample: install
	$(BIN)/rag-assets sample

demo: install $(DAGSTER_HOME)/dagster.yaml
	$(BIN)/rag-assets demo

# one question answered from everything indexed (after make demo or rag-assets ingest):
# make ask Q="How much revenue did Lumen Analytics contribute in fiscal 2024?" [ASK_ARGS=--json].
# The question goes through the environment unexpanded: quotes, $ and backticks stay as typed.
ask: export ASK_QUESTION = $(value Q)
ask: install
	@test -n "$$ASK_QUESTION" || { echo 'usage: make ask Q="a question" [ASK_ARGS="--json --document D --year Y"]' >&2; exit 2; }
	$(BIN)/rag-assets ask $(ASK_ARGS) -- "$$ASK_QUESTION"

# The suite on two workers (pytest-xdist, one per core): whole modules to a worker, so a module's
# fixtures are built once (and the modules sharing a costly session fixture, or the two
# deployment harnesses, to one worker: rag_assets_tests/conftest.py's scheduler), in the order
# that conftest gives (the longest modules, the process harnesses, first), and the 15 slowest
# tests listed at the end. One test alone:
# .venv/bin/python -m pytest path::name
PYTEST := $(BIN)/python -m pytest -q -n 2 --dist loadfile --no-loadscope-reorder --durations=15

test: install warm-filings browser services typecheck
	$(PYTEST) -m "not corpora"

test-fast: install warm-filings browser services
	$(PYTEST) -m "not slow and not corpora"

# The real filings the tests read, loaded into their cache (.pytest_cache/real_filings/) in the
# background while make installs the browser and the services and type-checks; the test session
# stops it when it starts (rag_assets_tests/real_filings.py), and it stops by itself once make
# has ended (a step failed). On a fresh machine those steps wait
# minutes on apt-get, and a cold suite spends about 140 core-seconds parsing the filings.
.PHONY: warm-filings
warm-filings: install
	@mkdir -p .pytest_cache/real_filings
	@$(BIN)/python -m rag_assets_tests.real_filings --while $$PPID > .pytest_cache/warmer.log 2>&1 & \
	    echo $$! > .pytest_cache/real_filings/warmer.pid

# Sweeps over every filing of ../shared/corpora (each PDF read, about 8 minutes cold)
test-corpora: install
	$(PYTEST) -m corpora

# Headless Chromium and its driver for the browser tests (Debian's chromium, chromium-driver):
# installed when absent and we are root; otherwise one line says the browser tests will be
# skipped. Never fails make.
.PHONY: browser
browser:
	@if command -v chromium >/dev/null 2>&1 && command -v chromedriver >/dev/null 2>&1; then :; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1 \
	    && apt-get update -qq >/dev/null 2>&1 \
	    && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >/dev/null; \
	then echo "browser: installed chromium and chromium-driver for the browser tests"; \
	else echo "browser: chromium or chromedriver is missing and could not be installed (not root, or apt-get failed): the browser tests will be skipped"; fi

# PostgreSQL and Redis for the tests of the Postgres warehouse and for make scale-check (Debian's
# postgresql, redis-server; harness/servers.py starts throwaway servers on 127.0.0.1):
# installed when absent and we are root; otherwise one line says those tests will be skipped.
# Never fails make.
.PHONY: services
services:
	@if { command -v initdb >/dev/null 2>&1 || ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; } \
	    && command -v redis-server >/dev/null 2>&1; then :; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1 \
	    && apt-get update -qq >/dev/null 2>&1 \
	    && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql redis-server >/dev/null; \
	then echo "services: installed postgresql and redis-server for the Postgres warehouse tests"; \
	else echo "services: postgresql or redis-server is missing and could not be installed (not root, or apt-get failed): the Postgres warehouse tests will be skipped"; fi

# Tesseract for OCR of PDF pages with no text layer but an image (Debian's tesseract-ocr and its
# English data, ~24 MB; core/ingest/ocr.py runs it): installed when absent and we are root;
# otherwise one line says such pages will be flagged instead of read (text_source "none" in
# raw_pages) and the OCR tests skipped. Never fails make. Part of install: ingest needs it.
.PHONY: ocr
ocr:
	@if command -v tesseract >/dev/null 2>&1 && tesseract --list-langs 2>&1 | grep -qx eng; then :; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1 \
	    && apt-get update -qq >/dev/null 2>&1 \
	    && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq tesseract-ocr tesseract-ocr-eng >/dev/null; \
	then echo "ocr: installed tesseract-ocr for OCR of PDF pages without a text layer"; \
	else echo "ocr: tesseract (with English data) is missing and could not be installed (not root, or apt-get failed): PDF pages without a text layer will be flagged, not read, and the OCR tests skipped"; fi

ui: install $(DAGSTER_HOME)/dagster.yaml
	$(BIN)/python -m harness.ui_launcher

# ask from a browser, over everything indexed: http://127.0.0.1:8765/ (the answer's view, the
# questions asked before, each source partition linked to `make ui`'s Dagster UI):
# make serve [SERVE_ARGS="--port 8080 --dagster-url http://127.0.0.1:3000"]
serve: install
	$(BIN)/rag-assets serve $(SERVE_ARGS)

bench: install
	$(BIN)/python bench/ingest_bench.py
	$(BIN)/python bench/index_bench.py
	$(BIN)/python bench/retrieval_bench.py
	$(BIN)/python bench/pipeline_bench.py
	$(BIN)/python bench/answer_bench.py
	$(BIN)/python bench/stitch_bench.py
	$(BIN)/python bench/ann_bench.py
	$(BIN)/python bench/embed_bench.py

# retrieval and answers on both FinanceBench sets (dev: 14 10-Ks; wide: 28 10-Ks, 10-Qs, 8-Ks,
# earnings releases), a store per set, beside a LangChain + FAISS baseline and the golden set;
# a subset: make bench-real REAL_ARGS="--sets dev --docs 2 --questions 3 --no-golden"
bench-real: install
	$(BIN)/python bench/real_bench.py $(REAL_ARGS)

# statement facts and their accounting identities on every real filing of ../shared/corpora
bench-statements: install
	$(BIN)/python bench/statement_bench.py

# every PDF of ../shared/corpora through the core ingest chain (load, footnotes, stitch, context,
# both chunkers, facts): exceptions, pages flagged, files repaired (~17 min on 2 cores)
bench-reading: install
	$(BIN)/python bench/reading_bench.py

# gross and operating margin asked of every 10-K of ../shared/corpora: answered, an operand the
# reader did not find, or not meaningful (only for a bank, an insurer or a REIT)
bench-judgments: install
	$(BIN)/python bench/judgment_bench.py

# every vocabulary item and definition term asked of every 10-K's statement facts: answered or
# why not, for analyst-tune's companies (in-sample) and every other company (totals only)
bench-vocabulary: install
	$(BIN)/python bench/vocabulary_bench.py

# an analyst's usual questions asked of filings no question set asks about (bench/probes): the
# first lines, against the verdicts a person read (bench/probes/readings.jsonl)
bench-probe: install
	$(BIN)/python bench/probe_bench.py

# rag-assets ask on hostile questions and broken stores (two real 10-Ks ingested once under
# bench/out/ask_battery): exit code, first line, seconds, tracebacks and signals per case
bench-ask: install
	$(BIN)/python bench/ask_battery.py

# rag-assets ask cold and warm (latency, peak RSS) at 10, 100 and 1,000 indexed filings, copies
# of four real ones under new names (built once under ~/.cache/rag-assets-bench/ask-scale)
bench-ask-scale: install
	$(BIN)/python bench/ask_scale_bench.py

# a webserver and a daemon on a fresh instance: the sensors carry 12 reports through every asset,
# a backfill of the evaluation and report assets runs over them, a run is SIGKILLed and
# re-executed from failure; every run and every table row checked (~8 min on 2 cores;
# BACKFILL_ARGS="--fleet notes --flow in-process" for the slow test's quick version)
backfill-check: install
	$(BIN)/python -m harness.backfill_check $(BACKFILL_ARGS)

# the scale profile (deploy/scale/) on loopback: Postgres (instance and warehouse), Redis, two
# Celery workers, the webserver and the daemon; an ingest backfill of 12 partitions, 3 runs at
# once, then the evaluation backfill with a Celery worker's process SIGKILLed under a step and
# the run retried; every table checked, then the same backfills on the embedded defaults, timed
# (docs/DEPLOY.md; SCALE_ARGS="--fleet notes --partitions 3 --no-compare" for a quick one)
scale-check: install services
	$(BIN)/python -m harness.scale_check --require-services $(SCALE_ARGS)

lint: install typecheck
	$(BIN)/ruff check .

# the README's configuration table, rendered from the settings' fields (core/settings_table.py)
settings-table: install
	$(BIN)/rag-assets settings --readme README.md --reference docs/CONFIGURATION.md

# mypy, strict on rag_assets/core ([tool.mypy] in pyproject.toml); part of make test
typecheck: install
	$(BIN)/mypy

clean:  # empties data/ but keeps data/README.md (the layout, versioned)
	test ! -d data || find data -mindepth 1 -maxdepth 1 ! -name README.md -exec rm -rf {} +
	rm -rf .dagster_home bench/out
