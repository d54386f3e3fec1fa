# bench/qemu/qemu-bench.mk -- `make bench-qemu`: table 2 of "QEMU/CPC", QEMU's
# coroutine micro-benchmarks (lifecycle, nesting 1,000 deep, yield; with
# and without the pool) on the CPC backend (<cpc/qemu-coroutine.h>, code
# compiled by cpcc) and on backends written here the way QEMU builds its
# own: ucontext, sigaltstack, one OS thread per coroutine.  BENCH_QUICK=1
# for a smoke run.  See bench/qemu/run.py.

QB_SRC := $(TOP)/bench/qemu
QB_OUT := $(BUILD)/bench/qemu
QB_CFLAGS := $(CFLAGS_COMMON) -O2 -pthread
QB_DEPS := $(QB_SRC)/cases.h $(QB_SRC)/coro_backend.h $(QB_SRC)/coro_stack.h \
           $(QB_SRC)/main_c.c $(QB_SRC)/qemu-bench.mk

BENCH_SUITES += bench-qemu

bench-qemu: setup-bench runtime lib
	@$(MAKE) --no-print-directory $(QB_OUT)/bench-cpc $(QB_OUT)/bench-ucontext \
	    $(QB_OUT)/bench-sigaltstack $(QB_OUT)/bench-thread
	@python3 $(QB_SRC)/run.py $(QB_OUT)

$(QB_OUT)/bench-cpc: $(QB_SRC)/cpc.cpc $(QB_SRC)/cases.h $(RUNTIME_LIB) | $(SETUP_STAMP)
	@mkdir -p $(@D)
	$(TOP)/bin/cpcc -O2 -o $@ $<

$(QB_OUT)/bench-thread: $(QB_SRC)/coro_thread.c $(QB_DEPS)
	@mkdir -p $(@D)
	$(CC) $(QB_CFLAGS) -DBENCH_DEFAULT_WALL -o $@ $(QB_SRC)/main_c.c $<

$(QB_OUT)/bench-%: $(QB_SRC)/coro_%.c $(QB_DEPS)
	@mkdir -p $(@D)
	$(CC) $(QB_CFLAGS) -o $@ $(QB_SRC)/main_c.c $<

.PHONY: bench-qemu
