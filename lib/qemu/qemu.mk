# lib/qemu/qemu.mk -- QEMU's coroutine API on CPC continuations
# (<cpc/qemu-coroutine.h>): coroutine.c is C on the continuation ABI, the
# rest (yield, locks, sleep) is CPC compiled by bin/cpcc.  The objects go
# into libcpc.a and libcpc_debug.a with the library (included by lib.mk).

QEMU_LIB_DIR        := $(TOP)/lib/qemu
QEMU_LIB_CPC_SRCS   := $(sort $(wildcard $(QEMU_LIB_DIR)/*.cpc))
QEMU_LIB_OBJS       := $(BUILD)/lib/qemu/coroutine.o \
                       $(patsubst $(QEMU_LIB_DIR)/%.cpc,$(BUILD)/lib/qemu/%.o,$(QEMU_LIB_CPC_SRCS))
QEMU_LIB_OBJS_DEBUG := $(BUILD)/lib/qemu/debug/coroutine.o \
                       $(patsubst $(QEMU_LIB_DIR)/%.cpc,$(BUILD)/lib/qemu/debug/%.o,$(QEMU_LIB_CPC_SRCS))
QEMU_LIB_DEPS       := $(LIB_DEPS) $(QEMU_LIB_DIR)/qemu_internal.h
# coroutine.c goes into the shared libraries too: position-independent, with
# the runtime's TLS model (runtime.mk, "Shared libraries").
QEMU_LIB_CFLAGS     := $(CFLAGS_COMMON) $(RUNTIME_PIC) -fno-semantic-interposition \
                       -I$(TOP)/runtime/include

RUNTIME_EXTRA_OBJS       += $(QEMU_LIB_OBJS)
RUNTIME_EXTRA_OBJS_DEBUG += $(QEMU_LIB_OBJS_DEBUG)

lib: $(QEMU_LIB_OBJS) $(QEMU_LIB_OBJS_DEBUG)

$(BUILD)/lib/qemu/coroutine.o: $(QEMU_LIB_DIR)/coroutine.c $(QEMU_LIB_DEPS)
	@mkdir -p $(@D)
	$(CC) $(QEMU_LIB_CFLAGS) -O2 -c $< -o $@

$(BUILD)/lib/qemu/debug/coroutine.o: $(QEMU_LIB_DIR)/coroutine.c $(QEMU_LIB_DEPS)
	@mkdir -p $(@D)
	$(CC) $(QEMU_LIB_CFLAGS) -O0 -g -DCPC_DEBUG -c $< -o $@

$(BUILD)/lib/qemu/%.o: $(QEMU_LIB_DIR)/%.cpc $(QEMU_LIB_DEPS) | $(SETUP_STAMP)
	@mkdir -p $(@D)
	$(LIB_CPCC) -O2 -g $(LIB_CPCFLAGS) -I$(QEMU_LIB_DIR) -c $< -o $@

$(BUILD)/lib/qemu/debug/%.o: $(QEMU_LIB_DIR)/%.cpc $(QEMU_LIB_DEPS) | $(SETUP_STAMP)
	@mkdir -p $(@D)
	$(LIB_CPCC) --cpc-debug -O0 -g $(LIB_CPCFLAGS) -I$(QEMU_LIB_DIR) -c $< -o $@
