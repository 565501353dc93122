# mk/overlap.mk - the yields-to post-pass (src/judge/overlap.c) never hides a finding about
# another value, and --rule/--skip never change what the other rules report:
# tests/overlap-invariant.sh runs every conformance fixture and the corpus with and
# without the post-pass (MCPDESC_NO_OVERLAP=1) and with --rule/--skip of every reported
# rule (rules-yaml/README.md, "yields-to"). Runs under `make check` (plain, then
# BUILD=build/san SAN=1).
.DEFAULT_GOAL := all

.PHONY: test-overlap
test-overlap: $(BUILD)/mcpdesc
	sh tests/overlap-invariant.sh $(BUILD)/mcpdesc

EXTRA_CHECKS += test-overlap
