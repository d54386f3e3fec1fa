# bench/papers/papers-bench.mk -- `make bench-papers`: "One-shot continuations"'s fib
# crossover (CPC against stackful threads), "Generating events with style"'s data-flow table
# (--dataflow=lifting against environments, with its tic-tac-toe generator)
# and the idle-thread memory of nptl and GNU Pth (bench/papers/run.py).

PB_SRC := $(TOP)/bench/papers
PB_OUT := $(BUILD)/bench/papers
PB_CFLAGS := $(CFLAGS_COMMON) -O2 -I$(TOP)/bench/runtime
PB_CPCC := $(TOP)/bin/cpcc -O2 -I$(TOP)/bench/runtime
PB_TRANSLATOR := $(TRANSLATOR_SOURCES)
PB_DEPS := $(TOP)/bench/runtime/bench_common.h $(PB_SRC)/papers-bench.mk $(PB_TRANSLATOR) \
           $(RUNTIME_LIB)
PB_SCHEMES := lifting environments
PB_BINS := $(PB_OUT)/fib-cpc $(PB_OUT)/fib-boost $(PB_OUT)/fib-ucontext \
           $(PB_OUT)/fib-native $(PB_OUT)/idle-nptl $(PB_OUT)/idle-pth \
           $(foreach s,$(PB_SCHEMES),$(PB_OUT)/cpscall-$(s) $(PB_OUT)/bench-cpcc-$(s) \
               $(PB_OUT)/ttt-manual-$(s) $(PB_OUT)/ttt-auto-$(s))

BENCH_SUITES += bench-papers

bench-papers: setup-bench runtime lib
	@$(MAKE) --no-print-directory bench-papers-build
	@$(PYTHON) $(PB_SRC)/run.py $(PB_OUT)

bench-papers-build: $(PB_BINS)

$(PB_OUT):
	@mkdir -p $@

$(PB_OUT)/fib-cpc: $(PB_SRC)/fib.cpc $(PB_DEPS) | $(PB_OUT)
	$(PB_CPCC) $< -o $@

$(PB_OUT)/fib-boost: $(PB_SRC)/fib_boost.cpp $(PB_DEPS) | $(PB_OUT)
	$(RB_CXX) $(RB_CXXFLAGS) -I$(TOP)/bench/runtime $< -o $@ -lboost_context

$(PB_OUT)/fib-ucontext: $(PB_SRC)/fib_ucontext.c $(PB_DEPS) | $(PB_OUT)
	$(CC) $(PB_CFLAGS) $< -o $@

$(PB_OUT)/fib-native: $(PB_SRC)/fib_ucontext.c $(PB_DEPS) | $(PB_OUT)
	$(CC) $(PB_CFLAGS) -DNATIVE $< -o $@

$(PB_OUT)/idle-nptl: $(PB_SRC)/idle_threads.c $(PB_DEPS) | $(PB_OUT)
	$(CC) $(PB_CFLAGS) $< -o $@ -pthread

$(PB_OUT)/idle-pth: $(PB_SRC)/idle_threads.c $(PB_DEPS) | $(PB_OUT)
	$(CC) $(PB_CFLAGS) -DUSE_PTH $< -o $@ -lpth

$(PB_OUT)/cpscall-%: $(TOP)/bench/translator/cpscall.cpc $(PB_DEPS) | $(PB_OUT)
	$(PB_CPCC) --dataflow=$* $< -o $@

$(PB_OUT)/bench-cpcc-%: $(TOP)/bench/runtime/cpc_src.cpc $(PB_DEPS) | $(PB_OUT)
	$(PB_CPCC) --dataflow=$* $< -o $@

$(PB_OUT)/ttt-manual-%: $(PB_SRC)/tictactoe.cpc $(PB_DEPS) $(LIB_OBJS) | $(PB_OUT)
	$(PB_CPCC) --dataflow=$* $< -o $@ $(LIB_OBJS)

$(PB_OUT)/ttt-auto-%: $(PB_SRC)/tictactoe.cpc $(PB_DEPS) $(LIB_OBJS) | $(PB_OUT)
	$(PB_CPCC) --dataflow=$* -DAUTOMATIC $< -o $@ $(LIB_OBJS)

.PHONY: bench-papers bench-papers-build
