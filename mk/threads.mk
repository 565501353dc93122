# mk/threads.mk - `validate -j` under ThreadSanitizer: the library and the CLI built
# again with -fsanitize=thread into build/tsan/ (SAN=thread, see the Makefile), then
# tests/validate-threads.sh. Part of the plain half of `make check`.
.PHONY: test-threads
test-threads: $(TEST_DEPS_STAMP)
	$(MAKE) --no-print-directory SAN=thread BUILD=build/tsan build/tsan/mcpdesc
	sh tests/validate-threads.sh build/tsan/mcpdesc
