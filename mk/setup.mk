# Installs what the build and the tests need, once.  Debian packages come
# from apt (the machine is Debian 12); Python packages go into .venv.

DEB_PACKAGES := libclang-common-19-dev csmith wrk curl valgrind \
                libst-dev libboost-context-dev g++ hyperfine libcsmith-dev creduce
PY_PACKAGES  := libclang==18.1.1 pytest==8.3.3

SETUP_STAMP := $(BUILD)/.setup-done

setup: $(SETUP_STAMP)

$(SETUP_STAMP): mk/setup.mk
	@mkdir -p $(BUILD)
	@missing=""; for p in $(DEB_PACKAGES); do \
	    dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	    echo "setup: installing Debian packages:$$missing"; \
	    if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
	    $$SUDO apt-get update -qq && \
	    DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing; \
	fi
	@test -x $(PYTHON) || python3 -m venv $(VENV)
	@$(PYTHON) -m pip install -q --disable-pip-version-check $(PY_PACKAGES)
	@touch $@

.PHONY: setup
