# mk/rules.mk - the tools of rule authors and release engineers (`mcpdesc rules ...`,
# src/author/: lint.c, rulepage*.c, fixtures.c). test-rules: lint the shipped rule set,
# run every rule's examples and judge the fixtures' x-expect (`rules test`, with the
# checks of the working set: valid examples exercised, fixes proven), render every page, and pin a temporary copy
# with `rules lock` and `--rules-tag`. check-locks: a committed tag lock never changes, and the manifest's
# tag has a lock. test-rules-diff: `rules diff` on the shipped releases v0.9.0-rc.8
# and rc.9. check-releases: every shipped release (rules-yaml/releases/NAME@TAG) is
# intact, matches its lock and gives its recorded findings on its own fixtures, and the
# engine's version follows the changes logs (tests/check-releases.sh; about a second),
# and those version checks fail on doctored logs (tests/check-releases-selftest.sh). All run under `make check` (plain, then
# BUILD=build/san SAN=1).

# Included before the Makefile's `all:` rule: keep `all` the default goal, and name the
# binary by path (BIN is defined after the include).
.DEFAULT_GOAL := all
RULES_BIN := $(BUILD)/mcpdesc

.PHONY: test-rules check-locks test-rules-diff check-releases test-org-rules
test-rules: $(RULES_BIN)
	$(RULES_BIN) rules lint rules-yaml
	$(RULES_BIN) rules test rules-yaml
	rm -rf $(BUILD)/rule-docs
	$(RULES_BIN) rules docs --rules rules-yaml --out $(BUILD)/rule-docs
	sh tests/check-locks.sh pin $(RULES_BIN)

check-locks:
	sh tests/check-locks.sh committed

test-rules-diff: $(RULES_BIN)
	sh tests/rules-diff-history.sh $(RULES_BIN)

check-releases: $(RULES_BIN)
	sh tests/check-releases.sh $(RULES_BIN)
	sh tests/check-releases-selftest.sh


# test-org-rules: the worked organisation rule set (examples/acme/, extends
# mcpdesc-mcp@v0.9.0-rc.9): its files against the JSON Schemas, lint its own files, run its own rules' examples, render every
# page (base rules' examples from the base's fixtures), verify its lock, and judge its
# fixtures (base and own rules) against their x-expect (part of `rules test`); pack it, check its SHA256SUMS
# with sha256sum -c, and run it by tag from the search path.
ORG_RULES := examples/acme/rules
test-org-rules: $(RULES_BIN)
	$(RULES_BIN) schema validate --schema schema/manifest.schema.json $(ORG_RULES)/manifest.yaml
	$(RULES_BIN) schema validate --schema schema/rule-file.schema.json $(ORG_RULES)/acme.yaml \
	    $(ORG_RULES)/acme-predicates.yaml
	$(RULES_BIN) rules lint $(ORG_RULES)
	$(RULES_BIN) rules test --rules $(ORG_RULES)
	rm -rf $(BUILD)/org-rule-docs
	$(RULES_BIN) rules docs --rules $(ORG_RULES) --out $(BUILD)/org-rule-docs
	$(RULES_BIN) validate -q --rules $(ORG_RULES) --rules-tag v1.1.0 \
	    examples/acme/conformance/expected-valid/acme-tools.json
	rm -rf $(BUILD)/org-releases
	$(RULES_BIN) rules pack --rules $(ORG_RULES) --out $(BUILD)/org-releases
	cd $(BUILD)/org-releases/acme-policy@v1.1.0/rules && sha256sum -c --quiet SHA256SUMS
	MCPDESC_RULES_PATH=$(BUILD)/org-releases $(RULES_BIN) validate -q \
	    --rules-tag acme-policy@v1.1.0 examples/acme/conformance/expected-valid/acme-tools.json

# test-rules-nearest: `rules lint/test/explain/docs/list` with no DIR judge the nearest
# rule-set manifest up to the folder holding .git (decoys and stops included), and name
# the set they judge on standard error (tests/rules-nearest-set.sh).
.PHONY: test-rules-nearest
test-rules-nearest: $(RULES_BIN)
	sh tests/rules-nearest-set.sh $(RULES_BIN)

EXTRA_CHECKS += test-rules check-locks test-rules-diff check-releases test-org-rules \
    test-rules-nearest

# test-rules-init: `rules init` writes an organisation set that lints and tests clean
# (its fixtures' x-expect hold too) over the default base and every shipped release of
# mcpdesc-mcp, whose printed next commands run as printed (tests/rules-init.sh; a few
# seconds). Its refusals are CLI goldens (tests/cli/rules-init-*).
.PHONY: test-rules-init
test-rules-init: $(RULES_BIN)
	sh tests/rules-init.sh $(RULES_BIN)

EXTRA_CHECKS += test-rules-init
