# mk/fuzz.mk - libFuzzer harnesses (tests/fuzz/<name>.c; docs/fuzz.md). The library is
# compiled again with clang and -fsanitize=fuzzer-no-link,address,undefined into
# $(BUILD)/fuzz/, each harness linked with -fsanitize=fuzzer.
#   make fuzz                 replay tests/fuzz/regressions/, then fuzz every harness
#                             for FUZZ_SECONDS each (default 40 under CI=true, else 10;
#                             regex, a small input space, at most 20: run.sh)
#   make fuzz FUZZ='rules ptr' FUZZ_SECONDS=600   some harnesses, longer
#   make fuzz-ci              every harness with the default time: for the plain half of
#                             `make check` (docs/fuzz.md says how to add it)
#   make fuzz-replay          only the saved regression inputs
#   make fuzz-coverage        line coverage reached by each harness's corpus
# A crash, leak, sanitizer error, timeout or out-of-memory fails the target and prints
# the reproducer's path; replay one with `$(BUILD)/fuzz/bin/<name> FILE`.

FUZZ_CC       ?= clang
FUZZ_BUILD    := $(BUILD)/fuzz
FUZZ_SECONDS  ?= $(if $(filter true,$(CI)),40,10)
FUZZ_NAMES    := doc_json doc_yaml rules ptr res schema regex rpc validate capture lsp
FUZZ          ?= $(FUZZ_NAMES)
FUZZ_SANITIZE := -fsanitize=address,undefined -fno-sanitize-recover=all
# The warnings of the plain build, not as errors: gcc -Werror is the gate, and clang 14
# warns about a few things gcc does not.
FUZZ_CFLAGS    = -std=c11 -D_GNU_SOURCE -pthread $(filter-out -Werror,$(WARN)) -O1 -g \
                 -fno-omit-frame-pointer $(FUZZ_SANITIZE) \
                 -Isrc -I$(BUILD)/gen $(PKG_CFLAGS) -DMCPDESC_VERSION='"$(VERSION)"' \
                 -DMCPDESC_DATADIR='"$(PREFIX)/share/mcpdesc"' -DFUZZ_TOP='"$(CURDIR)"' -MMD -MP
FUZZ_LIB      := $(FUZZ_BUILD)/libmcpdesc-fuzz.a
# Generated sources (GEN_SRCS, e.g. the embedded meta-schemas) are appended by fragments
# read after this one, so the sub-make of fuzz-build receives them as FUZZ_GEN_SRCS.
FUZZ_LIB_OBJS  = $(LIB_SRCS:%.c=$(FUZZ_BUILD)/obj/%.o) $(TOOL_SRCS:%.c=$(FUZZ_BUILD)/obj/%.o) \
                 $(FUZZ_GEN_SRCS:$(BUILD)/%.c=$(FUZZ_BUILD)/obj/%.o)
FUZZ_BINS     := $(FUZZ_NAMES:%=$(FUZZ_BUILD)/bin/%)

$(FUZZ_BUILD)/obj/%.o: %.c $(VERSION_STAMP) | $(TEST_DEPS_STAMP)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -c $< -o $@

$(FUZZ_BUILD)/obj/gen/%.o: $(BUILD)/gen/%.c
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -c $< -o $@

$(FUZZ_LIB): $(FUZZ_LIB_OBJS)
	rm -f $@ && ar rcs $@ $^

# Keep the harness objects (make would delete them as intermediate files).
.SECONDARY: $(FUZZ_NAMES:%=$(FUZZ_BUILD)/obj/tests/fuzz/%.o) $(FUZZ_BUILD)/obj/tests/fuzz/fuzz_util.o
$(FUZZ_BUILD)/bin/%: $(FUZZ_BUILD)/obj/tests/fuzz/%.o $(FUZZ_BUILD)/obj/tests/fuzz/fuzz_util.o $(FUZZ_LIB)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_SANITIZE) -fsanitize=fuzzer -pthread -o $@ $^ $(PKG_LIBS) -lm

.PHONY: fuzz fuzz-ci fuzz-build fuzz-bins fuzz-replay fuzz-coverage
fuzz-build: | $(TEST_DEPS_STAMP)
	@$(MAKE) --no-print-directory FUZZ_GEN_SRCS='$(GEN_SRCS)' fuzz-bins
fuzz-bins: $(FUZZ_BINS)

# Replay every saved crash (tests/fuzz/regressions/<name>/) without fuzzing.
fuzz-replay: fuzz-build
	sh tests/fuzz/run.sh $(FUZZ_BUILD) 0 $(FUZZ)

fuzz: fuzz-build
	sh tests/fuzz/run.sh $(FUZZ_BUILD) $(FUZZ_SECONDS) $(FUZZ)

fuzz-ci: fuzz-build
	sh tests/fuzz/run.sh $(FUZZ_BUILD) $(FUZZ_SECONDS) $(FUZZ_NAMES)

# Line coverage of each harness's corpus (build/fuzz/corpus/ and the seeds, so run
# `make fuzz` first): the harnesses built again with clang's source-based coverage
# instead of the sanitizers, in $(BUILD)/fuzz-cov/, reported per harness by llvm-cov.
fuzz-coverage: | $(TEST_DEPS_STAMP)
	@$(MAKE) --no-print-directory BUILD=$(BUILD)/fuzz-cov \
	    FUZZ_SANITIZE='-fprofile-instr-generate -fcoverage-mapping' fuzz-build
	sh tests/fuzz/coverage.sh $(BUILD)/fuzz-cov/fuzz $(FUZZ_BUILD) $(FUZZ)
