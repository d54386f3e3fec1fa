# tests/lib/lib-tests.mk -- `make test-lib`: the library's test programs
# (tests/lib/*.cpc, each with its .expected output), built with bin/cpcc
# against the library objects, run in the -O2 and the --cpc-debug builds,
# under valgrind when marked "test: valgrind", and under ThreadSanitizer
# when marked "test: tsan" (against the library built with
# -fsanitize=thread and libcpc_tsan.a).

LIB_TEST_SRCS := $(sort $(wildcard $(TOP)/tests/lib/*.cpc))
LIB_OBJS_TSAN := $(patsubst $(TOP)/lib/%.cpc,$(BUILD)/lib/tsan/%.o,$(LIB_SRCS))

$(BUILD)/lib/tsan/%.o: $(TOP)/lib/%.cpc $(LIB_DEPS) | $(SETUP_STAMP)
	@mkdir -p $(@D)
	$(LIB_CPCC) -O1 -g -fsanitize=thread $(LIB_CPCFLAGS) -c $< -o $@

# The I/O back-end the runs above do not use by default (CPC_IO): the opt
# build runs once more with it.
LIB_OTHER_IO := uring

test-lib: setup-test runtime lib $(LIB_OBJS_TSAN)
	@LIB_OBJS="$(LIB_OBJS)" LIB_OBJS_DEBUG="$(LIB_OBJS_DEBUG)" CPCC="$(LIB_CPCC)" \
	    LIB_OBJS_TSAN="$(LIB_OBJS_TSAN)" RUNTIME_LIB_TSAN="$(RUNTIME_LIB_TSAN)" \
	    EXTRA_SRCS="$(TOP)/tests/lib/support/join.cpc" \
	    $(TOP)/tests/lib/run-cpc-tests.sh lib $(BUILD)/tests/lib $(LIB_TEST_SRCS)
	@echo "library tests with CPC_IO=$(LIB_OTHER_IO) (opt build):"
	@CPC_IO=$(LIB_OTHER_IO) NO_VALGRIND=1 NO_DEBUG=1 LIB_OBJS="$(LIB_OBJS)" \
	    CPCC="$(LIB_CPCC)" EXTRA_SRCS="$(TOP)/tests/lib/support/join.cpc" \
	    $(TOP)/tests/lib/run-cpc-tests.sh lib $(BUILD)/tests/lib-io-$(LIB_OTHER_IO) \
	    $(LIB_TEST_SRCS)

TEST_SUITES += test-lib
.PHONY: test-lib
