# Installs what the build and the tests need, once.  Debian packages come
# from apt (the machine is Debian 12); Python packages go into .venv.
#   make setup       what `make test`, `make demo` and `make bench` need
#   make setup-fuzz  also creduce (large: it brings its own LLVM), which only
#                    the reducer of `make fuzz` uses

DEB_PACKAGES      := libclang-common-19-dev csmith libcsmith-dev wrk curl valgrind \
                     libst-dev libboost-context-dev g++ hyperfine gdb libev-dev libuv1-dev \
                     libglib2.0-dev cmake pkgconf \
                     nginx-light libpth-dev python3-matplotlib
DEB_PACKAGES_FUZZ := creduce
PY_PACKAGES       := libclang==18.1.1 pytest==8.3.3

SETUP_STAMP      := $(BUILD)/.setup-done
SETUP_FUZZ_STAMP := $(BUILD)/.setup-fuzz-done

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

setup: $(SETUP_STAMP)
setup-fuzz: $(SETUP_FUZZ_STAMP)

$(SETUP_STAMP): mk/setup.mk
	@mkdir -p $(BUILD)
	$(call deb_install,$(DEB_PACKAGES))
	@test -x $(PYTHON) || python3 -m venv $(VENV)
	@$(PYTHON) -m pip install -q --disable-pip-version-check $(PY_PACKAGES)
	@touch $@

$(SETUP_FUZZ_STAMP): $(SETUP_STAMP)
	$(call deb_install,$(DEB_PACKAGES_FUZZ))
	@touch $@

.PHONY: setup setup-fuzz
