# mk/conformance.mk - the conformance runner (tests/conformance.c, jansson only, no
# project library) that tests/run-conformance.sh runs over conformance/expected-*/.
CONFORMANCE_CHECK := $(BUILD)/tests/conformance-check

$(CONFORMANCE_CHECK): tests/conformance.c $(SAN_OBJS) | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $< $(SAN_OBJS) $(PKG_LIBS)

test-conformance: $(CONFORMANCE_CHECK)
