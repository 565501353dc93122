# mk/npm.mk - the npm package mcpdesc (docs/npm.md, issue 33 item 2): `make npm` packs
# make wasm's command line with tools/npm/'s sources (bin/mcpdesc.js, the API index.js
# and its types index.d.ts) into build/npm/mcpdesc-VERSION.tgz (tools/npm/assemble.sh;
# publishing is out of scope). test-npm (tests/npm/run.sh): the tarball installed in a
# scratch project, `npx mcpdesc` and the API against the native program. Not part of
# `make check` yet.
NPM_DIR := build/npm
# mk/wasm.mk's WASM_DIR, named here: npm.mk is read before wasm.mk (rules expand early)
NPM_WASM_DIR := build/wasm
NPM_TGZ := $(NPM_DIR)/mcpdesc-$(VERSION).tgz
NPM_SRCS := tools/npm/package.json.in tools/npm/index.js tools/npm/index.d.ts tools/npm/README.md \
    tools/npm/bin/mcpdesc.js tools/npm/assemble.sh

.PHONY: npm test-npm
npm: $(NPM_TGZ)

# npm itself (tools/install-deps.sh npm: Debian's npm, never over a node already there)
$(NPM_DIR)/.deps-ok: tools/install-deps.sh
	@sh tools/install-deps.sh npm
	@mkdir -p $(dir $@) && touch $@

$(NPM_TGZ): $(NPM_WASM_DIR)/mcpdesc.js $(NPM_SRCS) | $(NPM_DIR)/.deps-ok
	sh tools/npm/assemble.sh $(VERSION) $(NPM_WASM_DIR) $(NPM_DIR)

# Without emscripten or npm the test is a counted skip, as test-wasm is.
test-npm: $(BUILD)/mcpdesc
	@if ! command -v $(EMCC) > /dev/null 2>&1; then \
	    . tests/skip.sh; test_skip test-npm "the npm package against the native program" \
	    "emcc not found: sh tools/install-deps.sh wasm" || exit 1; \
	elif ! command -v npm > /dev/null 2>&1 || ! command -v node > /dev/null 2>&1; then \
	    . tests/skip.sh; test_skip test-npm "the npm package against the native program" \
	    "npm or node not found: apt-get install npm" || exit 1; \
	else $(MAKE) --no-print-directory npm && sh tests/npm/run.sh $(BUILD)/mcpdesc $(NPM_TGZ); fi
