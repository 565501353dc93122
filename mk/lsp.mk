# mk/lsp.mk - `mcpdesc lsp` (src/lsp/, docs/editors.md): the end-to-end test over real
# pipes (tests/lsp/e2e.py; tests/lsp/fixall.py: its fixAll against `mcpdesc fix`) and the Neovim
# tests (tests/editor/neovim.sh; neovim-org.sh: a rule file of an org set that extends a
# release by tag, here with build/mcpdesc, in test-install with an installed one), run by
# `make check` (plain and again under the sanitizers with BUILD=build/san SAN=1); the
# benchmark (tools/bench/lsp.py), run by `make bench`.

# This fragment is included before the Makefile's `all:` rule: keep `all` the default
# goal, and name the binary by path (BIN is defined after the include).
.DEFAULT_GOAL := all
LSP_BIN := $(BUILD)/mcpdesc

.PHONY: test-lsp test-neovim bench-lsp
test-lsp: $(LSP_BIN)
	@if command -v python3 > /dev/null 2>&1; then python3 tests/lsp/e2e.py $(LSP_BIN) && \
	    python3 tests/lsp/fixall.py $(LSP_BIN); else \
	    . tests/skip.sh; test_skip test-lsp "mcpdesc lsp over pipes" "python3 not found" || exit 1; fi

test-neovim: $(LSP_BIN)
	sh tests/editor/neovim.sh $(LSP_BIN)
	sh tests/editor/neovim-org.sh $(LSP_BIN)

EXTRA_CHECKS += test-lsp test-neovim

# Time from a didChange to the publishDiagnostics that follows on generated descriptions
# of 100, 1,000 and 10,000 tools, next to a full `mcpdesc validate` of the same file, with
# the binary's default rules (BENCH_RULES=DIR for others). `make bench` runs the same
# measurement on its own files for its table's editor rows (docs/bench.md).
# Settings: BENCH_LSP_SIZES (default "100 1000 10000"), BENCH_LSP_REPS (default 9).
bench-lsp: $(LSP_BIN)
	python3 tools/bench/lsp.py $(LSP_BIN) $(BUILD)/bench
