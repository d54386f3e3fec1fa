# translator/: the CPC translator (Python package `cpc`, run by bin/cpcc).
# Nothing to build; `make translator` checks that it imports and writes its bytecode
# (`__pycache__`, even when PYTHONDONTWRITEBYTECODE is set): cpcc then starts without
# compiling its modules, a third of a small file's translation.
# What a CPC object depends on besides its sources: cpcc and every module of the
# translator, its subpackages (emit/, analysis/) included.
TRANSLATOR_SOURCES := $(wildcard $(TOP)/bin/cpcc) $(wildcard $(TOP)/translator/cpc/*.py) \
                      $(wildcard $(TOP)/translator/cpc/*/*.py)

translator: setup
	@PYTHONPATH=$(TOP)/translator $(PYTHON) -c 'import cpc.translate'
	@$(PYTHON) -m compileall -q $(TOP)/translator/cpc >/dev/null

.PHONY: translator
