# tests/runtime/runtime-tests.mk -- `make test-runtime`, part of `make test`.
#
# Every tests/runtime/t_NAME.c is built in five flavours:
#   opt    -O2 against libcpc.a
#   O0     -O0 against libcpc.a (cps code without gcc's tail calls: the
#          trampoline's budget must keep the C stack bounded anyway)
#   debug  -O0 -DCPC_DEBUG against libcpc_debug.a
#   tsan   -O1 -fsanitize=thread against libcpc_tsan.a
#   packed -O2 -DCPC_PACKED_FRAMES against libcpc.a (unaligned frames:
#          the runtime's wait records above them are packed structs,
#          used unaligned)
# and tests/runtime/TESTS says which runs each test gets (see run-tests.sh).

RT_SRC    := $(TOP)/tests/runtime
RT_BUILD  := $(BUILD)/tests/runtime
RT_TESTS  := $(patsubst $(RT_SRC)/%.c,%,$(wildcard $(RT_SRC)/t_*.c))
RT_CFLAGS := $(CFLAGS_COMMON) -pthread -I$(TOP)/runtime/include
RT_DEPS   := $(RT_SRC)/cps_test.h $(RT_SRC)/io_gather_wrap.h $(TOP)/runtime/include/cpc/cpc_runtime.h

$(RT_BUILD)/opt/%: $(RT_SRC)/%.c $(RT_DEPS) $(RUNTIME_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(RT_CFLAGS) -O2 $< -o $@ $(RUNTIME_LIB)

$(RT_BUILD)/O0/%: $(RT_SRC)/%.c $(RT_DEPS) $(RUNTIME_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(RT_CFLAGS) -O0 $< -o $@ $(RUNTIME_LIB)

$(RT_BUILD)/debug/%: $(RT_SRC)/%.c $(RT_DEPS) $(RUNTIME_LIB_DEBUG)
	@mkdir -p $(dir $@)
	$(CC) $(RT_CFLAGS) -O0 -DCPC_DEBUG $< -o $@ $(RUNTIME_LIB_DEBUG)

$(RT_BUILD)/tsan/%: $(RT_SRC)/%.c $(RT_DEPS) $(RUNTIME_LIB_TSAN)
	@mkdir -p $(dir $@)
	$(CC) $(RT_CFLAGS) -O1 -fsanitize=thread $< -o $@ $(RUNTIME_LIB_TSAN)

$(RT_BUILD)/packed/%: $(RT_SRC)/%.c $(RT_DEPS) $(RUNTIME_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(RT_CFLAGS) -O2 -DCPC_PACKED_FRAMES $< -o $@ $(RUNTIME_LIB)

RT_BINS := $(foreach f,opt O0 debug tsan packed,$(addprefix $(RT_BUILD)/$(f)/,$(RT_TESTS)))

# t_service_bound_lone is t_service_bound.c with one yielding thread.
$(foreach f,opt O0 debug tsan packed,$(RT_BUILD)/$(f)/t_service_bound_lone) \
$(foreach f,opt debug,$(BUILD)/tests/runtime-shared/$(f)/t_service_bound_lone): \
    $(RT_SRC)/t_service_bound.c

# The same tests against the shared libraries (test-runtime-shared, run by
# test-runtime after the others, not beside them: some tests order events
# 10 ms apart and more parallel load would blur that): the opt and debug
# flavours linked with libcpc.so and libcpc_debug.so.
RT_SHARED_BUILD := $(BUILD)/tests/runtime-shared
RT_SHARED_LINK  := -L$(RUNTIME_BUILD) -Wl,-rpath,$(RUNTIME_BUILD)

$(RT_SHARED_BUILD)/opt/%: $(RT_SRC)/%.c $(RT_DEPS) $(RUNTIME_SO)
	@mkdir -p $(dir $@)
	$(CC) $(RT_CFLAGS) -O2 $< -o $@ $(RT_SHARED_LINK) -lcpc

$(RT_SHARED_BUILD)/debug/%: $(RT_SRC)/%.c $(RT_DEPS) $(RUNTIME_SO_DEBUG)
	@mkdir -p $(dir $@)
	$(CC) $(RT_CFLAGS) -O0 -DCPC_DEBUG $< -o $@ $(RT_SHARED_LINK) -lcpc_debug

RT_SHARED_BINS := $(foreach f,opt debug,$(addprefix $(RT_SHARED_BUILD)/$(f)/,$(RT_TESTS)))

RT_RUN_SHARED := RT_RUNS="opt debug abort abort-debug" $(RT_SRC)/run-tests.sh $(RT_SHARED_BUILD) $(RT_SRC)

test-runtime-shared: runtime $(RT_SHARED_BINS)
	@$(RT_RUN_SHARED)

test-runtime-build: runtime $(RT_BINS)

# The I/O back-end that the runs above do not use by default (CPC_IO,
# runtime/cpc_io.c; the debug flavour always uses epoll): the opt flavour
# once more with it, into its own directory.
RT_OTHER_IO := uring
RT_RUN_OTHER_IO := CPC_IO=$(RT_OTHER_IO) RT_RUNS="opt" \
    $(RT_SRC)/run-tests.sh $(RT_BUILD)/io-$(RT_OTHER_IO) $(RT_SRC)

test-runtime-other-io: test-runtime-build
	@mkdir -p $(RT_BUILD)/io-$(RT_OTHER_IO)
	@ln -sfn ../opt $(RT_BUILD)/io-$(RT_OTHER_IO)/opt
	@echo "runtime tests with CPC_IO=$(RT_OTHER_IO):"
	@$(RT_RUN_OTHER_IO)

test-runtime: setup-test test-runtime-build $(RT_SHARED_BINS)
	@$(RT_SRC)/run-tests.sh $(RT_BUILD) $(RT_SRC)
	@$(RT_RUN_SHARED)
	@$(MAKE) --no-print-directory test-runtime-other-io

TEST_SUITES += test-runtime

.PHONY: test-runtime test-runtime-build test-runtime-shared test-runtime-other-io
