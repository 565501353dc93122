# mk/threads.mk - `validate -j` and `capture -j` under ThreadSanitizer: the library, the
# CLI and the fake MCP server built again with -fsanitize=thread into build/tsan/
# (SAN=thread, see the Makefile), then tests/validate-threads.sh and
# tests/capture-threads.sh. Part of the plain half of `make check`.
.PHONY: test-threads
test-threads: $(TEST_DEPS_STAMP)
	$(MAKE) --no-print-directory SAN=thread BUILD=build/tsan build/tsan/mcpdesc \
	    build/tsan/tests/fake-mcp-server
	sh tests/validate-threads.sh build/tsan/mcpdesc
	sh tests/capture-threads.sh build/tsan/mcpdesc build/tsan/tests/fake-mcp-server
