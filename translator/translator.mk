# translator/: the CPC translator (Python package `cpc`, run by bin/cpcc).
# Nothing to build; `make translator` checks that it imports.
translator: setup
	@PYTHONPATH=$(TOP)/translator $(PYTHON) -c 'import cpc.translate'

.PHONY: translator
