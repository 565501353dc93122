# mk/threads.mk - `validate -j`, `capture -j` and the language server's judge thread under
# ThreadSanitizer: the library, the CLI and the fake MCP server built again with
# -fsanitize=thread into build/tsan/
# (SAN=thread, see the Makefile), then tests/validate-threads.sh and
# tests/capture-threads.sh, and the language server's end-to-end test (tests/lsp/e2e.py:
# a race makes the server exit 66, not 0). Part of the plain half of `make check`.
.PHONY: test-threads
test-threads: $(TEST_DEPS_STAMP)
	$(MAKE) --no-print-directory SAN=thread BUILD=build/tsan build/tsan/mcpdesc \
	    build/tsan/tests/fake-mcp-server
	sh tests/validate-threads.sh build/tsan/mcpdesc
	sh tests/capture-threads.sh build/tsan/mcpdesc build/tsan/tests/fake-mcp-server
	TSAN_OPTIONS="halt_on_error=1 exitcode=66 suppressions=$(CURDIR)/tests/tsan.supp" \
	    python3 tests/lsp/e2e.py build/tsan/mcpdesc
