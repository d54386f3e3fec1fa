# bench/runtime/runtime-bench.mk -- `make bench-runtime`: the runtime
# micro-benchmarks (switch, cond, spawn, idle) of CPC and of its peers
# (event-driven C, C++20 coroutines, boost.context, State Threads), built
# and run side by side; then the service bound (service.cpc) and the
# instructions per operation under callgrind (instructions.py).  BENCH_QUICK=1 for a smoke run; see
# bench/README.md and bench/runtime/run.py for the other knobs.

RB_SRC  := $(TOP)/bench/runtime
RB_OUT  := $(BUILD)/bench/runtime
RB_CXX  ?= g++
RB_OPT  ?= -O2
RB_CFLAGS   := $(CFLAGS_COMMON) $(RB_OPT) -I$(TOP)/runtime/include
RB_CXXFLAGS := -std=c++20 -Wall -Wextra -g $(RB_OPT)
RB_LIBCPC   := $(BUILD)/runtime/libcpc.a
RB_LIBCPC_NC := $(BUILD)/runtime/libcpc_nocache.a
RB_DEPS     := $(RB_SRC)/bench_common.h $(RB_SRC)/runtime-bench.mk

RB_PEERS := $(RB_OUT)/bench-baseline $(RB_OUT)/bench-coro \
            $(RB_OUT)/bench-boost $(RB_OUT)/bench-st
RB_BINS  := $(RB_OUT)/bench-cpc $(RB_OUT)/bench-cpc_shared $(RB_OUT)/bench-cpc_nocache $(RB_PEERS) \
            $(RB_OUT)/bench-cpcc

BENCH_SUITES += bench-runtime

# The runtime is built by its own fragment (`make runtime`,
# `make runtime-nocache`) first.
bench-runtime: setup-bench runtime runtime-nocache
	@$(MAKE) --no-print-directory bench-runtime-build $(RB_OUT)/service
	@python3 $(RB_SRC)/run.py $(RB_OUT)
	@taskset -c $${BENCH_CPU:-0} $(RB_OUT)/service 1000 \
	    $$(if [ "$${BENCH_QUICK:-0}" != 0 ]; then echo 20; else echo 200; fi)
	@python3 $(RB_SRC)/instructions.py $(RB_OUT)

bench-runtime-build: $(RB_BINS)
bench-runtime-peers: $(RB_PEERS)

$(RB_OUT):
	@mkdir -p $@

$(RB_OUT)/bench-cpc: $(RB_SRC)/cpc.c $(RB_DEPS) $(RB_LIBCPC) | $(RB_OUT)
	$(CC) $(RB_CFLAGS) $< -o $@ $(RB_LIBCPC) -pthread

# The cost of the shared runtime (-fPIC, calls through the PLT, TLS through
# the GOT): the same program linked with libcpc.so.
$(RB_OUT)/bench-cpc_shared: $(RB_SRC)/cpc.c $(RB_DEPS) $(RUNTIME_SO) | $(RB_OUT)
	$(CC) $(RB_CFLAGS) -DBENCH_SYS='"cpc_shared"' $< -o $@ \
	    -L$(BUILD)/runtime -Wl,-rpath,$(BUILD)/runtime -lcpc -pthread

$(RB_OUT)/bench-cpc_nocache: $(RB_SRC)/cpc.c $(RB_DEPS) $(RB_LIBCPC_NC) | $(RB_OUT)
	$(CC) $(RB_CFLAGS) -DBENCH_SYS='"cpc_nocache"' $< -o $@ $(RB_LIBCPC_NC) -pthread

# The same benchmarks as CPC source through the real translator.  Optional:
# if cpcc cannot build it, the run goes on without the "cpcc" column.
$(RB_OUT)/bench-cpcc: $(RB_SRC)/cpc_src.cpc $(RB_DEPS) $(RB_LIBCPC) \
                     $(TRANSLATOR_SOURCES) | $(RB_OUT)
	@$(TOP)/bin/cpcc $(RB_OPT) -g -I$(RB_SRC) $< -o $@ || { rm -f $@; \
	    echo "bench-runtime: cpcc failed on $<; no cpcc column" >&2; }

# How long a yield loop delays a ready descriptor and an expired timer
# (the run queue's service bound, docs/abi.md).
$(RB_OUT)/service: $(RB_SRC)/service.cpc $(RB_DEPS) $(RB_LIBCPC) | $(RB_OUT)
	$(TOP)/bin/cpcc $(RB_OPT) -I$(RB_SRC) $< -o $@

$(RB_OUT)/bench-baseline: $(RB_SRC)/baseline.c $(RB_DEPS) | $(RB_OUT)
	$(CC) $(RB_CFLAGS) $< -o $@

$(RB_OUT)/bench-coro: $(RB_SRC)/coro.cpp $(RB_DEPS) | $(RB_OUT)
	$(RB_CXX) $(RB_CXXFLAGS) $< -o $@

$(RB_OUT)/bench-boost: $(RB_SRC)/boostctx.cpp $(RB_DEPS) | $(RB_OUT)
	$(RB_CXX) $(RB_CXXFLAGS) $< -o $@ -lboost_context

$(RB_OUT)/bench-st: $(RB_SRC)/st.c $(RB_DEPS) | $(RB_OUT)
	$(CC) $(RB_CFLAGS) $< -o $@ -lst

.PHONY: bench-runtime bench-runtime-build bench-runtime-peers
