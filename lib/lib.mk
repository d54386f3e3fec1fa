lib:
.PHONY: lib
