# capture.mk - `mcpdesc capture`: libcurl for the Streamable HTTP transport, the fake
# MCP server used by the tests, and the capture tests (run by `make check`, plain and
# again under the sanitizers with BUILD=build/san SAN=1).

# libcurl's header only: rpc_http.c loads the library itself when an HTTP session opens
# (dlopen), so that no other command pays for mapping it at start
HEADER_PKGS += libcurl

# This fragment is included before the Makefile's `all:` rule: keep `all` the default
# goal, and name the binary by path (BIN is defined after the include).
.DEFAULT_GOAL := all
CAPTURE_BIN := $(BUILD)/mcpdesc

FAKE_MCP := $(BUILD)/tests/fake-mcp-server

$(FAKE_MCP): tests/fake-mcp-server.c $(SAN_OBJS) | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $< $(SAN_OBJS) $(shell pkg-config --libs jansson)

.PHONY: test-capture test-capture-everything
# The fake-server suite (every failure mode, pagination, version merging), --client-config
# on a configuration of each client kind, then the integration test against
# @modelcontextprotocol/server-everything (skipped without npm).
test-capture: $(CAPTURE_BIN) $(FAKE_MCP)
	sh tests/run-capture.sh $(CAPTURE_BIN)
	sh tests/capture-client-config.sh $(CAPTURE_BIN)
	BUILD=$(BUILD) sh tests/capture-everything.sh $(CAPTURE_BIN)

test-capture-everything: $(CAPTURE_BIN)
	BUILD=$(BUILD) sh tests/capture-everything.sh $(CAPTURE_BIN)

EXTRA_CHECKS += test-capture

# `make bench-capture` (also run by `make bench`): serial vs parallel sessions against a
# fake server that is slow to initialize (tools/bench/capture.sh). Not in `make check`.
.PHONY: bench-capture
bench-capture: $(CAPTURE_BIN) $(FAKE_MCP)
	sh tools/bench/capture.sh $(CAPTURE_BIN) $(FAKE_MCP)
