# translator/: the CPC translator (Python package `cpc`, run by bin/cpcc).
# `make translator` builds its C helper (translator/native/cursor_facts.c: Clang's cursors
# listed in C, cpc/native.py; without it the translator lists them through the bindings,
# slower, with the same result), checks that it imports and writes its bytecode
# (`__pycache__`, even when PYTHONDONTWRITEBYTECODE is set): cpcc then starts without
# compiling its modules, a third of a small file's translation.
# What a CPC object depends on besides its sources: cpcc and every module of the
# translator, its subpackages (emit/, analysis/) included.
TRANSLATOR_SOURCES := $(wildcard $(TOP)/bin/cpcc) $(wildcard $(TOP)/translator/cpc/*.py) \
                      $(wildcard $(TOP)/translator/cpc/*/*.py)

CURSOR_FACTS_SO := $(BUILD)/translator/cursor_facts.so

$(CURSOR_FACTS_SO): $(TOP)/translator/native/cursor_facts.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_COMMON) -O2 -fPIC -shared -o $@.tmp $< -ldl
	@mv $@.tmp $@

translator-native: $(CURSOR_FACTS_SO)

translator: setup $(CURSOR_FACTS_SO)
	@PYTHONPATH=$(TOP)/translator $(PYTHON) -c 'import cpc.translate'
	@$(PYTHON) -m compileall -q $(TOP)/translator/cpc >/dev/null

.PHONY: translator translator-native
