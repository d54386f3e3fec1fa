# CPC -- top-level build.  `make demo` and `make test` work on a fresh
# machine: they install what is missing (Debian packages, a Python venv),
# build the runtime, then run.  Each part of the tree has its own fragment.

.DEFAULT_GOAL := all
SHELL := /bin/bash

TOP      := $(abspath .)
BUILD    := $(TOP)/build
VENV     := $(TOP)/.venv
PYTHON   := $(VENV)/bin/python
CC       ?= cc
CFLAGS_COMMON := -std=gnu11 -Wall -Wextra -g

include mk/setup.mk
include runtime/runtime.mk
include translator/translator.mk
include lib/lib.mk
include examples/examples.mk
include tests/tests.mk
include bench/bench.mk
include mk/install.mk

all: setup runtime lib translator-native

clean:
	rm -rf $(BUILD)

.PHONY: all clean
