# bench/translator/translator-bench.mk -- `make bench-translator`: the translator's
# benchmarks (bench/translator/run.py): the paper's loop / call / cps-call figures of code
# compiled by cpcc -O2 (and a bounded-stack check at -O0), and the translation speed of a
# generated 5,000-line CPC file against gcc alone on the generated C, the real-code cases
# (glib and C library headers, lib/, httpd, one 10,000-line cps function: CPU of cpcc, of cc
# on the generated C and on plain C, and per stage), the scaling shapes.  BENCH_QUICK=1 for a
# smoke run; BENCH_RUNS, BENCH_CPU, BENCH_COUNT, BENCH_COMPILE_RUNS (see run.py).

BENCH_SUITES += bench-translator

bench-translator: setup-bench runtime translator
	@$(PYTHON) $(TOP)/bench/translator/run.py

.PHONY: bench-translator
