# mk/mutate-descriptions.mk - mutation testing of the rule set (issue 14, item 10):
# tools/mutate-descriptions plants one violation at a time (a wrong JSON type for every MCP
# member, a map for an array, a required member removed, a member outside its versions,
# an item's protocolVersions removed) in the corpus and the valid and warning fixtures,
# runs `mcpdesc validate` on the mutants, and judges each verdict per protocol version
# with the official schema.json of that version as the oracle (read in place from the
# first of MUTATE_DESCRIPTIONS_DATA that has it; none: SKIP, a failure under
# MCPDESC_REQUIRE=all). Prints every missed and wrongly caught mutant, a table per class
# and `N passed, N failed`.
#   make test-mutate-descriptions                                   # the default sample
#   make test-mutate-descriptions MUTATE_DESCRIPTIONS_ARGS=--full   # every mutant
# Part of `make check` (the default sample, about 10 s plain and 30 s under ASan+UBSan).
MCPDESC_SHARED ?= ../shared
MUTATE_DESCRIPTIONS_DATA ?= $(MCPDESC_SHARED)/data/mcp $(MCPDESC_SHARED)/mcp ../shared/data/mcp
MUTATE_DESCRIPTIONS_ARGS ?=

.PHONY: test-mutate-descriptions
test-mutate-descriptions: $(BIN)
	@if command -v python3 >/dev/null 2>&1; then \
	    python3 tools/mutate-descriptions --binary $(BIN) \
	        $(addprefix --data ,$(MUTATE_DESCRIPTIONS_DATA)) $(MUTATE_DESCRIPTIONS_ARGS); \
	else \
	    . tests/skip.sh; test_skip test-mutate-descriptions "the mutation test of the rule set" \
	        "python3 not found; make deps installs it"; \
	fi

EXTRA_CHECKS += test-mutate-descriptions
