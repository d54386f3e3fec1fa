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

test-lib: setup-test runtime lib $(LIB_OBJS_TSAN)
	@LIB_OBJS="$(LIB_OBJS)" LIB_OBJS_DEBUG="$(LIB_OBJS_DEBUG)" CPCC="$(LIB_CPCC)" \
	    LIB_OBJS_TSAN="$(LIB_OBJS_TSAN)" RUNTIME_LIB_TSAN="$(RUNTIME_LIB_TSAN)" \
	    EXTRA_SRCS="$(TOP)/tests/lib/support/join.cpc" \
	    $(TOP)/tests/lib/run-cpc-tests.sh lib $(BUILD)/tests/lib $(LIB_TEST_SRCS)

TEST_SUITES += test-lib
.PHONY: test-lib
