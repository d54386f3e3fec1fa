# tests/lib/lib-tests.mk -- `make test-lib`: the library's test programs
# (tests/lib/*.cpc, each with its .expected output), built with bin/cpcc
# against the library objects, run in the -O2 and the --cpc-debug builds,
# and under valgrind when marked "test: valgrind".

LIB_TEST_SRCS := $(sort $(wildcard $(TOP)/tests/lib/*.cpc))

test-lib: setup runtime lib
	@LIB_OBJS="$(LIB_OBJS)" LIB_OBJS_DEBUG="$(LIB_OBJS_DEBUG)" CPCC="$(LIB_CPCC)" \
	    EXTRA_SRCS="$(TOP)/tests/lib/support/join.cpc" \
	    $(TOP)/tests/lib/run-cpc-tests.sh lib $(BUILD)/tests/lib $(LIB_TEST_SRCS)

TEST_SUITES += test-lib
.PHONY: test-lib
