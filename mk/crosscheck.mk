# mk/crosscheck.mk - issue 4, points 3 and 4, against the official MCP data in
# $(MCPDESC_SHARED)/data/mcp (read there, never copied; both skip when it is absent):
#   test-crosscheck         schema/mcp/<version>/*.json against each official schema.json
#                           on every conformance fixture and official example, with the
#                           project's JSON Schema engine; the differences that remain are
#                           listed in tests/crosscheck/known-differences.txt
#                           (explained in schema/mcp/README.md); then selftest.sh shows
#                           that it catches planted differences
#   test-official-examples  the official examples wrapped into descriptions for their
#                           version: `mcpdesc validate` with the shipped rules, no error
# Both run under `make check`, plain and under ASan+UBSan.
MCPDESC_SHARED ?= ../shared
CROSSCHECK_BIN := $(BUILD)/tests/crosscheck/crosscheck
CROSSCHECK_DATA := $(MCPDESC_SHARED)/data/mcp $(MCPDESC_SHARED)/mcp ../shared/data/mcp

$(CROSSCHECK_BIN): $(BUILD)/tests/crosscheck/crosscheck.o $(LIB) $(SAN_OBJS)
	$(CC) $(LDFLAGS) -o $@ $^ $(PKG_LIBS) -lm

.PHONY: test-crosscheck test-official-examples
test-crosscheck: $(CROSSCHECK_BIN)
	$(CROSSCHECK_BIN) types schema/mcp tests/crosscheck/known-differences.txt \
	    schema/mcp/README.md conformance:examples/corpus tests/crosscheck/samples $(CROSSCHECK_DATA)
	sh tests/crosscheck/selftest.sh $(CROSSCHECK_BIN) $(BUILD)/tests/crosscheck-selftest \
	    $(CROSSCHECK_DATA)

test-official-examples: $(CROSSCHECK_BIN) $(BIN)
	sh tests/crosscheck/official-examples.sh $(CROSSCHECK_BIN) $(BIN) \
	    $(BUILD)/tests/official-examples $(CROSSCHECK_DATA)

EXTRA_CHECKS += test-crosscheck test-official-examples
