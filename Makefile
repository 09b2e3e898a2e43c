# Human entry points. Each target installs what it needs first (scripts/deps.sh), so that
# `make run` and `make test` work alone on a fresh Debian 12 machine.
BUILD   ?= build
JOBS    ?= $(shell nproc)
CMAKE_FLAGS ?=

.PHONY: all deps configure build run test test-long test-sanitize bench synth wave regs clean

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

# The test suite through CTest: every block's tests at the lengths that find bugs quickly, on the
# test models (docs/testing.md). CI runs this.
# Sanitized builds (HPCNET_SANITIZE): a UBSan report fails its test; the known false positive is
# suppressed (scripts/sanitizers/ubsan.supp). The harness compiles the same defaults into every
# program that runs a model (docs/sim.md#sanitizers); the variable covers the others. Without the
# sanitizers it has no effect.
CTEST_ENV = UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1:suppressions=$(CURDIR)/scripts/sanitizers/ubsan.supp
test: build
	cd $(BUILD) && $(CTEST_ENV) ctest --output-on-failure -j $(JOBS) -LE long

# The benchmark-only models (rtl/models.cmake, BENCH) added to the build tree: `hpcnet net`,
# `net-barrier`, `bench-gsn` and `cluster --nodes 64` need them.
bench: configure
	cmake -S . -B $(BUILD) -DHPCNET_BENCH_MODELS=ON
	cmake --build $(BUILD) -j $(JOBS)

# The long tier: million-cycle soaks, exhaustive sweeps, the comparisons against the benchmark
# models (which it builds first), the slow synthesis checks: the CTest label `long`.
test-long: bench
	cd $(BUILD) && $(CTEST_ENV) ctest --output-on-failure -j $(JOBS) -L long

# The suite with AddressSanitizer and UndefinedBehaviorSanitizer on the C++ of sim/, sw/, tb/ and
# bench/ (the Verilated models uninstrumented), in its own tree.
SAN_BUILD ?= build-sanitize
test-sanitize:
	@bash scripts/deps.sh
	cmake -S . -B $(SAN_BUILD) -DHPCNET_SANITIZE=ON $(CMAKE_FLAGS)
	cmake --build $(SAN_BUILD) -j $(JOBS)
	cd $(SAN_BUILD) && $(CTEST_ENV) ctest --output-on-failure -j $(JOBS) -LE long

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
