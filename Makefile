# trustnb — the two commands a user needs: `make docs` and `make test`.
# TORCH lets CI ask for a specific torch build (e.g. TORCH=torch==2.13.0, a CPU wheel on the CI disk).
PYTHON ?= python3
VENV   ?= .venv
TORCH  ?= torch
EXTRAS ?= data,text,privacy,bench
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.trustnb-installed

.PHONY: help install docs test export clean-nbs readme bench repro

help:
	@echo "make docs   - create $(VENV), install trustnb with extras, execute every notebook, render _docs/"
	@echo "make test   - install the dev extras into $(VENV) and run every test (notebooks + tests/)"
	@echo "make export - regenerate trustnb/ and README.md from nbs/ and clean the notebooks"
	@echo "make repro  - run every registered reproduction claim (python -m trustnb.repro)"
	@echo "make bench  - head-to-head benchmarks against the anchor libraries (bench/)"

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip

# Reinstall when the dependency list changes; torch first so that a range never pulls a second build.
$(STAMP): settings.ini setup.py | $(BIN)/python
	$(BIN)/python -m pip install -q "$(TORCH)"
	$(BIN)/python -m pip install -q -e ".[dev,$(EXTRAS)]"
	@touch $(STAMP)

install: $(STAMP)

docs: $(STAMP)
	$(BIN)/python tools/build_docs.py

# Two pytest workers on two cores: one BLAS/OpenMP thread each (oversubscribed OpenMP threads spin and crawl).
test: $(STAMP)
	OMP_NUM_THREADS=1 MKL_NUM_THREADS=1 $(BIN)/python -m pytest tests -n 2 --durations=0 -p no:cacheprovider -q -rs

export: $(STAMP)
	$(BIN)/nbdev_export
	$(BIN)/nbdev_clean
	$(BIN)/python tools/readme.py

readme: $(STAMP)
	$(BIN)/python tools/readme.py

repro: $(STAMP)
	$(BIN)/python -m trustnb.repro

bench: $(STAMP)
	for f in bench/*.py; do echo "== $$f"; $(BIN)/python $$f || exit 1; done
