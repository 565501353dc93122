# mk/schema.mk - the JSON Schema engine (src/schema*.c): meta-schemas embedded at build
# time from python3-jsonschema (Debian 12) or python3-jsonschema-specifications (later
# releases), and the JSON-Schema-Test-Suite runner (tests/jsts/), run by `make check`
# plain and under ASan+UBSan (BUILD=build/san SAN=1).

# The meta-schemas' folder: tools/find-metaschemas.sh searches the known layouts (an
# error names the packages to install); METASCHEMA_DIR=DIR names one instead.
METASCHEMA_DIR ?=
GEN_SRCS += $(BUILD)/gen/metaschemas.c

$(BUILD)/gen/metaschemas.c: tools/embed-metaschemas.sh tools/find-metaschemas.sh | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	@d='$(METASCHEMA_DIR)'; if [ -z "$$d" ]; then \
	    found=$$(sh tools/find-metaschemas.sh) || exit 1; d=$${found#* }; \
	    echo "meta-schemas: $$found"; fi; \
	    echo "sh tools/embed-metaschemas.sh $$d $@"; sh tools/embed-metaschemas.sh "$$d" $@

$(BUILD)/gen/metaschemas.o: $(BUILD)/gen/metaschemas.c
	$(CC) $(ALL_CFLAGS) -c $< -o $@

# The suite: EVERY copy named below that exists is used, not the first one (a directory
# named twice runs once): $(MCPDESC_SHARED)/data/JSON-Schema-Test-Suite or
# $(MCPDESC_SHARED)/JSON-Schema-Test-Suite (MCPDESC_SHARED naming the shared folder or its
# data/ folder), ../shared/data/JSON-Schema-Test-Suite, and Debian's json-schema-test-suite
# (/usr/share/json-schema-test-suite: draft3-draft7 only). Each draft from draft4 to
# draft2020-12 runs from every copy that holds it, with that copy's remotes/; each draft's
# line names its copy. A draft in no copy (all five when no copy exists) is a skip through
# tests/testskip.h, and a failure under MCPDESC_REQUIRE=all.
MCPDESC_SHARED ?= ../shared
JSTS_BIN := $(BUILD)/tests/jsts/jsts

# jsts.c includes tests/testskip.h
$(BUILD)/tests/jsts/jsts.o: ALL_CFLAGS += -Itests

$(JSTS_BIN): $(BUILD)/tests/jsts/jsts.o $(BUILD)/libmcpdesc.a $(SAN_OBJS)
	$(CC) $(LDFLAGS) -o $@ $^ $(PKG_LIBS) -lm

.PHONY: test-jsts
test-jsts: $(JSTS_BIN)
	$(JSTS_BIN) $(MCPDESC_SHARED)/data/JSON-Schema-Test-Suite \
	    $(MCPDESC_SHARED)/JSON-Schema-Test-Suite ../shared/data/JSON-Schema-Test-Suite \
	    /usr/share/json-schema-test-suite

EXTRA_CHECKS += test-jsts

# The ECMA-262 pattern corpus against node's RegExp (a skip without node); make test-unit
# runs mcpdesc against the same corpus (tests/unit/check_regex.c).
.PHONY: test-ecma-regex-node
test-ecma-regex-node:
	sh tests/ecma-regex-node.sh tests/data/ecma-regex/corpus.txt
EXTRA_CHECKS += test-ecma-regex-node

# The search over both layouts, on fake folders (and none: the error).
.PHONY: test-find-metaschemas
test-find-metaschemas:
	sh tests/find-metaschemas.sh
EXTRA_CHECKS += test-find-metaschemas
