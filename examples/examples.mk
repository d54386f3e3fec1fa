# examples/examples.mk -- `make demo`: compile two examples with bin/cpcc and
# run them: the countdown of "Generating events with style" (section 4.1),
# then producers and consumers interleaving over condition variables.  The
# examples' tests are in examples/examples-tests.mk.

demo: setup runtime lib
	@mkdir -p $(BUILD)/examples
	$(TOP)/bin/cpcc -O2 -o $(BUILD)/examples/countdown $(TOP)/examples/countdown.cpc
	$(TOP)/bin/cpcc -O2 -o $(BUILD)/examples/prodcons $(TOP)/examples/prodcons.cpc
	@echo "--- countdown: one CPC thread sleeping between prints"
	$(BUILD)/examples/countdown 3
	@echo "--- prodcons: two producers, two consumers, one 4-slot buffer"
	$(BUILD)/examples/prodcons

.PHONY: demo
