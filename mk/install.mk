# mk/install.mk -- `make install` and `make uninstall` (GNU conventions).
#
#   make install [PREFIX=/usr/local] [DESTDIR=/staging]
#   make uninstall [PREFIX=...] [DESTDIR=...]
#
# The directory variables are GNU's (prefix, bindir, libdir, includedir,
# datarootdir, mandir), each overridable; PREFIX is the same as prefix.
# Installed:
#   bindir/cpcc, bindir/cpc-check       launchers (below)
#   includedir/cpc/*.h                  the public headers
#   libdir/libcpc.a, libcpc.so*         runtime and library (release)
#   libdir/libcpc_debug.a, .so*         the same for --cpc-debug code
#   libdir/libcpc_ev.a, libcpc_uv.a     the libev and libuv adapters
#   libdir/pkgconfig/cpc.pc, cpc_debug.pc, cpc_ev.pc, cpc_uv.pc
#   libdir/cmake/CPC/                   find_package(CPC), and CMake's CPC
#                                       language (mk/install/cmake/)
#   libdir/cpc/venv/                    a private Python environment holding
#                                       the translator (package cpc), the
#                                       checker and the pinned libclang
#                                       bindings with their libclang.so, on
#                                       INSTALL_PYTHON (below)
#   mandir/man1/cpcc.1, man7/cpc.7      (naming the installed docs)
#   datarootdir/doc/cpc/                README.md, docs/*.md (docs/README.md, the docs'
#                                       index, as index.md: it would take README.md's name)
#   datarootdir/cpc/gdb/                the gdb extension, when the tree has
#                                       one (tools/gdb/: cpc-gdb.py, the script
#                                       gdb loads, and its package cpcgdb/); in
#                                       datarootdir/gdb/auto-load/cpc/ instead
#                                       when that is gdb's (GDB_DATADIR, below)
# The paths are recorded at install time (GNU style): install into the
# prefix you will run from, or stage with DESTDIR.  As root without DESTDIR,
# ldconfig then refreshes the loader's cache (LDCONFIG=true skips it).

PREFIX      ?= /usr/local
prefix      ?= $(PREFIX)
exec_prefix ?= $(prefix)
bindir      ?= $(exec_prefix)/bin
libdir      ?= $(exec_prefix)/lib
includedir  ?= $(prefix)/include
datarootdir ?= $(prefix)/share
mandir      ?= $(datarootdir)/man
pkgconfigdir ?= $(libdir)/pkgconfig
cmakedir    ?= $(libdir)/cmake/CPC
pkglibdir   := $(libdir)/cpc
pkgdatadir  := $(datarootdir)/cpc
docdir      ?= $(datarootdir)/doc/cpc
DESTDIR     ?=
INSTALL     ?= install
LDCONFIG    ?= ldconfig

INSTALL_SRC    := $(TOP)/mk/install
INSTALL_HDRS   := $(wildcard $(RUNTIME_DIR)/include/cpc/*.h)
INSTALL_MAN    := $(TOP)/docs/man
INSTALL_GDB    := $(wildcard $(TOP)/tools/gdb/cpc-gdb.py)
INSTALL_GDB_PKG := $(wildcard $(TOP)/tools/gdb/cpcgdb/*.py)
INSTALL_DOCS   := $(TOP)/README.md $(filter-out $(TOP)/docs/README.md,$(wildcard $(TOP)/docs/*.md))
INSTALL_STAGE  := $(BUILD)/install
# The private environment's interpreter: one that every user who can read
# the prefix can run, outside any home directory (the build's .venv may
# come from an interpreter in the builder's home, which other users cannot
# enter).  The system's python3 by default; install-python-check refuses one
# that other users could not run.
INSTALL_PYTHON ?= $(firstword $(wildcard /usr/bin/python3 /usr/local/bin/python3) python3)
# Its site-packages directory name.
INSTALL_PYVER   = $(shell $(INSTALL_PYTHON) -c 'import sys; print("python%d.%d" % sys.version_info[:2])')
INSTALL_SITE    = $(pkglibdir)/venv/lib/$(INSTALL_PYVER)/site-packages

# How programs find libcpc.so at run time: the rpath flag cpcc and the
# pkg-config files add (-Wl,-rpath,libdir), or nothing when libdir is one
# of the loader's directories (INSTALL_RPATH=auto; yes, no force it).
INSTALL_RPATH ?= auto
INSTALL_RPATH_FLAG = $(shell $(INSTALL_PYTHON) $(INSTALL_SRC)/rpath.py '$(libdir)' '$(INSTALL_RPATH)')

# The pkg-config files: cpc.pc, cpc_debug.pc, and the adapters' cpc_ev.pc,
# cpc_uv.pc.
INSTALL_PC_RELEASE := -e 's|@LIBNAME@|cpc|' -e 's|@FLAVOUR_NAME@||' \
                      -e 's|@FLAVOUR_DESC@||' -e 's|@FLAVOUR_CFLAGS@||'
INSTALL_PC_DEBUG   := -e 's|@LIBNAME@|cpc_debug|' -e 's|@FLAVOUR_NAME@| (debug)|' \
                      -e 's|@FLAVOUR_DESC@|, debug flavour (for code compiled with cpcc --cpc-debug)|' \
                      -e 's|@FLAVOUR_CFLAGS@| -DCPC_DEBUG|'

INSTALL_PC_EV := -e 's|@NAME@|ev|g' -e 's|@HOST@|libev|g' -e 's|@REQUIRES@||' \
                 -e 's|@HOSTLIBS@| -lev|'
INSTALL_PC_UV := -e 's|@NAME@|uv|g' -e 's|@HOST@|libuv|g' -e 's|@REQUIRES@| libuv|' \
                 -e 's|@HOSTLIBS@||'

# $(call install_subst,template,output,extra sed expressions)
define install_subst
	sed -e 's|@prefix@|$(prefix)|g' -e 's|@bindir@|$(bindir)|g' \
	    -e 's|@libdir@|$(libdir)|g' -e 's|@includedir@|$(includedir)|g' \
	    -e 's|@pkglibdir@|$(pkglibdir)|g' -e 's|@VERSION@|$(CPC_VERSION)|g' \
	    -e 's|@RPATH@|$(INSTALL_RPATH_FLAG)|g' \
	    $(3) $(1) > $(2)
endef

install: runtime lib $(EMBED_LIB_EV) $(EMBED_LIB_UV) $(CURSOR_FACTS_SO) | $(SETUP_STAMP)
	@set -e; \
	d='$(DESTDIR)'; \
	$(INSTALL) -d "$$d$(bindir)" "$$d$(includedir)/cpc" "$$d$(libdir)" \
	    "$$d$(pkgconfigdir)" "$$d$(cmakedir)" "$$d$(mandir)/man1" "$$d$(mandir)/man7"
	$(INSTALL) -m 644 $(INSTALL_HDRS) "$(DESTDIR)$(includedir)/cpc/"
	$(INSTALL) -m 644 $(RUNTIME_LIB) $(RUNTIME_LIB_DEBUG) $(EMBED_LIB_EV) $(EMBED_LIB_UV) \
	    "$(DESTDIR)$(libdir)/"
	@set -e; for l in libcpc libcpc_debug; do \
	    $(INSTALL) -m 755 $(RUNTIME_BUILD)/$$l.so.$(CPC_VERSION) "$(DESTDIR)$(libdir)/"; \
	    ln -sf $$l.so.$(CPC_VERSION) "$(DESTDIR)$(libdir)/$$l.so.$(CPC_SOVERSION)"; \
	    ln -sf $$l.so.$(CPC_SOVERSION) "$(DESTDIR)$(libdir)/$$l.so"; \
	done
	@# the private Python environment: translator, checker, libclang
	@$(INSTALL_PYTHON) $(INSTALL_SRC)/check_python.py
	rm -rf "$(DESTDIR)$(pkglibdir)/venv"
	$(INSTALL_PYTHON) -m venv --without-pip "$(DESTDIR)$(pkglibdir)/venv"
	sed -i -e 's|^command = .*|command = python3 -m venv $(pkglibdir)/venv|' \
	    "$(DESTDIR)$(pkglibdir)/venv/pyvenv.cfg"
	rm -f "$(DESTDIR)$(pkglibdir)/venv/bin/"[aA]ctivate*   # nobody activates it
	@set -e; cd $(TOP)/translator && for f in $$(find cpc \( -name '*.py' -o -name '*.h' \) ! -path '*__pycache__*'); do \
	    $(INSTALL) -D -m 644 $$f "$(DESTDIR)$(INSTALL_SITE)/$$f"; done
	$(call install_subst,$(INSTALL_SRC)/installed.py.in,"$(DESTDIR)$(INSTALL_SITE)/cpc/installed.py")
	$(INSTALL) -m 755 $(CURSOR_FACTS_SO) "$(DESTDIR)$(INSTALL_SITE)/cpc/"
	$(INSTALL) -m 644 $(TOP)/tools/cpc_check*.py "$(DESTDIR)$(INSTALL_SITE)/"
	@set -e; src=$$($(PYTHON) -c 'import clang, os; print(os.path.dirname(os.path.dirname(clang.__file__)))'); \
	cp -R "$$src/clang" "$$src"/libclang-*.dist-info "$(DESTDIR)$(INSTALL_SITE)/"
	$(DESTDIR)$(pkglibdir)/venv/bin/python -m compileall -q \
	    -d "$(INSTALL_SITE)" "$(DESTDIR)$(INSTALL_SITE)" >/dev/null
	@# launchers
	@mkdir -p $(INSTALL_STAGE)
	$(call install_subst,$(INSTALL_SRC)/launcher.in,$(INSTALL_STAGE)/cpcc,-e 's|@NAME@|cpcc|g' -e 's|@MODULE@|cpc.driver|g')
	$(call install_subst,$(INSTALL_SRC)/launcher.in,$(INSTALL_STAGE)/cpc-check,-e 's|@NAME@|cpc-check|g' -e 's|@MODULE@|cpc_check|g')
	$(INSTALL) -m 755 $(INSTALL_STAGE)/cpcc $(INSTALL_STAGE)/cpc-check "$(DESTDIR)$(bindir)/"
	@# pkg-config and CMake
	$(call install_subst,$(INSTALL_SRC)/cpc.pc.in,"$(DESTDIR)$(pkgconfigdir)/cpc.pc",$(INSTALL_PC_RELEASE))
	$(call install_subst,$(INSTALL_SRC)/cpc.pc.in,"$(DESTDIR)$(pkgconfigdir)/cpc_debug.pc",$(INSTALL_PC_DEBUG))
	$(call install_subst,$(INSTALL_SRC)/cpc_adapter.pc.in,"$(DESTDIR)$(pkgconfigdir)/cpc_ev.pc",$(INSTALL_PC_EV))
	$(call install_subst,$(INSTALL_SRC)/cpc_adapter.pc.in,"$(DESTDIR)$(pkgconfigdir)/cpc_uv.pc",$(INSTALL_PC_UV))
	$(call install_subst,$(INSTALL_SRC)/CPCConfig.cmake.in,"$(DESTDIR)$(cmakedir)/CPCConfig.cmake")
	$(call install_subst,$(INSTALL_SRC)/CPCConfigVersion.cmake.in,"$(DESTDIR)$(cmakedir)/CPCConfigVersion.cmake")
	$(INSTALL) -m 644 $(wildcard $(INSTALL_SRC)/cmake/*) "$(DESTDIR)$(cmakedir)/"
	@# manual pages (naming the installed documentation), documentation,
	@# gdb extension
	sed -e 's|docs/\([a-z-]*\.md\)|$(docdir)/\1|g' $(INSTALL_MAN)/cpcc.1 > $(INSTALL_STAGE)/cpcc.1
	sed -e 's|docs/\([a-z-]*\.md\)|$(docdir)/\1|g' $(INSTALL_MAN)/cpc.7 > $(INSTALL_STAGE)/cpc.7
	$(INSTALL) -m 644 $(INSTALL_STAGE)/cpcc.1 "$(DESTDIR)$(mandir)/man1/"
	$(INSTALL) -m 644 $(INSTALL_STAGE)/cpc.7 "$(DESTDIR)$(mandir)/man7/"
	$(INSTALL) -d "$(DESTDIR)$(docdir)"
	$(INSTALL) -m 644 $(INSTALL_DOCS) "$(DESTDIR)$(docdir)/"
	$(INSTALL) -m 644 $(TOP)/docs/README.md "$(DESTDIR)$(docdir)/index.md"
	$(if $(INSTALL_GDB),$(INSTALL) -d "$(DESTDIR)$(INSTALL_GDB_DIR)/cpcgdb" && \
	    $(INSTALL) -m 644 $(INSTALL_GDB) "$(DESTDIR)$(INSTALL_GDB_DIR)/" && \
	    $(INSTALL) -m 644 $(INSTALL_GDB_PKG) "$(DESTDIR)$(INSTALL_GDB_DIR)/cpcgdb/")
	$(if $(INSTALL_GDB),@$(MAKE) --no-print-directory install-gdb-autoload)
	$(if $(INSTALL_GDB),$(if $(INSTALL_GDB_TRUSTED),@echo "cpc: gdb loads the CPC extension \
	($(INSTALL_GDB_SCRIPT), in its auto-load directory) by itself for programs built with this CPC",\
	@echo "cpc: gdb loads the CPC extension for programs built with this CPC once \
	it trusts its directory: add the line 'add-auto-load-safe-path $(INSTALL_GDB_DIR)' \
	to ~/.config/gdb/gdbinit (cpc(7), Debugging)"))
	@if [ -z '$(DESTDIR)' ] && [ "$$(id -u)" = 0 ] && command -v $(LDCONFIG) >/dev/null; then \
	    $(LDCONFIG); fi

uninstall:
	rm -f "$(DESTDIR)$(bindir)/cpcc" "$(DESTDIR)$(bindir)/cpc-check"
	rm -rf "$(DESTDIR)$(includedir)/cpc"
	rm -f "$(DESTDIR)$(libdir)/libcpc_ev.a" "$(DESTDIR)$(libdir)/libcpc_uv.a"
	@set -e; for l in libcpc libcpc_debug; do \
	    rm -f "$(DESTDIR)$(libdir)/$$l.a" "$(DESTDIR)$(libdir)/$$l.so" \
	          "$(DESTDIR)$(libdir)/$$l.so.$(CPC_SOVERSION)" \
	          "$(DESTDIR)$(libdir)/$$l.so.$(CPC_VERSION)"; \
	done
	rm -f "$(DESTDIR)$(pkgconfigdir)/cpc.pc" "$(DESTDIR)$(pkgconfigdir)/cpc_debug.pc" \
	      "$(DESTDIR)$(pkgconfigdir)/cpc_ev.pc" "$(DESTDIR)$(pkgconfigdir)/cpc_uv.pc"
	rm -rf "$(DESTDIR)$(cmakedir)" "$(DESTDIR)$(pkglibdir)" "$(DESTDIR)$(pkgdatadir)" \
	       "$(DESTDIR)$(INSTALL_GDB_DIR)"
	rm -f "$(DESTDIR)$(mandir)/man1/cpcc.1" "$(DESTDIR)$(mandir)/man7/cpc.7"
	rm -rf "$(DESTDIR)$(docdir)"
	@# the directories install created, when nothing else is left in them
	@for d in "$(cmakedir)" "$(libdir)/cmake" "$(pkgconfigdir)" "$(libdir)" "$(bindir)" \
	          "$(includedir)" "$(mandir)/man1" "$(mandir)/man7" "$(mandir)" \
	          "$(datarootdir)/doc" "$(datarootdir)/gdb/auto-load" "$(datarootdir)/gdb" \
	          "$(datarootdir)" "$(exec_prefix)"; do \
	    [ -d "$(DESTDIR)$$d" ] && [ "$$d" != "$(prefix)" ] && \
	        rmdir --ignore-fail-on-non-empty "$(DESTDIR)$$d" || true; \
	done
	@if [ -z '$(DESTDIR)' ] && [ "$$(id -u)" = 0 ] && command -v $(LDCONFIG) >/dev/null; then \
	    $(LDCONFIG); fi

# gdb loads the extension by itself for every installed program: the
# runtime's .debug_gdb_scripts section names the script by absolute path,
# which in the build tree is the checkout's.  The installed libraries get a
# copy of the section naming the installed script instead: rewritten in the
# shared objects, and in the archives' one member that holds it (the
# section is not loaded at run time, so its size may change).
#
# gdb runs a script it finds so only from a directory it trusts: by
# default (`show auto-load safe-path`: $debugdir:$datadir/auto-load) those
# under its data directory's auto-load/.  When the prefix's datarootdir
# holds gdb's data directory (PREFIX=/usr for the system's gdb, whose
# GDB_DATADIR is /usr/share/gdb), the extension goes in auto-load/cpc/
# there, and gdb loads it for every program, static or shared, with no
# setting; otherwise in pkgdatadir/gdb, and make install prints the
# gdbinit line that trusts that directory.
GDB_DATADIR ?= $(shell gdb -nx -batch -ex 'show data-directory' 2>/dev/null | \
                 sed -n 's/^GDB.s data directory is "\(.*\)"\.$$/\1/p')
INSTALL_GDB_TRUSTED = $(if $(GDB_DATADIR),$(filter $(abspath $(GDB_DATADIR)),$(abspath $(datarootdir)/gdb)))
INSTALL_GDB_DIR     = $(if $(INSTALL_GDB_TRUSTED),$(datarootdir)/gdb/auto-load/cpc,$(pkgdatadir)/gdb)
INSTALL_GDB_SCRIPT  = $(INSTALL_GDB_DIR)/cpc-gdb.py
INSTALL_GDB_SECTION = $(INSTALL_STAGE)/debug_gdb_scripts.bin

install-gdb-autoload: | $(SETUP_STAMP)
	@set -e; mkdir -p $(INSTALL_STAGE)/ar; \
	printf '\001%s\000' '$(INSTALL_GDB_SCRIPT)' > $(INSTALL_GDB_SECTION); \
	for l in libcpc libcpc_debug; do \
	    so="$(DESTDIR)$(libdir)/$$l.so.$(CPC_VERSION)"; \
	    objcopy --update-section .debug_gdb_scripts=$(INSTALL_GDB_SECTION) "$$so"; \
	    a="$(DESTDIR)$(libdir)/$$l.a"; \
	    member=$$(ar t "$$a" | grep -x 'cpc_debug.o'); \
	    (cd $(INSTALL_STAGE)/ar && rm -f "$$member" && ar x "$$a" "$$member" && \
	     objcopy --update-section .debug_gdb_scripts=$(INSTALL_GDB_SECTION) "$$member" && \
	     ar r "$$a" "$$member" && rm -f "$$member"); \
	done

.PHONY: install uninstall install-gdb-autoload
