# mk/docs.mk - the docs run (issue 18 item 7): every shell block of README.md and
# docs/*.md is run from a scratch copy of the checkout and its shown output compared, or
# is marked <!-- not-run: REASON -->; every relative link and repository path resolves
# (tests/docs-run.sh, docs/testing.md).
.PHONY: test-docs
test-docs: $(BIN)
	sh tests/docs-run.sh $(BIN)
EXTRA_CHECKS += test-docs

# Every section of "MCP Description 0.9.0" a rule cites (the development set and every
# release) is a heading of docs/format.md with its anchor (tests/format-sections.sh).
.PHONY: test-format-sections
test-format-sections:
	sh tests/format-sections.sh
EXTRA_CHECKS += test-format-sections
