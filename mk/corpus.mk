# mk/corpus.mk - snapshot tests of the realistic corpus (examples/corpus/*.json): the
.DEFAULT_GOAL := all
# whole shipped rule set's text report on each, compared with tests/corpus/NAME.expected
# (reviewed by hand). Runs under `make check`, plain and under ASan+UBSan.
.PHONY: test-corpus
test-corpus: $(BUILD)/mcpdesc
	sh tests/run-corpus.sh $(BUILD)/mcpdesc

EXTRA_CHECKS += test-corpus
