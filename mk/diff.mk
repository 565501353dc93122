# mk/diff.mk - the change rules (rules-yaml/diff, mcpdesc-diff; extends the released MCP set;
# docs/diff.md) that `mcpdesc diff OLD NEW` runs. test-diff: its manifest and rule files
# against the project's JSON Schemas, `rules lint`, `rules test` (every rule's examples: an
# old and a new fixture of conformance/diff/ each), its rule pages rendered, and the real
# pairs: two published versions of npm servers (tests/diff-real), whose changes must be
# the hand-reviewed expected lists but for the differences listed with their reasons
# (tests/diff-real.sh). Runs under `make check`, plain and under ASan+UBSan.
DIFF_RULES := rules-yaml/diff
.PHONY: test-diff
test-diff: $(RULES_BIN)
	$(RULES_BIN) schema validate --schema schema/manifest.schema.json $(DIFF_RULES)/manifest.yaml
	$(RULES_BIN) schema validate --schema schema/rule-file.schema.json \
	    $(filter-out %/manifest.yaml,$(wildcard $(DIFF_RULES)/*.yaml))
	$(RULES_BIN) rules lint $(DIFF_RULES)
	$(RULES_BIN) rules test $(DIFF_RULES)
	rm -rf $(BUILD)/diff-rule-docs
	$(RULES_BIN) rules docs --rules $(DIFF_RULES) --own --out $(BUILD)/diff-rule-docs
	sh tests/diff-real.sh $(RULES_BIN)

EXTRA_CHECKS += test-diff
