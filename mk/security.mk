# mk/security.mk - the security rule set (rules-yaml/security, mcpdesc-security; extends
# the released MCP set; docs/security.md). test-security: its manifest and rule files
# against the project's JSON Schemas, `rules lint` (rule files and phrase lists), `rules
# test` (every rule's failing and passing examples, and the exact x-expect of every
# fixture in conformance/security/, the poisoned and the benign corpus), its rule pages
# rendered, the locked tag run by name, and the precision corpus: every error or warning
# on real servers (examples/corpus, tests/precision/captures) reviewed
# (tests/check-precision.sh); and no file of the project holds a raw hidden character
# (tests/check-hidden-chars.sh). Runs under `make check`, plain and under ASan+UBSan.
SECURITY_RULES := rules-yaml/security
SECURITY_TAG := v0.2.0
.PHONY: test-security
test-security: $(RULES_BIN)
	$(RULES_BIN) schema validate --schema schema/manifest.schema.json $(SECURITY_RULES)/manifest.yaml
	$(RULES_BIN) schema validate --schema schema/rule-file.schema.json \
	    $(filter-out %/manifest.yaml %/phrases.yaml %/unicode.yaml,$(wildcard $(SECURITY_RULES)/*.yaml))
	$(RULES_BIN) rules lint $(SECURITY_RULES)
	$(RULES_BIN) rules test $(SECURITY_RULES)
	rm -rf $(BUILD)/security-rule-docs
	$(RULES_BIN) rules docs --rules $(SECURITY_RULES) --own --out $(BUILD)/security-rule-docs
	$(RULES_BIN) validate -q --rules-tag mcpdesc-security@$(SECURITY_TAG) \
	    conformance/security/expected-valid/*.json
	sh tests/check-precision.sh $(RULES_BIN)
	sh tests/check-hidden-chars.sh

EXTRA_CHECKS += test-security
