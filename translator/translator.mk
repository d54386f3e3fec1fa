translator:
.PHONY: translator
