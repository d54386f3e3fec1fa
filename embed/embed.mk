# embed/embed.mk -- CPC schedulers driven from other event loops: the
# adapters for libev and libuv (embed/cpc_ev.c, embed/cpc_uv.c; headers
# cpc/cpc_ev.h, cpc/cpc_uv.h), an example each, and their tests.
#
#   $(BUILD)/embed/libcpc_ev.a   link with libcpc.a -lev
#   $(BUILD)/embed/libcpc_uv.a   link with libcpc.a -luv
#   make test-embed   builds and runs the examples and embed/handoff.cpc
#                     (work handed to an idle CPC from host callbacks);
#                     output compared with embed/*.expected
#   make bench-embed  the host's timer ticks with CPC idle and busy
# The runtime benchmarks run through both adapters too (bench-cpc_ev,
# bench-cpc_uv in bench/runtime).

EMBED_DIR   := $(TOP)/embed
EMBED_BUILD := $(BUILD)/embed
EMBED_LIB_EV := $(EMBED_BUILD)/libcpc_ev.a
EMBED_LIB_UV := $(EMBED_BUILD)/libcpc_uv.a
EMBED_CFLAGS := $(CFLAGS_COMMON) -O2 -pthread -I$(TOP)/runtime/include

$(EMBED_BUILD)/cpc_%.o: $(EMBED_DIR)/cpc_%.c $(TOP)/runtime/include/cpc/cpc_%.h \
                        $(TOP)/runtime/include/cpc/cpc_runtime.h | $(SETUP_EMBED_STAMP)
	@mkdir -p $(@D)
	$(CC) $(EMBED_CFLAGS) -c $< -o $@

$(EMBED_BUILD)/libcpc_%.a: $(EMBED_BUILD)/cpc_%.o
	@rm -f $@
	ar rcs $@ $^

# The examples: CPC programs, cpcc links libcpc.a.
$(EMBED_BUILD)/example_ev: $(EMBED_DIR)/example_ev.cpc $(EMBED_LIB_EV) $(RUNTIME_LIB)
	$(TOP)/bin/cpcc -O2 $< -o $@ $(EMBED_LIB_EV) -lev

$(EMBED_BUILD)/example_uv: $(EMBED_DIR)/example_uv.cpc $(EMBED_LIB_UV) $(RUNTIME_LIB)
	$(TOP)/bin/cpcc -O2 $< -o $@ $(EMBED_LIB_UV) -luv

# The host hands work to an idle CPC from its callbacks (embed/handoff.cpc,
# built once per host).
$(EMBED_BUILD)/handoff_ev: $(EMBED_DIR)/handoff.cpc $(EMBED_LIB_EV) $(RUNTIME_LIB)
	$(TOP)/bin/cpcc -O2 -DHOST_EV $< -o $@ $(EMBED_LIB_EV) -lev

$(EMBED_BUILD)/handoff_uv: $(EMBED_DIR)/handoff.cpc $(EMBED_LIB_UV) $(RUNTIME_LIB)
	$(TOP)/bin/cpcc -O2 -DHOST_UV $< -o $@ $(EMBED_LIB_UV) -luv

embed: $(EMBED_LIB_EV) $(EMBED_LIB_UV)

EMBED_TESTS := example_ev example_uv handoff_ev handoff_uv

# $(EMBED_DIR)/<test>.expected, or the one its source shares (handoff).
test-embed: setup-test runtime lib $(addprefix $(EMBED_BUILD)/,$(EMBED_TESTS))
	@fail=0; for x in $(EMBED_TESTS); do \
	    exp=$(EMBED_DIR)/$$x.expected; [ -f $$exp ] || exp=$(EMBED_DIR)/$${x%_*}.expected; \
	    if timeout 30 $(EMBED_BUILD)/$$x > $(EMBED_BUILD)/$$x.out 2>&1 && \
	       diff -u $$exp $(EMBED_BUILD)/$$x.out; then \
	        echo "ok   embed/$$x"; else echo "FAIL embed/$$x"; fail=1; fi; \
	done; exit $$fail

TEST_SUITES += test-embed

# The runtime micro-benchmarks through the adapters.
RB_OUT ?= $(BUILD)/bench/runtime
$(RB_OUT)/bench-cpc_ev: $(TOP)/bench/runtime/cpc.c $(TOP)/bench/runtime/bench_common.h \
                        $(EMBED_LIB_EV) $(RUNTIME_LIB)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_COMMON) -O2 -I$(TOP)/runtime/include -DBENCH_LOOP_EV $< -o $@ \
	    $(EMBED_LIB_EV) $(RUNTIME_LIB) -lev -pthread

$(RB_OUT)/bench-cpc_uv: $(TOP)/bench/runtime/cpc.c $(TOP)/bench/runtime/bench_common.h \
                        $(EMBED_LIB_UV) $(RUNTIME_LIB)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_COMMON) -O2 -I$(TOP)/runtime/include -DBENCH_LOOP_UV $< -o $@ \
	    $(EMBED_LIB_UV) $(RUNTIME_LIB) -luv -pthread

bench-runtime-build: $(RB_OUT)/bench-cpc_ev $(RB_OUT)/bench-cpc_uv

# The host loop's timer while CPC idles and while it yields in a loop
# (bench/embed/ticks.cpc): `make bench-embed`, a few seconds.
EB_SRC := $(TOP)/bench/embed
EB_OUT := $(BUILD)/bench/embed
$(EB_OUT)/ticks_ev: $(EB_SRC)/ticks.cpc $(EMBED_LIB_EV) $(RUNTIME_LIB)
	@mkdir -p $(@D)
	$(TOP)/bin/cpcc -O2 -DHOST_EV $< -o $@ $(EMBED_LIB_EV) -lev

$(EB_OUT)/ticks_uv: $(EB_SRC)/ticks.cpc $(EMBED_LIB_UV) $(RUNTIME_LIB)
	@mkdir -p $(@D)
	$(TOP)/bin/cpcc -O2 -DHOST_UV $< -o $@ $(EMBED_LIB_UV) -luv

bench-embed: setup-bench runtime lib $(EB_OUT)/ticks_ev $(EB_OUT)/ticks_uv
	@$(EB_OUT)/ticks_ev && $(EB_OUT)/ticks_uv

BENCH_SUITES += bench-embed

.PHONY: embed test-embed bench-embed

.SECONDARY: $(EMBED_BUILD)/cpc_ev.o $(EMBED_BUILD)/cpc_uv.o
