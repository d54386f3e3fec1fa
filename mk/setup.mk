# Installs what each goal needs, once.  Debian packages come from apt (the
# machine is Debian 12); Python packages go into .venv.  Each goal asks only
# for its own:
#   make setup        the translator, runtime and library: `make demo`,
#                     `make all`, cpcc from the checkout
#   make setup-embed  + libev and libuv headers: the adapters (`make install`,
#                     embed/)
#   make setup-test   + what the test suites use (`make test`, test-*)
#   make setup-bench  + the benchmarks' peers and tools (`make bench`)
#   make setup-fuzz   + creduce (large: it brings its own LLVM), which only
#                     the reducer of `make fuzz` uses

DEB_PACKAGES       := libclang-common-19-dev
DEB_PACKAGES_EMBED := libev-dev libuv1-dev
# the benchmarks' peers (thread libraries, a C++ compiler, wrk): the tests
# build and run them too
DEB_PACKAGES_PEERS := wrk g++ libst-dev libpth-dev libglib2.0-dev
DEB_PACKAGES_TEST  := $(DEB_PACKAGES_PEERS) csmith libcsmith-dev curl valgrind gdb \
                      cmake ninja-build pkgconf
DEB_PACKAGES_BENCH := $(DEB_PACKAGES_PEERS) hyperfine libboost-context-dev nginx-light strace \
                      python3-matplotlib
DEB_PACKAGES_FUZZ  := creduce
PY_PACKAGES        := libclang==18.1.1
PY_PACKAGES_TEST   := pytest==8.3.3

SETUP_STAMP       := $(BUILD)/.setup-done
SETUP_EMBED_STAMP := $(BUILD)/.setup-embed-done
SETUP_TEST_STAMP  := $(BUILD)/.setup-test-done
SETUP_BENCH_STAMP := $(BUILD)/.setup-bench-done
SETUP_FUZZ_STAMP  := $(BUILD)/.setup-fuzz-done

# $(call deb_install,packages): install those of the packages not present.
define deb_install
	@missing=""; for p in $(1); do \
	    dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	    echo "setup: installing Debian packages:$$missing"; \
	    if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
	    $$SUDO apt-get update -qq && \
	    DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing; \
	fi
endef

# $(call setup_goal,debian packages,python packages): the recipe of a goal
# that adds packages to those of the goal it depends on.
define setup_goal
	$(call deb_install,$(1))
	$(if $(strip $(2)),@$(PYTHON) -m pip install -q --disable-pip-version-check $(2))
	@touch $@
endef

setup: $(SETUP_STAMP)
setup-embed: $(SETUP_EMBED_STAMP)
setup-test: $(SETUP_TEST_STAMP)
setup-bench: $(SETUP_BENCH_STAMP)
setup-fuzz: $(SETUP_FUZZ_STAMP)

$(SETUP_STAMP): mk/setup.mk
	@mkdir -p $(BUILD)
	$(call deb_install,$(DEB_PACKAGES))
	@test -x $(PYTHON) || python3 -m venv $(VENV)
	@$(PYTHON) -m pip install -q --disable-pip-version-check $(PY_PACKAGES)
	@touch $@

$(SETUP_EMBED_STAMP): $(SETUP_STAMP)
	$(call setup_goal,$(DEB_PACKAGES_EMBED))

$(SETUP_TEST_STAMP): $(SETUP_EMBED_STAMP)
	$(call setup_goal,$(DEB_PACKAGES_TEST),$(PY_PACKAGES_TEST))

$(SETUP_BENCH_STAMP): $(SETUP_EMBED_STAMP)
	$(call setup_goal,$(DEB_PACKAGES_BENCH))

$(SETUP_FUZZ_STAMP): $(SETUP_TEST_STAMP)
	$(call setup_goal,$(DEB_PACKAGES_FUZZ))

.PHONY: setup setup-embed setup-test setup-bench setup-fuzz

# `make print-VAR`: the value of a variable (tests/install/run.sh reads the
# package lists this way).
print-%:
	@echo '$($*)'
