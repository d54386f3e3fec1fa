# examples/httpd/httpd.mk -- the CPC HTTP/1.1 file server and its tests.
#
#   make httpd        builds $(BUILD)/examples/httpd/httpd with bin/cpcc
#   make test-httpd   unit tests of the native half (plain cc), then the
#                     end-to-end suite (curl, wrk, raw sockets; loopback only)
#
# Included from tests/tests.mk.

HTTPD_DIR   := $(TOP)/examples/httpd
HTTPD_BUILD := $(BUILD)/examples/httpd
HTTPD_BIN   := $(HTTPD_BUILD)/httpd
HTTPD_DEBUG := $(HTTPD_BUILD)/httpd.debug
HTTPD_UNIT  := $(HTTPD_BUILD)/test_http_unit
HTTPD_CACHE_UNIT := $(HTTPD_BUILD)/test_cache_unit
HTTPD_SRCS  := $(HTTPD_DIR)/httpd.cpc $(HTTPD_DIR)/http.c $(HTTPD_DIR)/cache.c
HTTPD_DEPS  := $(HTTPD_SRCS) $(HTTPD_DIR)/http.h $(HTTPD_DIR)/cache.h \
               $(wildcard $(TOP)/runtime/include/cpc/*.h) \
               $(TRANSLATOR_SOURCES)

# The library's objects are linked explicitly, as examples-tests.mk does.
$(HTTPD_BIN): $(HTTPD_DEPS) $(RUNTIME_LIB) $(LIB_OBJS) | $(SETUP_STAMP)
	@mkdir -p $(@D)
	$(TOP)/bin/cpcc -O2 -Wall -I$(HTTPD_DIR) -o $@ $(HTTPD_SRCS) $(LIB_OBJS)

# The debug runtime checks continuation ownership (one-shot resumption).
$(HTTPD_DEBUG): $(HTTPD_DEPS) $(RUNTIME_LIB_DEBUG) $(LIB_OBJS_DEBUG) | $(SETUP_STAMP)
	@mkdir -p $(@D)
	$(TOP)/bin/cpcc --cpc-debug -O0 -g -I$(HTTPD_DIR) -o $@ $(HTTPD_SRCS) $(LIB_OBJS_DEBUG)

$(HTTPD_UNIT): $(HTTPD_DIR)/test_http_unit.c $(HTTPD_DIR)/http.c $(HTTPD_DIR)/http.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_COMMON) -O1 -fsanitize=address,undefined -pthread -o $@ \
	    $(HTTPD_DIR)/test_http_unit.c $(HTTPD_DIR)/http.c

$(HTTPD_CACHE_UNIT): $(HTTPD_DIR)/test_cache_unit.c $(HTTPD_DIR)/cache.c $(HTTPD_DIR)/cache.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_COMMON) -O1 -fsanitize=address,undefined -pthread -o $@ \
	    $(HTTPD_DIR)/test_cache_unit.c $(HTTPD_DIR)/cache.c

httpd: $(HTTPD_BIN) $(HTTPD_DEBUG)

# The suite raises RLIMIT_NOFILE itself (to the hard limit) for the clients,
# wrk and the server; `timeout` bounds each run.  The debug build runs the
# same tests except the two load tests (which print the BENCH lines).
test-httpd: $(HTTPD_UNIT) $(HTTPD_CACHE_UNIT) $(HTTPD_BIN) $(HTTPD_DEBUG)
	$(HTTPD_UNIT)
	$(HTTPD_CACHE_UNIT)
	cd $(TOP) && HTTPD=$(HTTPD_BIN) timeout -k 10 300 $(PYTHON) -m pytest -q -s \
	    -p no:cacheprovider $(HTTPD_DIR)/test_httpd.py
	cd $(TOP) && HTTPD=$(HTTPD_DEBUG) timeout -k 10 300 $(PYTHON) -m pytest -q \
	    -p no:cacheprovider -k "not wrk and not ten_thousand" $(HTTPD_DIR)/test_httpd.py

TEST_SUITES += test-httpd

.PHONY: httpd test-httpd
