# examples/examples-tests.mk -- `make test-examples`: builds and runs the
# example programs (examples/*.cpc) and compares their output with
# examples/NAME.expected.  The HTTP server (examples/httpd/) has its own
# checks.

EXAMPLE_TEST_SRCS := $(sort $(wildcard $(TOP)/examples/*.cpc))

test-examples: setup-test runtime lib
	@LIB_OBJS="$(LIB_OBJS)" LIB_OBJS_DEBUG="$(LIB_OBJS_DEBUG)" CPCC="$(LIB_CPCC)" \
	    $(TOP)/tests/lib/run-cpc-tests.sh examples $(BUILD)/tests/examples $(EXAMPLE_TEST_SRCS)

TEST_SUITES += test-examples
.PHONY: test-examples
