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

# *QEMU/CPC*'s section 7.2 (`make bench-qemu-io`, bench/qemu/qemu_io.py): qemu-io's concurrent
# aio_write/aio_read requests on a qcow2 image, the paper's QEMU built by cpcc against the
# same built by gcc with ucontext.  It needs those builds: QEMU_CPC_OUT names an output of
# tests/qemu-cpc/build.sh; or QEMU_CPC_CHECKOUT a checkout of kerneis/qemu, built once
# into $(BUILD)/bench/qemu-cpc (about 12 minutes); with neither it is skipped, saying so.
QB_IO_OUT := $(or $(QEMU_CPC_OUT),$(BUILD)/bench/qemu-cpc)

BENCH_SUITES += bench-qemu-io

bench-qemu-io: setup-bench runtime lib
	@if [ -z "$(QEMU_CPC_OUT)$(QEMU_CPC_CHECKOUT)" ]; then \
	    echo "# bench-qemu-io: skipped: set QEMU_CPC_CHECKOUT (a checkout of kerneis/qemu) or QEMU_CPC_OUT (an output of tests/qemu-cpc/build.sh)"; \
	elif [ -z "$(QEMU_CPC_OUT)" ] && ! [ -x $(QB_IO_OUT)/build-cpc/qemu-io ]; then \
	    mkdir -p $(QB_IO_OUT) && \
	    QEMU_CPC_IOTESTS=0 $(TOP)/tests/qemu-cpc/build.sh $(QEMU_CPC_CHECKOUT) $(QB_IO_OUT) \
	        > $(QB_IO_OUT).log 2>&1; \
	    grep '^qemu-cpc: ' $(QB_IO_OUT).log | sed 's/^/# /'; \
	    python3 $(QB_SRC)/qemu_io.py $(QB_IO_OUT); \
	else \
	    python3 $(QB_SRC)/qemu_io.py $(QB_IO_OUT); \
	fi

.PHONY: bench-qemu-io
