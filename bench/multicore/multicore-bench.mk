# bench/multicore/multicore-bench.mk -- `make bench-multicore`: CPU-bound
# workloads on one and on two schedulers (the scaling ratio), and the cost
# of a wake-up across schedulers (bench/multicore/run.py).  BENCH_QUICK=1
# for a smoke run.

MC_OUT := $(BUILD)/bench/multicore

BENCH_SUITES += bench-multicore

$(MC_OUT)/scaling: $(TOP)/bench/multicore/scaling.cpc $(RUNTIME_LIB) | $(SETUP_STAMP)
	@mkdir -p $(@D)
	$(TOP)/bin/cpcc -O2 $< -o $@

bench-multicore: setup-bench runtime lib
	@$(MAKE) --no-print-directory $(MC_OUT)/scaling
	@python3 $(TOP)/bench/multicore/run.py $(MC_OUT)/scaling

.PHONY: bench-multicore
