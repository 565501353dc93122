# mcpdesc - one plain Makefile (Lua, redis). `make` builds, `make check` runs
# every test (plain and under ASan+UBSan), `make demo` validates a shipped example.
# Module fragments in mk/*.mk add sources, generated files and test targets.

CC      ?= cc
BUILD   ?= build
PREFIX  ?= /usr/local
VERSION := 0.4.0
# what libmcpdesc.a needs (its pkg-config Requires); mk/capture.mk adds libcurl for the CLI
LIB_PKGS := jansson yaml-0.1 libpcre2-8 nettle liburiparser
PKGS    := $(LIB_PKGS)

WARN    := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
           -Wwrite-strings -Wno-unused-parameter
CFLAGS  ?= -O2 -g
ifeq ($(SAN),1)
CFLAGS  := -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all \
           -DMCPDESC_FREE_AT_EXIT
LDFLAGS += -fsanitize=address,undefined
# Every report exits 86 (tests/san/options.c, linked into each program) and is also
# written under $(SAN_REPORTS), which check-sanitize requires to stay empty: a runner that
# ignores an exit status or stderr still cannot pass a sanitizer report.
SAN_OBJS := $(BUILD)/tests/san/options.o
SAN_REPORTS := $(CURDIR)/$(BUILD)/sanitizer-reports
SAN_LOG := exitcode=86:log_path=$(SAN_REPORTS)/report
export ASAN_OPTIONS := $(if $(ASAN_OPTIONS),$(ASAN_OPTIONS):)$(SAN_LOG)
export LSAN_OPTIONS := $(if $(LSAN_OPTIONS),$(LSAN_OPTIONS):)$(SAN_LOG)
export UBSAN_OPTIONS := $(if $(UBSAN_OPTIONS),$(UBSAN_OPTIONS):)$(SAN_LOG):print_stacktrace=1:halt_on_error=1
endif
ifeq ($(SAN),thread)
CFLAGS  := -O1 -g -fno-omit-frame-pointer -fsanitize=thread -DMCPDESC_FREE_AT_EXIT
LDFLAGS += -fsanitize=thread
endif
# validate judges files on one thread per core (pthreads)
LDFLAGS += -pthread
DEPS_STAMP := build/.deps-ok
TEST_DEPS_STAMP := build/.test-deps-ok
SAN_OBJS ?=
# Every skip of a check is appended to this file (tests/skip.sh, tests/testskip.h) and
# `make check` lists them at its end; MCPDESC_REQUIRE=all (set by .ci/run) makes a skip fail.
export MCPDESC_SKIP_LOG ?= $(CURDIR)/build/check-skips.log
# The rule sets' parsed YAML (src/doc/doc_cache.c) is kept in the build tree for whatever
# make runs, tests included: they never touch the user's own cache.
export XDG_CACHE_HOME := $(CURDIR)/build/cache
# The project's own tests never read a .mcpdesc.yaml of a folder above the checkout
# (docs/config.md): the config search is off for every recipe (--config still names one).
export MCPDESC_NO_CONFIG := 1
PKG_CFLAGS = $(shell pkg-config --cflags $(PKGS) $(HEADER_PKGS) 2>/dev/null)
PKG_LIBS   = $(shell pkg-config --libs $(PKGS) 2>/dev/null)
ALL_CFLAGS = -std=c11 -D_GNU_SOURCE -pthread $(WARN) $(CFLAGS) -Isrc -I$(BUILD)/gen $(PKG_CFLAGS) \
             -DMCPDESC_VERSION='"$(VERSION)"' -DMCPDESC_DATADIR='"$(PREFIX)/share/mcpdesc"' -MMD -MP

# src/ is one folder per layer (docs/architecture.md; `make check-layers` keeps the
# include order): base < schema < doc < resolve < rules < judge < findings < author;
# capture sits on base alone; lsp (the language server and its editor features) on
# everything below author and author; cli on all.
# libmcpdesc.a is what a validator needs (base to findings: no curl); the rule
# author's tools, the MCP client and the language server are linked into the command
# line program.
LIB_LAYERS := base schema doc resolve rules judge findings
LAYERS     := $(LIB_LAYERS) author capture lsp cli
LIB_SRCS   := $(foreach l,$(LIB_LAYERS),$(wildcard src/$(l)/*.c))
TOOL_SRCS  := $(wildcard src/author/*.c) $(wildcard src/capture/*.c) $(wildcard src/lsp/*.c)
CLI_SRCS   := $(wildcard src/cli/*.c)
GEN_SRCS :=
EXTRA_CHECKS :=
LIB      := $(BUILD)/libmcpdesc.a
BIN      := $(BUILD)/mcpdesc
.DEFAULT_GOAL := all

# VERSION is compiled in (-DMCPDESC_VERSION): the stamp changes only when it does, and
# then every object is rebuilt (a tree built before a bump kept printing the old one)
VERSION_STAMP := $(BUILD)/gen/version
$(shell mkdir -p $(BUILD)/gen && { [ "$$(cat $(VERSION_STAMP) 2>/dev/null)" = "$(VERSION)" ] || echo "$(VERSION)" > $(VERSION_STAMP); })

# Fragments may use $(BUILD), $(LIB), $(BIN) and append to GEN_SRCS, EXTRA_CHECKS, PKGS.
-include mk/*.mk

LIB_OBJS  := $(LIB_SRCS:%.c=$(BUILD)/%.o) $(GEN_SRCS:%.c=%.o)
TOOL_OBJS := $(TOOL_SRCS:%.c=$(BUILD)/%.o)
CLI_OBJS  := $(CLI_SRCS:%.c=$(BUILD)/%.o)
TOOL_LIB  := $(BUILD)/libmcpdesc-tools.a

UNIT_SRCS := $(filter-out tests/unit/main.c,$(wildcard tests/unit/*.c))
UNIT_OBJS := $(UNIT_SRCS:%.c=$(BUILD)/%.o) $(BUILD)/tests/unit/main.o
UNIT_CHECKS := $(wildcard tests/unit/check_*.c)
UNIT_BIN  := $(BUILD)/tests/unit-tests

.PHONY: all deps demo check check-plain check-sanitize test-unit test-conformance test-cli \
        clean install check-symbols check-layers check-format
all: $(BIN)

# Dependencies are installed by the project itself (tools/install-deps.sh, apt-get as
# root): `make deps` what building needs, `make test-deps` also what the tests need
# (Check, clang for the fuzzers, the JSON Schema test suite, man-db, clang-format).
.PHONY: test-deps
deps: $(DEPS_STAMP)
$(DEPS_STAMP): tools/install-deps.sh
	@sh tools/install-deps.sh build
	@mkdir -p build && touch $@
test-deps: $(TEST_DEPS_STAMP)
$(TEST_DEPS_STAMP): tools/install-deps.sh | $(DEPS_STAMP)
	@sh tools/install-deps.sh test
	@mkdir -p build && touch $@

$(BUILD)/%.o: %.c $(VERSION_STAMP) | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -c $< -o $@

$(LIB): $(LIB_OBJS)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

# The rule author's tools and the capture client: not part of the embeddable library.
$(TOOL_LIB): $(TOOL_OBJS)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

$(BIN): $(CLI_OBJS) $(TOOL_LIB) $(LIB) $(SAN_OBJS)
	$(CC) $(LDFLAGS) -o $@ $(CLI_OBJS) $(SAN_OBJS) $(TOOL_LIB) $(LIB) $(PKG_LIBS) -lm

# One Check harness: tests/unit/check_<module>.c each define `Suite *<module>_suite(void)`;
# the list of suites is generated from the file names (not from the code), so adding a
# file is all it takes and a file whose suite is spelt otherwise fails to link.
# Test files define suites and helpers without prototypes.
$(BUILD)/tests/%.o: WARN += -Wno-missing-prototypes

$(BUILD)/gen/unit_suites.h: $(UNIT_CHECKS) tests/unit/list-suites.sh | $(TEST_DEPS_STAMP)
	@mkdir -p $(dir $@)
	sh tests/unit/list-suites.sh $(UNIT_CHECKS) > $@.tmp && mv $@.tmp $@
$(BUILD)/tests/unit/main.o: $(BUILD)/gen/unit_suites.h
$(UNIT_OBJS): | $(TEST_DEPS_STAMP)
$(UNIT_BIN): $(UNIT_OBJS) $(TOOL_LIB) $(LIB) $(SAN_OBJS)
	$(CC) $(LDFLAGS) -o $@ $(UNIT_OBJS) $(SAN_OBJS) $(TOOL_LIB) $(LIB) $(PKG_LIBS) $(shell pkg-config --libs check) -lm

test-unit: $(UNIT_BIN)
	cd tests && MCPDESC_TOP=.. CK_FORK=no ../$(UNIT_BIN)

test-conformance: $(BIN)
	sh tests/run-conformance.sh $(BIN)

test-cli: $(BIN)
	sh tests/mask-path-selftest.sh
	sh tests/run-cli.sh $(BIN)

# The whole suite, then the same suite again under AddressSanitizer (with LeakSanitizer)
# and UndefinedBehaviorSanitizer in a separate build tree; the plain half also runs each
# libFuzzer harness (clang, ASan+UBSan; 60 s each under CI=true, else 10 s: mk/fuzz.mk).
# It ends with the list of what was skipped (empty in CI, where MCPDESC_REQUIRE=all).
check: $(TEST_DEPS_STAMP)
	@mkdir -p build && rm -f $(MCPDESC_SKIP_LOG)
	@st=0; $(MAKE) --no-print-directory check-plain check-sanitize || st=$$?; \
	    sh tests/skip-summary.sh "$(MCPDESC_SKIP_LOG)" || st=1; exit $$st
check-plain: all test-unit test-conformance test-cli $(EXTRA_CHECKS) check-symbols check-layers check-format test-threads fuzz-ci check-deb check-fresh-root check-wasm
# The WebAssembly build and the npm package (docs/wasm.md, docs/npm.md): the command line
# compiled with emscripten against the native program (test-wasm), and the packed tarball
# installed into a scratch project, its command and API run through node's test runner
# (test-npm). In the plain half only: the sanitizer build does not change them. Built
# first, each installing its tools (emscripten, npm), so that neither test can skip for
# want of them.
.PHONY: check-wasm
check-wasm: $(BIN)
	$(MAKE) --no-print-directory wasm npm
	$(MAKE) --no-print-directory test-wasm test-npm
check-sanitize: $(TEST_DEPS_STAMP)
	@rm -rf build/san/sanitizer-reports && mkdir -p build/san/sanitizer-reports
	@st=0; $(MAKE) --no-print-directory SAN=1 BUILD=build/san test-unit test-conformance test-cli \
	    $(EXTRA_CHECKS) || st=$$?; sh tests/san/no-reports.sh build/san/sanitizer-reports || st=1; exit $$st

# Every global symbol of the libraries carries its file's prefix (jansson check-exports,
# tools/check-symbols.sh); every #include and every object follows the layer order
# (check-layers below; its self-test plants a violation of each kind in all three checks
# and sees each refused).
check-symbols: $(LIB) $(TOOL_LIB) $(CLI_OBJS)
	sh tools/check-symbols.sh $(LIB) $(TOOL_LIB) $(CLI_OBJS)

# src/ stays laid out as .clang-format says.
check-format:
	sh tools/check-format.sh

# The layer order twice: by #include (check-layers.sh) and by what the objects link against
# (check-deps.sh, nm: also no cycle between files but tools/deps-allow.txt's); both read
# tools/layers.txt.
check-layers: $(LIB) $(TOOL_LIB) $(CLI_OBJS)
	sh tools/check-layers.sh src
	sh tools/check-sizes.sh src
	sh tools/check-deps.sh src $(BUILD)/src tools/deps-allow.txt
	CC='$(CC)' SELFTEST_CFLAGS='$(PKG_CFLAGS)' sh tests/check-tools-selftest.sh $(LIB) $(TOOL_LIB)

# The example has findings on purpose: its exit status 1 is the expected one here.
demo: $(BIN)
	@echo '$$ $(BIN) validate examples/weather.json'
	@$(BIN) validate --rules rules-yaml examples/weather.json; st=$$?; \
	    echo "(exit status $$st: 1 means findings at or above --fail-on)"; [ $$st -le 1 ]

clean:
	rm -rf build

# (not below build/deb, the packaging copy of the tree, nor build/deb-root and
# build/fresh-root, Debian roots whose /etc holds directories named *.d and whose
# /project has a build of its own: mk/deb.mk)
-include $(shell find $(BUILD) \( -path build/deb -o -path build/deb-root -o -path build/fresh-root \) -prune -o -name '*.d' -type f -print 2>/dev/null)
