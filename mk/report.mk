# mk/report.mk - tests of the report formats beyond the golden CLI cases, run by
# `make check` plain and under ASan+UBSan (BUILD=build/san SAN=1):
#   test-sarif  SARIF of the shipped examples against the official SARIF 2.1.0 schema
#               ($(MCPDESC_SHARED)/data/sarif/; skipped with a message when absent),
#               validated by `mcpdesc schema validate` and by python3-jsonschema
#   test-color  colour, excerpts and NO_COLOR on a pseudo-terminal (script(1))
#   test-output `-o FILE`: equals standard output for every -j, and a failed write or
#               rename exits 2 leaving the earlier file and no temporary file
#   test-timing `--timing`: the report unchanged, the per-rule table's shape on stderr
#   test-config-discovery  where .mcpdesc.yaml is found (upward, stopping at .git),
#               --no-config, MCPDESC_NO_CONFIG, --config (tests/config-discovery.sh)
#   test-baseline-anchor  a baseline written at a repository's root holds from any
#               directory and with any spelling of the paths
#   test-formats  several reports in one run (--format FORMAT:FILE, the config's list),
#               GitLab Code Quality against the members GitLab documents and JUnit
#               against the structure Jenkins and GitLab read (tests/validate-formats.sh)
#   test-modified  a set that differs from every lock of its tag is named TAG+modified
#               in every format, listing, dump and page, and refused when pinned
MCPDESC_SHARED ?= ../shared

.PHONY: test-sarif test-formats test-color test-output test-timing test-modified test-baseline-anchor test-config-discovery
test-sarif: $(BUILD)/mcpdesc
	MCPDESC_SHARED='$(MCPDESC_SHARED)' sh tests/validate-sarif.sh $(BUILD)/mcpdesc

test-formats: $(BUILD)/mcpdesc
	sh tests/validate-formats.sh $(BUILD)/mcpdesc

test-color: $(BUILD)/mcpdesc
	sh tests/validate-color.sh $(BUILD)/mcpdesc

test-output: $(BUILD)/mcpdesc
	sh tests/validate-output.sh $(BUILD)/mcpdesc

test-timing: $(BUILD)/mcpdesc
	sh tests/validate-timing.sh $(BUILD)/mcpdesc

test-baseline-anchor: $(BUILD)/mcpdesc
	sh tests/baseline-anchor.sh $(BUILD)/mcpdesc

test-modified: $(BUILD)/mcpdesc
	sh tests/rules-modified.sh $(BUILD)/mcpdesc

test-config-discovery: $(BUILD)/mcpdesc
	sh tests/config-discovery.sh $(BUILD)/mcpdesc

EXTRA_CHECKS += test-sarif test-formats test-color test-output test-timing test-modified test-baseline-anchor test-config-discovery
