# mk/schema.mk - the JSON Schema engine (src/schema*.c): meta-schemas embedded at build
# time from Debian's python3-jsonschema, and the JSON-Schema-Test-Suite runner
# (tests/jsts/), run by `make check` plain and under ASan+UBSan (BUILD=build/san SAN=1).

METASCHEMA_DIR ?= /usr/lib/python3/dist-packages/jsonschema/schemas
GEN_SRCS += $(BUILD)/gen/metaschemas.c

$(BUILD)/gen/metaschemas.c: tools/embed-metaschemas.sh | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	sh tools/embed-metaschemas.sh $(METASCHEMA_DIR) $@

$(BUILD)/gen/metaschemas.o: $(BUILD)/gen/metaschemas.c
	$(CC) $(ALL_CFLAGS) -c $< -o $@

# The suite: the first of $(MCPDESC_SHARED)/data/JSON-Schema-Test-Suite (MCPDESC_SHARED
# naming the shared folder or its data/ folder), ../shared/data/..., Debian's
# json-schema-test-suite; the runner says which, and skips (exit 0) when none exists.
MCPDESC_SHARED ?= ../shared
JSTS_BIN := $(BUILD)/tests/jsts/jsts

$(JSTS_BIN): $(BUILD)/tests/jsts/jsts.o $(BUILD)/libmcpdesc.a
	$(CC) $(LDFLAGS) -o $@ $^ $(PKG_LIBS) -lm

.PHONY: test-jsts
test-jsts: $(JSTS_BIN)
	$(JSTS_BIN) $(MCPDESC_SHARED)/data/JSON-Schema-Test-Suite \
	    $(MCPDESC_SHARED)/JSON-Schema-Test-Suite ../shared/data/JSON-Schema-Test-Suite \
	    /usr/share/json-schema-test-suite

EXTRA_CHECKS += test-jsts
