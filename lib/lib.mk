# lib/lib.mk -- the CPC library (lib/*.cpc), written in CPC and compiled
# by bin/cpcc.  Exposes:
#   LIB_OBJS        the objects for libcpc.a        (cpcc -O2 -g)
#   LIB_OBJS_DEBUG  the objects for libcpc_debug.a  (cpcc --cpc-debug -O0 -g;
#                   the debug runtime has a different continuation layout)
# runtime/runtime.mk archives them into libcpc.a and libcpc_debug.a.  `make lib` builds both sets.

LIB_CPCC        := $(TOP)/bin/cpcc
LIB_SRCS        := $(sort $(wildcard $(TOP)/lib/*.cpc))
LIB_OBJS        := $(patsubst $(TOP)/lib/%.cpc,$(BUILD)/lib/%.o,$(LIB_SRCS))
LIB_OBJS_DEBUG  := $(patsubst $(TOP)/lib/%.cpc,$(BUILD)/lib/debug/%.o,$(LIB_SRCS))
# -fPIC: the same objects go into the static and the shared libraries.
LIB_CPCFLAGS    := -I$(TOP)/lib -Wall -Wextra -fPIC -fno-semantic-interposition
# Rebuild when the interface, the internal header or the translator change.
LIB_DEPS        := $(wildcard $(TOP)/runtime/include/cpc/*.h) $(TOP)/lib/lib_internal.h \
                   $(TRANSLATOR_SOURCES) $(TOP)/lib/lib.mk

# The library ships inside the runtime archives.
RUNTIME_EXTRA_OBJS       += $(LIB_OBJS)
RUNTIME_EXTRA_OBJS_DEBUG += $(LIB_OBJS_DEBUG)

lib: $(LIB_OBJS) $(LIB_OBJS_DEBUG)

# -g: gdb shows the library's frames in a release program's CPC threads
# (debug information changes no instruction).
$(BUILD)/lib/%.o: $(TOP)/lib/%.cpc $(LIB_DEPS) | $(SETUP_STAMP)
	@mkdir -p $(@D)
	$(LIB_CPCC) -O2 -g $(LIB_CPCFLAGS) -c $< -o $@

$(BUILD)/lib/debug/%.o: $(TOP)/lib/%.cpc $(LIB_DEPS) | $(SETUP_STAMP)
	@mkdir -p $(@D)
	$(LIB_CPCC) --cpc-debug -O0 -g $(LIB_CPCFLAGS) -c $< -o $@

.PHONY: lib

include $(TOP)/lib/qemu/qemu.mk
