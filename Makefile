# mcpdesc - one plain Makefile (Lua, redis). `make` builds, `make check` runs
# every test (plain and under ASan+UBSan), `make demo` validates a shipped example.
# Module fragments in mk/*.mk add sources, generated files and test targets.

CC      ?= cc
BUILD   ?= build
PREFIX  ?= /usr/local
VERSION := 0.1.0
PKGS    := jansson yaml-0.1 libpcre2-8 nettle

WARN    := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
           -Wwrite-strings -Wno-unused-parameter
CFLAGS  ?= -O2 -g
ifeq ($(SAN),1)
CFLAGS  := -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all
LDFLAGS += -fsanitize=address,undefined
endif
ifeq ($(SAN),thread)
CFLAGS  := -O1 -g -fno-omit-frame-pointer -fsanitize=thread
LDFLAGS += -fsanitize=thread
endif
# validate judges files on one thread per core (pthreads)
LDFLAGS += -pthread
DEPS_STAMP := build/.deps-ok
PKG_CFLAGS = $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   = $(shell pkg-config --libs $(PKGS) 2>/dev/null)
ALL_CFLAGS = -std=c11 -D_GNU_SOURCE -pthread $(WARN) $(CFLAGS) -Isrc -I$(BUILD)/gen $(PKG_CFLAGS) \
             -DMCPDESC_VERSION='"$(VERSION)"' -DMCPDESC_DATADIR='"$(PREFIX)/share/mcpdesc"' -MMD -MP

# Library: every src/*.c except the CLI (main.c, cmd_*.c).
CLI_SRCS := src/main.c $(wildcard src/cmd_*.c)
LIB_SRCS := $(filter-out $(CLI_SRCS),$(wildcard src/*.c))
GEN_SRCS :=
EXTRA_CHECKS :=
LIB      := $(BUILD)/libmcpdesc.a
BIN      := $(BUILD)/mcpdesc
.DEFAULT_GOAL := all

# Fragments may use $(BUILD), $(LIB), $(BIN) and append to GEN_SRCS, EXTRA_CHECKS, PKGS.
-include mk/*.mk

LIB_OBJS := $(LIB_SRCS:%.c=$(BUILD)/%.o) $(GEN_SRCS:%.c=%.o)
CLI_OBJS := $(CLI_SRCS:%.c=$(BUILD)/%.o)

UNIT_SRCS := $(filter-out tests/unit/main.c,$(wildcard tests/unit/*.c))
UNIT_OBJS := $(UNIT_SRCS:%.c=$(BUILD)/%.o) $(BUILD)/tests/unit/main.o
UNIT_CHECKS := $(wildcard tests/unit/check_*.c)
UNIT_BIN  := $(BUILD)/tests/unit-tests

.PHONY: all deps demo check check-plain check-sanitize test-unit test-conformance test-cli \
        clean install check-symbols
all: $(BIN)

# Dependencies are installed by the project itself (tools/install-deps.sh, apt-get as root).
deps: $(DEPS_STAMP)
$(DEPS_STAMP): tools/install-deps.sh
	@sh tools/install-deps.sh
	@mkdir -p build && touch $@

$(BUILD)/%.o: %.c | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -c $< -o $@

$(LIB): $(LIB_OBJS)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

$(BIN): $(CLI_OBJS) $(LIB)
	$(CC) $(LDFLAGS) -o $@ $(CLI_OBJS) $(LIB) $(PKG_LIBS) -lm

# One Check harness: tests/unit/check_<module>.c each define `Suite *<name>_suite(void)`;
# the list of suites is generated so adding a file is all it takes.
# Test files define suites and helpers without prototypes.
$(BUILD)/tests/%.o: WARN += -Wno-missing-prototypes

$(BUILD)/gen/unit_suites.h: $(UNIT_CHECKS) | $(DEPS_STAMP)
	@mkdir -p $(dir $@)
	sed -n 's/^Suite \*\([a-z_0-9]*_suite\)(void)$$/SUITE(\1)/p' $(UNIT_CHECKS) > $@
$(BUILD)/tests/unit/main.o: $(BUILD)/gen/unit_suites.h
$(UNIT_BIN): $(UNIT_OBJS) $(LIB)
	$(CC) $(LDFLAGS) -o $@ $(UNIT_OBJS) $(LIB) $(PKG_LIBS) $(shell pkg-config --libs check) -lm

test-unit: $(UNIT_BIN)
	cd tests && MCPDESC_TOP=.. CK_FORK=no ../$(UNIT_BIN)

test-conformance: $(BIN)
	sh tests/run-conformance.sh $(BIN)

test-cli: $(BIN)
	sh tests/run-cli.sh $(BIN)

# The whole suite, then the same suite again under AddressSanitizer (with LeakSanitizer)
# and UndefinedBehaviorSanitizer in a separate build tree; the plain half also runs each
# libFuzzer harness (clang, ASan+UBSan; 60 s each under CI=true, else 10 s: mk/fuzz.mk).
check: check-plain check-sanitize
check-plain: all test-unit test-conformance test-cli $(EXTRA_CHECKS) check-symbols test-threads fuzz-ci
check-sanitize: $(DEPS_STAMP)
	$(MAKE) --no-print-directory SAN=1 BUILD=build/san test-unit test-conformance test-cli $(EXTRA_CHECKS)

# Every global symbol of the library carries its module's prefix (jansson check-exports).
check-symbols: $(LIB)
	sh tools/check-symbols.sh $(LIB)

demo: $(BIN)
	@echo '$$ mcpdesc validate examples/weather.json'
	-@$(BIN) validate --rules rules-yaml examples/weather.json

clean:
	rm -rf build

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
