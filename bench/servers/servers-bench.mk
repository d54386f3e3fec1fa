# bench/servers/servers-bench.mk -- `make bench-servers`: "Continuation-Passing C"'s naive
# web servers (CPC, State Threads, GNU Pth, nptl, fork), examples/httpd and
# nginx under wrk on loopback, plus the memory of idle keep-alive
# connections (bench/servers/run.py).  BENCH_QUICK=1 for a smoke run.

SV_SRC := $(TOP)/bench/servers
SV_OUT := $(BUILD)/bench/servers
SV_CFLAGS := $(CFLAGS_COMMON) -O2 -I$(SV_SRC)
SV_DEPS := $(SV_SRC)/naive_common.h $(SV_SRC)/servers-bench.mk
SV_BINS := $(SV_OUT)/naive-cpc $(SV_OUT)/naive-st $(SV_OUT)/naive-pth \
           $(SV_OUT)/naive-nptl $(SV_OUT)/naive-fork

BENCH_SUITES += bench-servers

bench-servers: setup-bench runtime lib $(SV_BINS) $(HTTPD_BIN)
	@$(PYTHON) $(SV_SRC)/run.py $(SV_OUT) $(HTTPD_BIN)

bench-servers-build: $(SV_BINS)

$(SV_OUT):
	@mkdir -p $@

$(SV_OUT)/naive-cpc: $(SV_SRC)/naive_cpc.cpc $(SV_DEPS) $(RUNTIME_LIB) $(LIB_OBJS) | $(SV_OUT)
	$(TOP)/bin/cpcc -O2 -I$(SV_SRC) -o $@ $< $(LIB_OBJS)

$(SV_OUT)/naive-st: $(SV_SRC)/naive_st.c $(SV_DEPS) | $(SV_OUT)
	$(CC) $(SV_CFLAGS) $< -o $@ -lst

$(SV_OUT)/naive-pth: $(SV_SRC)/naive_pth.c $(SV_DEPS) | $(SV_OUT)
	$(CC) $(SV_CFLAGS) $< -o $@ -lpth

$(SV_OUT)/naive-nptl: $(SV_SRC)/naive_nptl.c $(SV_DEPS) | $(SV_OUT)
	$(CC) $(SV_CFLAGS) $< -o $@ -pthread

$(SV_OUT)/naive-fork: $(SV_SRC)/naive_fork.c $(SV_DEPS) | $(SV_OUT)
	$(CC) $(SV_CFLAGS) $< -o $@

.PHONY: bench-servers bench-servers-build
