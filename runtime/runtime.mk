# runtime/runtime.mk -- the CPC runtime libraries (included by the top Makefile).
#
#   make runtime   builds
#     $(BUILD)/runtime/libcpc.a        -O2, the production runtime
#     $(BUILD)/runtime/libcpc_debug.a  -O0 -g -DCPC_DEBUG: one-shot checks
#     $(BUILD)/runtime/libcpc_tsan.a   -O1 -g -fsanitize=thread
#     $(BUILD)/runtime/libcpc.so, libcpc_debug.so  the same as shared
#                  libraries (-fPIC, see "Shared libraries" below)
#   make runtime-nocache  also builds libcpc_nocache.a (-O2 -DCPC_NO_CACHE),
#                  to measure the continuation cache.
#   make demo-hand runs examples/hand/countdown.c, a hand-translated demo.
#
# Programs link with -lcpc -lpthread, and -fsanitize=thread for the tsan
# flavour.  Code using the debug library must be compiled with -DCPC_DEBUG
# (the continuation header grows two fields).
#
# Other parts of the tree (lib/lib.mk) add objects to libcpc.a by
# appending to RUNTIME_EXTRA_OBJS anywhere in their fragment, e.g.
#     RUNTIME_EXTRA_OBJS += $(BUILD)/lib/cpc_barrier.o
# (and RUNTIME_EXTRA_OBJS_DEBUG for libcpc_debug.a, built with -DCPC_DEBUG)
# and providing the rules that build them: the prerequisite list is
# expanded late (secondary expansion), so the order of the includes does
# not matter.  They are archived into libcpc.a with the runtime.

RUNTIME_DIR      := $(TOP)/runtime
RUNTIME_BUILD    := $(BUILD)/runtime
RUNTIME_SRCS     := cpc_continuation.c cpc_sched.c cpc_condvar.c cpc_timer.c \
                    cpc_io.c cpc_uring.c cpc_pool.c cpc_debug.c cpc_park.c cpc_flavour.c
RUNTIME_HDRS     := $(RUNTIME_DIR)/include/cpc/cpc_runtime.h \
                    $(RUNTIME_DIR)/cpc_internal.h $(RUNTIME_DIR)/cpc_uring.h
# The gdb extension every program names in its .debug_gdb_scripts section.
CPC_GDB_SCRIPT   := $(TOP)/tools/gdb/cpc-gdb.py
RUNTIME_CPPFLAGS := -I$(RUNTIME_DIR)/include -I$(RUNTIME_DIR) \
                    -DCPC_GDB_SCRIPT='"$(CPC_GDB_SCRIPT)"'
# Hidden by default: what the public headers declare (they push default
# visibility) is the exported API, everything else stays inside the library.
RUNTIME_CFLAGS   := $(CFLAGS_COMMON) -pthread -fvisibility=hidden
RUNTIME_EXTRA_OBJS ?=
RUNTIME_EXTRA_OBJS_DEBUG ?=

# flavour -> extra flags.  The optimised flavours start every function on
# a 64-byte boundary: the scheduler's hot paths (main loop, yield, signal,
# wait) then keep the same position within their cache lines wherever the
# linker places the library, and so the same speed.  Left to the default
# 16-byte alignment, a yield ping-pong ran 2.8 or 3.3 ns per switch
# depending on the size of the program linked in front of the library.
# Jumps kept inside 32-byte blocks where the assembler can pad: Intel's JCC
# erratum fix (Skylake to Cascade Lake) keeps out of the decoded instruction
# cache every 32-byte block that a jump crosses or ends at.  On such a CPU,
# without it, the same fib threads ran 20% slower on a second scheduler than
# on the default one (the scheduler loops are two copies of one function,
# placed differently), and bench/multicore's fib scaled 1.62x on 2 cores
# instead of 1.8x; the primitives' figures did not move.  (The generated
# code does not get it: there it made the yield ping-pong 8% slower.)
RUNTIME_JCC           := $(shell $(CC) -Wa,-mbranches-within-32B-boundaries -x c -c \
                           -o /dev/null /dev/null 2>/dev/null && \
                           echo -Wa,-mbranches-within-32B-boundaries)
RUNTIME_ALIGN         := -falign-functions=64 $(RUNTIME_JCC)
RUNTIME_FLAGS_opt     := -O2 $(RUNTIME_ALIGN)
RUNTIME_FLAGS_debug   := -O0 -g -DCPC_DEBUG
RUNTIME_FLAGS_tsan    := -O1 -g -fsanitize=thread
RUNTIME_FLAGS_nocache := -O2 $(RUNTIME_ALIGN) -DCPC_NO_CACHE
# Shared libraries: position-independent code, and the initial-exec TLS
# model for the runtime's thread-locals (a shared object cannot use the
# local-exec model of executables; initial-exec keeps each access one load
# through the GOT instead of a __tls_get_addr call, at the price that the
# variables live in the static TLS block: fine for a library the program is
# linked with, and the few bytes fit glibc's reserve for dlopen).
RUNTIME_PIC           := -fPIC -ftls-model=initial-exec
RUNTIME_FLAGS_pic     := $(RUNTIME_FLAGS_opt) $(RUNTIME_PIC)
RUNTIME_FLAGS_debug_pic := $(RUNTIME_FLAGS_debug) $(RUNTIME_PIC)

RUNTIME_LIB         := $(RUNTIME_BUILD)/libcpc.a
RUNTIME_LIB_DEBUG   := $(RUNTIME_BUILD)/libcpc_debug.a
RUNTIME_LIB_TSAN    := $(RUNTIME_BUILD)/libcpc_tsan.a
RUNTIME_LIB_NOCACHE := $(RUNTIME_BUILD)/libcpc_nocache.a

runtime_objs = $(addprefix $(RUNTIME_BUILD)/$(1)/,$(RUNTIME_SRCS:.c=.o))

define RUNTIME_FLAVOUR
$(RUNTIME_BUILD)/$(1)/%.o: $(RUNTIME_DIR)/%.c $(RUNTIME_HDRS) | $(RUNTIME_BUILD)/$(1)
	$$(CC) $$(RUNTIME_CFLAGS) $$(RUNTIME_FLAGS_$(1)) $$(RUNTIME_CPPFLAGS) -c $$< -o $$@

$(RUNTIME_BUILD)/$(1):
	@mkdir -p $$@
endef
$(foreach f,opt debug tsan nocache pic debug_pic,$(eval $(call RUNTIME_FLAVOUR,$(f))))

.SECONDEXPANSION:
$(RUNTIME_LIB): $(call runtime_objs,opt) $$(RUNTIME_EXTRA_OBJS)
	@rm -f $@
	ar rcs $@ $^

$(RUNTIME_LIB_DEBUG): $(call runtime_objs,debug) $$(RUNTIME_EXTRA_OBJS_DEBUG)
	@rm -f $@
	ar rcs $@ $^

$(RUNTIME_LIB_TSAN): $(call runtime_objs,tsan)
	@rm -f $@
	ar rcs $@ $^

$(RUNTIME_LIB_NOCACHE): $(call runtime_objs,nocache)
	@rm -f $@
	ar rcs $@ $^

# ---- shared libraries ----------------------------------------------------
# libcpc.so.$(CPC_VERSION), soname libcpc.so.$(CPC_SOVERSION), and the
# libcpc.so link; the same for libcpc_debug.  They export exactly the API of
# the public headers (a version script written by runtime/api_symbols.py).
CPC_VERSION   := 0.1.0
CPC_SOVERSION := 0
RUNTIME_SO_MAP := $(RUNTIME_BUILD)/libcpc.map
RUNTIME_SO       := $(RUNTIME_BUILD)/libcpc.so
RUNTIME_SO_DEBUG := $(RUNTIME_BUILD)/libcpc_debug.so

$(RUNTIME_SO_MAP): $(RUNTIME_DIR)/api_symbols.py $(wildcard $(RUNTIME_DIR)/include/cpc/*.h) | $(SETUP_STAMP)
	@mkdir -p $(@D)
	PYTHONPATH=$(TOP)/translator $(PYTHON) $< $(RUNTIME_DIR)/include --version-script > $@.tmp
	@mv $@.tmp $@

# $(call runtime_so,libname,objects)
define runtime_so
	@rm -f $(1).so*
	$(CC) -shared -Wl,-soname,$(notdir $(1)).so.$(CPC_SOVERSION) -Wl,-z,defs -Wl,-Bsymbolic-functions \
	    -Wl,--version-script=$(RUNTIME_SO_MAP) -o $(1).so.$(CPC_VERSION) $(2) -pthread
	ln -sf $(notdir $(1)).so.$(CPC_VERSION) $(1).so.$(CPC_SOVERSION)
	ln -sf $(notdir $(1)).so.$(CPC_SOVERSION) $(1).so
endef

$(RUNTIME_SO): $(call runtime_objs,pic) $$(RUNTIME_EXTRA_OBJS) $(RUNTIME_SO_MAP)
	$(call runtime_so,$(RUNTIME_BUILD)/libcpc,$(filter %.o,$^))

$(RUNTIME_SO_DEBUG): $(call runtime_objs,debug_pic) $$(RUNTIME_EXTRA_OBJS_DEBUG) $(RUNTIME_SO_MAP)
	$(call runtime_so,$(RUNTIME_BUILD)/libcpc_debug,$(filter %.o,$^))

runtime: $(RUNTIME_LIB) $(RUNTIME_LIB_DEBUG) $(RUNTIME_LIB_TSAN) $(RUNTIME_SO) $(RUNTIME_SO_DEBUG)

runtime-nocache: $(RUNTIME_LIB_NOCACHE)

# ---- the hand-translated demo ------------------------------------------------
DEMO_HAND := $(RUNTIME_BUILD)/examples/countdown

$(DEMO_HAND): $(TOP)/examples/hand/countdown.c $(RUNTIME_LIB) $(RUNTIME_HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(RUNTIME_CFLAGS) -O2 $(RUNTIME_CPPFLAGS) $< -o $@ $(RUNTIME_LIB)

demo-hand: $(DEMO_HAND)
	$(DEMO_HAND)

.PHONY: runtime runtime-nocache demo-hand
