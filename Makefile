# The two set-up commands of the README: `make demo` and `make test`. Each creates .venv when missing and installs
# what it needs from the package registry; nothing else is required on the machine but python3 (>= 3.11).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STANDARD := paytables/standard.yaml
REPORT_DATE := 2026-01-01

.PHONY: demo test docs lint typecheck pytest reports generated bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# Byte-compile trey once: this machine sets PYTHONDONTWRITEBYTECODE, so nothing would cache the compiled modules
# and every command would compile them again at start-up.
$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	$(BIN)/python -m compileall -q src
	touch $@

$(VENV)/.installed-dev: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	$(BIN)/python -m compileall -q src
	touch $@ $(VENV)/.installed

demo: $(VENV)/.installed
	$(BIN)/trey validate paytables/*.yaml paytables/*/*.yaml
	$(BIN)/trey analyze $(STANDARD)
	$(MAKE) --no-print-directory reports

# The rendered examples in reports/, byte for byte reproducible (a test compares them with a fresh render).
reports: $(VENV)/.installed
	$(BIN)/trey certify $(STANDARD) --out reports --date $(REPORT_DATE) --simulate 1000000 --seed 2026 --force
	$(BIN)/trey cheatsheet $(STANDARD) --out reports --date $(REPORT_DATE) --force

# The parts of the JSON Schemas and of docs/ that restate a registry, written from it (a test holds them equal).
generated: $(VENV)/.installed
	$(BIN)/python scripts/generate.py

# pytest on both cores; worksteal: a worker left idle takes tests queued on the other (some take seconds each).
test: $(VENV)/.installed-dev
	$(BIN)/ruff check src tests benchmarks scripts
	$(BIN)/ruff format --check src tests benchmarks scripts
	$(BIN)/mypy
	$(BIN)/pytest -n 2 --dist worksteal

# The documentation site, from docs/ and mkdocs.yml, into site/ (open site/index.html). --strict: a broken link,
# anchor or API reference fails the build (tests/architecture/test_docs.py builds it too, so make test checks it).
docs: $(VENV)/.installed-dev
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict --site-dir site

bench: $(VENV)/.installed-dev
	$(BIN)/python -m compileall -q src
	$(BIN)/python benchmarks/bench_analyze.py
	$(BIN)/python benchmarks/bench_certify.py
	$(BIN)/python benchmarks/bench_simulate.py
	$(BIN)/python benchmarks/bench_against_release.py
	$(BIN)/python benchmarks/bench_choosing.py
	$(BIN)/python benchmarks/bench_protect.py
	$(BIN)/python benchmarks/bench_audit.py

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache .hypothesis site
