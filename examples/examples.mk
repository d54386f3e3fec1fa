demo:
.PHONY: demo
