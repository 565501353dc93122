# mk/hostile.mk - the hostile corpus (issue 8 item 5, docs/hostile.md): inputs built to
# break a validator (nesting a million deep, 100 MB strings, alias bombs, catastrophic
# regexes, network $refs, random bytes, ...), each run by tests/hostile/run.sh within a
# time and memory bound, with its expected exit status and message. The large inputs are
# generated at test time into $(BUILD)/hostile/. Runs under `make check`, plain and under
# ASan+UBSan (where the bounds are scaled: see run.sh).
HOSTILE_DIR   := $(BUILD)/hostile
HOSTILE_TOOLS := $(HOSTILE_DIR)/gen $(HOSTILE_DIR)/bound $(HOSTILE_DIR)/nosocket.so
# The helpers are never sanitized: nosocket.so is preloaded into the binary under test.
HOSTILE_CC    = $(CC) -std=c11 -D_GNU_SOURCE $(WARN) -O2 -g

.PHONY: test-hostile
test-hostile: $(BIN) $(HOSTILE_TOOLS)
	sh tests/hostile/run.sh $(if $(filter 1,$(SAN)),--san) $(BIN) $(HOSTILE_DIR)

$(HOSTILE_DIR)/gen: tests/hostile/gen.c
	@mkdir -p $(dir $@)
	$(HOSTILE_CC) -o $@ $<
$(HOSTILE_DIR)/bound: tests/hostile/bound.c
	@mkdir -p $(dir $@)
	$(HOSTILE_CC) -o $@ $<
$(HOSTILE_DIR)/nosocket.so: tests/hostile/nosocket.c
	@mkdir -p $(dir $@)
	$(HOSTILE_CC) -shared -fPIC -o $@ $<

EXTRA_CHECKS += test-hostile
