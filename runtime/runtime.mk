# runtime: built by runtime/runtime.mk
runtime:
.PHONY: runtime
