# mk/npm.mk - the npm package mcpdesc (docs/npm.md, issue 33 item 2): `make npm` packs
# make wasm's command line, the API's module linked here from the same objects
# (build/npm/api/), and tools/npm/'s sources (bin/mcpdesc.js, the API index.js and its
# types index.d.ts) into build/npm/mcpdesc-VERSION.tgz (tools/npm/assemble.sh;
# publishing is out of scope). test-npm (tests/npm/run.sh): the tarball installed in a
# scratch project, `npx mcpdesc` and the API against the native program; `make check`
# runs it (check-wasm, in the Makefile).
NPM_DIR := build/npm
# mk/wasm.mk's WASM_DIR, named here: npm.mk is read before wasm.mk (rules expand early)
NPM_WASM_DIR := build/wasm
NPM_TGZ := $(NPM_DIR)/mcpdesc-$(VERSION).tgz
NPM_SRCS := tools/npm/package.json.in tools/npm/index.js tools/npm/index.d.ts tools/npm/README.md \
    tools/npm/bin/mcpdesc.js tools/npm/assemble.sh tools/npm/api-pre.js
NPM_API_JS := $(NPM_DIR)/api/mcpdesc-api.js

.PHONY: npm test-npm
npm: $(NPM_TGZ)

# npm itself (tools/install-deps.sh npm: Debian's npm, never over a node already there)
$(NPM_DIR)/.deps-ok: tools/install-deps.sh
	@sh tools/install-deps.sh npm
	@mkdir -p $(dir $@) && touch $@

$(NPM_TGZ): $(NPM_WASM_DIR)/mcpdesc.js $(NPM_API_JS) $(NPM_SRCS) | $(NPM_DIR)/.deps-ok
	sh tools/npm/assemble.sh $(VERSION) $(NPM_WASM_DIR) $(NPM_DIR)

# The API's module (tools/npm/index.js): the command line's objects (make wasm's, linked
# again) as a library that one node process instantiates once and calls many times
# (src/cli/wasm_api.c, tools/npm/api-pre.js): MODULARIZE, no main run at start, no exit
# of the runtime, node's process events left alone. Two objects are its own: wasm_api.o
# (MCPDESC_WASM_API: the calls; the rule sets carried inside kept from call to call, by
# --wrap of cmd_load_rules_tagged and rule_set_free), and cmd_validate.o built with
# MCPDESC_FREE_AT_EXIT (base/util.h): a call frees its rule set and documents, which the
# command line leaves to the process's end. (_main exported: emcc warns that an unexported
# main may be dropped; wasm_api.o calls it.) The recipe names mk/wasm.mk's objects
# and flags (expanded when it runs: wasm.mk is read after this file); the command line
# being linked means they are all built.
NPM_API_OBJDIR := $(NPM_DIR)/obj
NPM_API_LDFLAGS = $(filter-out -sEXIT_RUNTIME=1,$(WASM_LDFLAGS)) -sMODULARIZE=1 \
    -sEXPORT_NAME=createMcpdescApi -sINVOKE_RUN=0 -sEXIT_RUNTIME=0 \
    -sEXPORTED_FUNCTIONS=_main,_mcpdesc_wasm_run,_mcpdesc_wasm_env_clear,_mcpdesc_wasm_env_set,_malloc,_free \
    -Wl,--wrap=cmd_load_rules_tagged -Wl,--wrap=rule_set_free

$(NPM_API_OBJDIR)/cmd_validate.o: src/cli/cmd_validate.c $(NPM_WASM_DIR)/mcpdesc.js
	@mkdir -p $(dir $@)
	$(EMCC) $(WASM_CFLAGS) -DMCPDESC_FREE_AT_EXIT -c $< -o $@

# the glue: empty in the command line's objects, the API's calls with MCPDESC_WASM_API
$(NPM_API_OBJDIR)/wasm_api.o: src/cli/wasm_api.c $(NPM_WASM_DIR)/mcpdesc.js
	@mkdir -p $(dir $@)
	$(EMCC) $(WASM_CFLAGS) -DMCPDESC_WASM_API -c $< -o $@

-include $(NPM_API_OBJDIR)/cmd_validate.d $(NPM_API_OBJDIR)/wasm_api.d

$(NPM_API_JS): $(NPM_WASM_DIR)/mcpdesc.js $(NPM_API_OBJDIR)/cmd_validate.o \
    $(NPM_API_OBJDIR)/wasm_api.o tools/npm/api-pre.js tools/wasm/pre.js tools/wasm/library.js mk/npm.mk
	@mkdir -p $(dir $@)
	$(EMCC) $(NPM_API_LDFLAGS) --pre-js tools/wasm/pre.js --pre-js $(WASM_DIR)/embedded/default.js \
	    --pre-js tools/npm/api-pre.js --js-library tools/wasm/library.js --embed-file $(WASM_DIR)/embedded/tree@/mcpdesc-embedded \
	    -o $@ $(filter-out $(WASM_OBJDIR)/src/cli/cmd_validate.o $(WASM_OBJDIR)/src/cli/wasm_api.o,$(WASM_OBJS)) \
	    $(NPM_API_OBJDIR)/cmd_validate.o $(NPM_API_OBJDIR)/wasm_api.o -L$(WASM_DIR)/deps/lib $(WASM_LIBS)
	@printf 'npm api: %s (%s bytes) and %s (%s bytes)\n' $@ "$$(wc -c < $@)" \
	    $(NPM_API_JS:.js=.wasm) "$$(wc -c < $(NPM_API_JS:.js=.wasm))"

# Without emscripten or npm the test is a counted skip, as test-wasm is.
test-npm: $(BUILD)/mcpdesc
	@if ! command -v $(EMCC) > /dev/null 2>&1; then \
	    . tests/skip.sh; test_skip test-npm "the npm package against the native program" \
	    "emcc not found: sh tools/install-deps.sh wasm" || exit 1; \
	elif ! command -v npm > /dev/null 2>&1 || ! command -v node > /dev/null 2>&1; then \
	    . tests/skip.sh; test_skip test-npm "the npm package against the native program" \
	    "npm or node not found: apt-get install npm" || exit 1; \
	else $(MAKE) --no-print-directory npm && sh tests/npm/run.sh $(BUILD)/mcpdesc $(NPM_TGZ); fi
