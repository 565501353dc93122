# mk/wasm.mk - the WebAssembly build (docs/wasm.md, issue 33): `make wasm` writes
# build/wasm/mcpdesc.js and build/wasm/mcpdesc.wasm, the command line for node
# (`node build/wasm/mcpdesc.js validate FILE`), compiled with emscripten from the same
# sources as the native program: every layer below cli/ but capture/ and lsp/, and cli/
# without cmd_capture.c and cmd_lsp.c (`capture` and `lsp` say they need the native
# build). Single-threaded: -j N is accepted and judges on one thread.
#   build/wasm/src/     Debian's source packages of jansson, libyaml, pcre2, nettle and
#                       uriparser, fetched and verified by apt (tools/wasm/fetch-sources.sh)
#   build/wasm/deps/    those libraries built with emscripten (tools/wasm/build-deps.sh)
#   build/wasm/obj/     mcpdesc's objects
#   build/wasm/embedded the newest release of each shipped rule set, carried inside
#                       (tools/wasm/embed-rules.sh)
# Each step is stamped: a second `make wasm` fetches and builds nothing again.
# test-wasm (tests/wasm/run.sh): the wasm CLI against the native one, byte for byte.

.DEFAULT_GOAL := all
WASM_DIR := build/wasm
WASM_OBJDIR := $(WASM_DIR)/obj
EMCC ?= emcc
# emcc runs its JavaScript tools with the node on PATH; they need Debian's node modules
export NODE_PATH := $(if $(NODE_PATH),$(NODE_PATH):)/usr/share/nodejs
WASM_SRCS = $(LIB_SRCS) $(wildcard src/author/*.c) \
    $(filter-out src/cli/cmd_capture.c src/cli/cmd_capture_config.c src/cli/cmd_lsp.c,$(CLI_SRCS))
WASM_OBJS = $(WASM_SRCS:%.c=$(WASM_OBJDIR)/%.o) $(GEN_SRCS:$(BUILD)/gen/%.c=$(WASM_OBJDIR)/gen/%.o)
WASM_LIBS := -ljansson -lyaml -lpcre2-8 -lnettle -luriparser
# -Wno-missing-field-initializers: clang 14 warns on designated initializers that leave
# members to zero (gcc does not, C11 says they are zero). MCPDESC_DATADIR: the embedded rule sets (in memory, not on the host); MCPDESC_WASM: the
# command table's capture and lsp entries (src/cli/main.c)
WASM_CFLAGS = -std=c11 -D_GNU_SOURCE $(WARN) -Wno-missing-field-initializers -O2 -Isrc -I$(BUILD)/gen -I$(WASM_DIR)/deps/include \
    -DMCPDESC_VERSION='"$(VERSION)"' -DMCPDESC_DATADIR='"/mcpdesc-embedded"' -DMCPDESC_WASM \
    -MMD -MP
# node only, compiled synchronously (3.1.6's asynchronous path uses fetch() under
# Node >= 18); the files through NODEFS (tools/wasm/pre.js), so -lnodefs.js; memory grows
# as a large description needs; the stack of a native thread's 8 MiB (deep documents and
# schemas recurse)
WASM_LDFLAGS := -O2 -sENVIRONMENT=node -sWASM_ASYNC_COMPILATION=0 -sEXIT_RUNTIME=1 \
    -sALLOW_MEMORY_GROWTH=1 -sMAXIMUM_MEMORY=2GB -sTOTAL_STACK=8MB -sINITIAL_MEMORY=32MB \
    -sFORCE_FILESYSTEM=1 -lnodefs.js -sNODEJS_CATCH_EXIT=0 -sNODEJS_CATCH_REJECTION=0

.PHONY: wasm wasm-deps test-wasm
wasm: $(WASM_DIR)/mcpdesc.js

# emscripten, cmake, dpkg-dev, ... (tools/install-deps.sh wasm)
$(WASM_DIR)/.deps-ok: tools/install-deps.sh
	@sh tools/install-deps.sh wasm
	@mkdir -p $(dir $@) && touch $@

$(WASM_DIR)/src/.fetched: tools/wasm/fetch-sources.sh | $(WASM_DIR)/.deps-ok
	sh tools/wasm/fetch-sources.sh $(WASM_DIR)
	@touch $@

wasm-deps: $(WASM_DIR)/deps/.built
$(WASM_DIR)/deps/.built: $(WASM_DIR)/src/.fetched tools/wasm/build-deps.sh
	sh tools/wasm/build-deps.sh $(WASM_DIR)
	@touch $@

# The build's name for the doc cache (src/doc/doc_cache.c keys its entries by it; a
# program without one keeps none): natively the ELF build ID, here the sha256 of what the
# program is compiled from (mcpdesc's sources and headers, the generated ones, the flags,
# emcc's version, the libraries). It is written only when it changes, so doc_cache.o is
# compiled again only then.
# (The libraries are globbed when the recipe runs: before the first build they are not
# there when make reads this file.)
WASM_ID_INPUTS = $(sort $(WASM_SRCS) $(GEN_SRCS) $(wildcard src/*/*.h))
$(WASM_DIR)/build-id: $(WASM_ID_INPUTS) mk/wasm.mk $(WASM_DIR)/deps/.built
	@{ echo '$(WASM_CFLAGS)'; $(EMCC) --version | head -n 1; \
	    cat $(WASM_ID_INPUTS) $(WASM_DIR)/deps/lib/*.a; } | sha256sum | cut -c1-40 > $@.new
	@if cmp -s $@.new $@; then rm -f $@.new; else mv -f $@.new $@; fi
$(WASM_OBJDIR)/src/doc/doc_cache.o: $(WASM_DIR)/build-id
$(WASM_OBJDIR)/src/doc/doc_cache.o: private WASM_CFLAGS += -DMCPDESC_BUILD_ID='"$(shell cat $(WASM_DIR)/build-id)"'

$(WASM_OBJDIR)/%.o: %.c $(VERSION_STAMP) | $(WASM_DIR)/deps/.built
	@mkdir -p $(dir $@)
	$(EMCC) $(WASM_CFLAGS) -c $< -o $@

$(WASM_OBJDIR)/gen/%.o: $(BUILD)/gen/%.c $(VERSION_STAMP) | $(WASM_DIR)/deps/.built
	@mkdir -p $(dir $@)
	$(EMCC) $(WASM_CFLAGS) -c $< -o $@

-include $(shell find $(WASM_OBJDIR) -name '*.d' 2>/dev/null)

$(WASM_DIR)/embedded/default.js: tools/wasm/embed-rules.sh $(wildcard rules-yaml/releases/*)
	sh tools/wasm/embed-rules.sh rules-yaml/releases $(WASM_DIR)/embedded

$(WASM_DIR)/mcpdesc.js: $(WASM_OBJS) tools/wasm/cli-flags.js tools/wasm/pre.js tools/wasm/library.js \
    $(WASM_DIR)/embedded/default.js
	$(EMCC) $(WASM_LDFLAGS) --pre-js tools/wasm/cli-flags.js --pre-js tools/wasm/pre.js --pre-js $(WASM_DIR)/embedded/default.js \
	    --js-library tools/wasm/library.js \
	    --embed-file $(WASM_DIR)/embedded/tree@/mcpdesc-embedded \
	    -o $@ $(WASM_OBJS) -L$(WASM_DIR)/deps/lib $(WASM_LIBS)
	@printf 'wasm: %s (%s bytes) and %s (%s bytes); libraries: ' $@ "$$(wc -c < $@)" \
	    $(WASM_DIR)/mcpdesc.wasm "$$(wc -c < $(WASM_DIR)/mcpdesc.wasm)"
	@cat $(WASM_DIR)/src/*.version | sed 's/ (.*//' | paste -sd, - | sed 's/,/, /g'

# Without emscripten (tools/install-deps.sh wasm) the test is a counted skip, as the
# other optional tests are; with it, the build is made first.
test-wasm: $(BUILD)/mcpdesc
	@if command -v $(EMCC) > /dev/null 2>&1; then \
	    $(MAKE) --no-print-directory wasm && sh tests/wasm/run.sh $(BUILD)/mcpdesc $(WASM_DIR)/mcpdesc.js; \
	else . tests/skip.sh; test_skip test-wasm "the WebAssembly command line against the native one" \
	    "emcc not found: sh tools/install-deps.sh wasm" || exit 1; fi
