# examples/examples.mk -- `make demo`: compile examples/countdown.cpc (the
# countdown of "Generating events with style", section 4.1) with bin/cpcc
# and run it.  The examples' tests are in examples/examples-tests.mk.

demo: setup runtime lib
	@mkdir -p $(BUILD)/examples
	$(TOP)/bin/cpcc -O2 -o $(BUILD)/examples/countdown $(TOP)/examples/countdown.cpc
	$(BUILD)/examples/countdown 3

.PHONY: demo
