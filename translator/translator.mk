# translator/: the CPC translator (Python package `cpc`, run by bin/cpcc).
# Nothing to build; `make translator` checks that it imports and writes its bytecode
# (`__pycache__`, even when PYTHONDONTWRITEBYTECODE is set): cpcc then starts without
# compiling its modules, a third of a small file's translation.
translator: setup
	@PYTHONPATH=$(TOP)/translator $(PYTHON) -c 'import cpc.translate'
	@$(PYTHON) -m compileall -q $(TOP)/translator/cpc >/dev/null

.PHONY: translator
