# `make bench`: benchmarks, printed as `BENCH <name> <value> <unit>` lines.
#
#   make bench            every suite (BENCH_SUITES), about 15 minutes; the log
#                         goes to build/bench/latest.log, the targets' ratios
#                         (bench/report/targets.py) at its end
#   make bench QUICK=1    smoke run of every suite (also `make bench-quick`),
#                         log in build/bench/latest-quick.log
#   make bench-report     bench/RESULTS.md and its plots from the latest log

BENCH_SUITES :=
-include bench/runtime/runtime-bench.mk
-include bench/translator/translator-bench.mk
-include bench/multicore/multicore-bench.mk
-include bench/qemu/qemu-bench.mk
-include bench/servers/servers-bench.mk
-include bench/papers/papers-bench.mk

ifneq ($(QUICK),)
export BENCH_QUICK := 1
BENCH_LOG := $(BUILD)/bench/latest-quick.log
else
BENCH_LOG ?= $(BUILD)/bench/latest.log
endif
# matplotlib comes from Debian (python3-matplotlib), outside the venv.
BENCH_PLOT_PYTHON ?= /usr/bin/python3

# Suites keep going when one fails (-k); the log records every suite's output.
bench: setup-bench
	@mkdir -p $(BUILD)/bench
	@set -o pipefail; { \
	    $(PYTHON) $(TOP)/bench/report/machine.py start; \
	    $(MAKE) --no-print-directory -k $(BENCH_SUITES) 2>&1; rc=$$?; \
	    $(PYTHON) $(TOP)/bench/report/machine.py end; \
	    echo "# bench exit status $$rc"; } | tee $(BENCH_LOG).part
	@$(PYTHON) $(TOP)/bench/report/targets.py $(BENCH_LOG).part | tee -a $(BENCH_LOG).part
	@mv $(BENCH_LOG).part $(BENCH_LOG)
	@! grep -q '^# bench exit status [1-9]' $(BENCH_LOG)

bench-quick:
	@$(MAKE) --no-print-directory bench QUICK=1

bench-report:
	$(BENCH_PLOT_PYTHON) $(TOP)/bench/report/results.py \
	    $(if $(wildcard $(BENCH_LOG)),$(BENCH_LOG),$(BUILD)/bench/latest-quick.log) \
	    $(TOP)/bench/RESULTS.md

.PHONY: bench bench-quick bench-report

# The benchmark programs' own checks (seconds): the naive servers answer
# correctly, the targets are computed as documented, the hand-written
# runtime benchmark has the shape cpcc emits.
test-bench: setup-test $(SV_BINS) $(RB_OUT)/bench-cpc $(RB_OUT)/bench-cpcc
	cd $(TOP) && NAIVE_BINDIR=$(SV_OUT) RUNTIME_BENCH_BINDIR=$(RB_OUT) timeout -k 10 300 \
	    $(PYTHON) -m pytest -q -p no:cacheprovider $(TOP)/bench/test_bench.py

TEST_SUITES += test-bench

.PHONY: test-bench
