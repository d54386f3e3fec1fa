# tests/faults/faults.mk -- allocation failures on purpose (docs/testing.md,
# "Fault injection").
#
#   make test-faults   (part of `make test`) one test per class of failure
#                      (test_faults.py: each makes one precise allocation
#                      fail, or closes a descriptor under a waiter), then a
#                      short campaign (campaign.py --short, well under a
#                      minute)
#   make fuzz-faults   (part of `make fuzz`) the long campaign
#
# The campaign runs programs under libfaultshim.so (LD_PRELOAD; malloc,
# calloc, realloc and the aligned allocators fail after the N-th call, at
# the N-th call only, or at random) and counts the runs that completed
# correctly or exited with a message naming what ran out, and those that
# crashed, hung or printed wrong output (which fail it).

FAULTS_DIR   := $(TOP)/tests/faults
FAULTS_BUILD := $(BUILD)/tests/faults
FAULTSHIM    := $(FAULTS_BUILD)/libfaultshim.so
FAULTS_ENV    = FAULTSHIM=$(FAULTSHIM) CPCC=$(TOP)/bin/cpcc FAULTS_BUILD=$(FAULTS_BUILD) \
                HTTPD=$(HTTPD_BIN) RT_BUILD=$(RT_BUILD) RT_SRC=$(RT_SRC) \
                LIB_TESTS=$(TOP)/tests/lib LIB_EXTRA_SRCS=$(TOP)/tests/lib/support/join.cpc

$(FAULTSHIM): $(FAULTS_DIR)/faultshim.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_COMMON) -O2 -shared -fPIC -fvisibility=hidden -o $@ $<

faultshim: $(FAULTSHIM)

# The runtime's tests run by the campaign are its opt binaries.
FAULTS_RT_BINS := $(addprefix $(RT_BUILD)/opt/,$(RT_TESTS))

test-faults: setup runtime lib $(FAULTSHIM) $(HTTPD_BIN) $(FAULTS_RT_BINS)
	@$(FAULTS_ENV) $(PYTHON) -m pytest -q -p no:cacheprovider $(FAULTS_DIR)/test_faults.py
	@$(FAULTS_ENV) nice $(PYTHON) $(FAULTS_DIR)/campaign.py --short

fuzz-faults: setup runtime lib $(FAULTSHIM) $(HTTPD_BIN) $(FAULTS_RT_BINS)
	@$(FAULTS_ENV) nice $(PYTHON) $(FAULTS_DIR)/campaign.py

TEST_SUITES += test-faults
fuzz: fuzz-faults

.PHONY: faultshim test-faults fuzz-faults
