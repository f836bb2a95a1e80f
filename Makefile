# trustnb — the two commands a user needs: `make docs` and `make test`.
# TORCH lets CI ask for a specific torch build (e.g. TORCH=torch==2.13.0, a CPU wheel on the CI disk).
PYTHON ?= python3
VENV   ?= .venv
TORCH  ?= torch
EXTRAS ?= data,text,privacy,bench,rl,scale
BIN    := $(VENV)/bin
SHELL  := /bin/bash
.SHELLFLAGS := -o pipefail -c
STAMP  := $(VENV)/.trustnb-installed

.PHONY: help install hooks lab docs test test-gpu dist export clean-nbs readme bench repro

help:
	@echo "make docs   - create $(VENV), install trustnb with extras, execute changed notebooks, render _docs/ (FRESH=1: all)"
	@echo "make test   - install the dev extras into $(VENV) and run every test (notebooks + tests/)"
	@echo "make lab    - JupyterLab on nbs/ with a project-local config: every save is cleaned (git status stays clean)"
	@echo "make install - the venv plus nbdev's git hooks (make hooks: notebook merges, and Jupyter hooks in ~/.jupyter for other ways of starting Jupyter)"
	@echo "make test-gpu - every notebook with #| gpu cells, those cells at paper scale (needs CUDA)"
	@echo "make dist   - wheel + sdist into dist/, checked with twine (metadata, long description)"
	@echo "make export - regenerate trustnb/ and README.md from nbs/ and clean the notebooks"
	@echo "make repro  - draw every claim whose stored verdict is missing or stale (5 drawn seeds + controls), store in trustnb/verdicts.json (ONLY=key ..., ALL=1)"
	@echo "make bench  - head-to-head benchmarks against the anchor libraries (bench/)"

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip

# Reinstall when the dependency list changes; torch first so that a range never pulls a second build.
# TORCH is passed to pip as it is: TORCH=torch==2.13.0, or TORCH="torch --index-url https://download.pytorch.org/whl/cpu".
$(STAMP): settings.ini setup.py | $(BIN)/python
	@echo "[install 1/2] $(TORCH) into $(VENV)"
	@command -v nvidia-smi >/dev/null 2>&1 || [ "$(TORCH)" != "torch" ] || printf '%s\n' \
	  "  No NVIDIA GPU found. On Linux a plain 'torch' is the CUDA build (~3 GB with its libraries: minutes to download)." \
	  "  The CPU wheel is ~10x smaller: make docs TORCH=\"torch --index-url https://download.pytorch.org/whl/cpu\""
	$(BIN)/python -m pip install --progress-bar on $(TORCH) | { grep -v '^Requirement already satisfied' || true; }
	@echo "[install 2/2] trustnb (editable) with the dev tools and extras $(EXTRAS)"
	$(BIN)/python -m pip install --progress-bar on -e ".[dev,$(EXTRAS)]" | { grep -v '^Requirement already satisfied' || true; }
	@touch $(STAMP)

install: $(STAMP) hooks

# nbdev's hooks: Jupyter cleans a notebook as it saves it (settings.ini `jupyter_hooks = True`), git merges notebooks
# with nbdev_merge. Writes ~/.jupyter/jupyter_server_config.py and the repo's .gitconfig/.gitattributes (committed).
hooks: $(STAMP)
	PATH="$(abspath $(BIN)):$$PATH" $(BIN)/nbdev_install_hooks

lab: $(STAMP)
	$(BIN)/jupyter lab --config=tools/jupyter_server_config.py

docs: $(STAMP)
	$(BIN)/python tools/build_docs.py $(if $(FRESH),--fresh)

# Two pytest workers on two cores: one BLAS/OpenMP thread each (oversubscribed OpenMP threads spin and crawl).
test: $(STAMP)
	OMP_NUM_THREADS=1 MKL_NUM_THREADS=1 $(BIN)/python -m pytest tests -n 2 --dist loadgroup --durations=0 -p no:cacheprovider -q -rs

# The #| gpu cells at paper scale (the default test runs them at tiny scale on CPU).
test-gpu: $(STAMP)
	@$(BIN)/python -c "import torch, sys; sys.exit(0 if torch.cuda.is_available() else 'make test-gpu needs a CUDA GPU (torch.cuda.is_available() is False)')"
	TRUSTNB_SCALE=paper NB_TIMEOUT=3600 $(BIN)/python -m pytest tests/test_notebooks.py -p no:cacheprovider -q -rs --durations=0 \
		-k "$$($(BIN)/python tools/gpu_notebooks.py)"

dist: $(STAMP)
	rm -rf dist
	$(BIN)/python -m build --no-isolation --sdist --wheel -o dist .
	$(BIN)/python -m twine check --strict dist/*

export: $(STAMP)
	$(BIN)/nbdev_export
	$(BIN)/nbdev_clean
	$(BIN)/python tools/readme.py

readme: $(STAMP)
	$(BIN)/python tools/readme.py

# The draws behind the verdicts the docs show (issue 23): each claim and its negative control on 5 seeds nobody chose.
# Only claims whose stored verdict is missing or stale (its source changed), unless ALL=1; ONLY="key1 key2" narrows.
repro: $(STAMP)
	OMP_NUM_THREADS=1 MKL_NUM_THREADS=1 $(BIN)/python -m trustnb.repro --draws 5 --jobs 2 --write $(if $(ALL),,--stale) $(if $(ONLY),--only $(ONLY))

bench: $(STAMP)
	for f in bench/*.py; do echo "== $$f"; $(BIN)/python $$f || exit 1; done
