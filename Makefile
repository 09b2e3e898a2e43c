# Human entry points. Each target installs what it needs first (scripts/deps.sh), so that
# `make run` and `make test` work alone on a fresh Debian 12 machine.
BUILD   ?= build
JOBS    ?= $(shell nproc)
CMAKE_FLAGS ?=

.PHONY: all deps configure build run test synth wave regs clean

all: build

deps:
	@bash scripts/deps.sh

$(BUILD)/CMakeCache.txt:
	@bash scripts/deps.sh
	cmake -S . -B $(BUILD) $(CMAKE_FLAGS)

configure: $(BUILD)/CMakeCache.txt

build: configure
	cmake --build $(BUILD) -j $(JOBS)

# The main job: the SSM demo (5 PEs x 4 threads), readable summary and an FST trace window.
run: build
	$(BUILD)/bench/hpcnet demo --trace $(BUILD)/demo.fst

# The whole test suite through CTest.
# Sanitized builds (HPCNET_SANITIZE): a UBSan report fails its test; the known false positive is
# suppressed (scripts/sanitizers/ubsan.supp). The harness compiles the same defaults into every
# program that runs a model (docs/sim.md#sanitizers); the variable covers the others. Without the
# sanitizers it has no effect.
test: build
	cd $(BUILD) && UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1:suppressions=$(CURDIR)/scripts/sanitizers/ubsan.supp \
	  ctest --output-on-failure -j $(JOBS)

# Yosys synthesis of every RTL top, cell-count report; fails on an error or a latch.
synth:
	@bash scripts/deps.sh
	bash scripts/synth/synth.sh $(BUILD)/synth

# Rewrite the checked-in register and format files (SV packages and regions, C++ headers, docs)
# from rtl/*/*_regs.toml and rtl/*/*_formats.toml (docs/regs.md).
regs:
	python3 scripts/regs/gen_regs.py --out . $(wildcard rtl/*/*_regs.toml rtl/*/*_formats.toml)

# Open the last trace in GTKWave with a save file made for it (scripts/wave.sh); WAVE passes more:
# a trace, --router N|x,y[,z] (mesh traces), --shot OUT.png (a picture, no display needed).
WAVE ?=
wave:
	bash scripts/wave.sh $(BUILD) $(WAVE)

clean:
	rm -rf $(BUILD)
