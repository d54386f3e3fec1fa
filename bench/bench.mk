# `make bench`: benchmarks, printed as `BENCH <name> <value> <unit>` lines.

BENCH_SUITES :=
-include bench/runtime/runtime-bench.mk
-include bench/translator/translator-bench.mk
-include bench/multicore/multicore-bench.mk

bench: setup
	@$(MAKE) --no-print-directory $(BENCH_SUITES)

.PHONY: bench
