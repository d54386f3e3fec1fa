# tests/foreign/foreign.mk -- cpcc on C programs written elsewhere (docs/testing.md,
# "Programs written elsewhere").
#
#   make test-foreign                     the unit tests of the transformation (cpsify.py)
#                                         and of the reading of CMakeLists.txt (multisource.py)
#   make foreign FOREIGN='DIR/*.c'        a campaign on programs you fetched: each built
#                                         natively and as CPC at four levels, outputs compared
#   make foreign-multisource FOREIGN='DIR/*/'   the same on programs of several files, one
#                                         directory each (llvm-test-suite's MultiSource layout)
#
# FOREIGN_JOBS (default 2) programs run in parallel; work files go to build/foreign/.

FOREIGN_DIR  := $(TOP)/tests/foreign
FOREIGN_JOBS ?= 2

test-foreign: setup-test runtime translator
	@$(PYTHON) -m pytest -q -p no:cacheprovider $(FOREIGN_DIR)/test_cpsify.py $(FOREIGN_DIR)/test_multisource.py

foreign: setup-test runtime translator
	@test -n "$(FOREIGN)" || { echo "make foreign: name the programs: FOREIGN='DIR/*.c'" >&2; exit 2; }
	@$(PYTHON) $(FOREIGN_DIR)/run.py -j $(FOREIGN_JOBS) --workdir $(BUILD)/foreign $(FOREIGN)

foreign-multisource: setup-test runtime translator
	@test -n "$(FOREIGN)" || { echo "make foreign-multisource: name the program directories: FOREIGN='DIR/*/'" >&2; exit 2; }
	@$(PYTHON) $(FOREIGN_DIR)/multisource.py -j $(FOREIGN_JOBS) --workdir $(BUILD)/foreign-multisource $(FOREIGN)

TEST_SUITES += test-foreign
.PHONY: test-foreign foreign foreign-multisource
