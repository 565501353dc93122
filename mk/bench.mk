# mk/bench.mk - `make bench`: the benchmark table of issue 32 (tools/bench/run.sh,
# docs/bench.md): every row of the issue's "Why" table as now against goal, each a ratio
# measured in the same run against a bare jansson parse (json_loadb, flags 0) of generated
# 1k/10k/50k-tool descriptions: the full rule set, the seed rules (and Spectral 6), peak
# memory, the language server's edit -> diagnostics (tools/bench/lsp.py), the schema engine
# against its walk floor (tools/bench-schema.c), cores used on one file, startup; and first
# `make bench-capture` (mk/capture.mk: serial vs parallel capture sessions). Not part of
# `make check`. Settings pass through the environment (docs/bench.md): BENCH_SIZES,
# BENCH_REPS, BENCH_SPECTRAL_MIN, BENCH_SPECTRAL_MAX, BENCH_LSP_MAX, BENCH_LSP_REPS,
# BENCH_STARTUP_REPS, BENCH_SCHEMA_SECS, BENCH_SCHEMA_LIB, BENCH_RULES, BENCH_SEED.
.PHONY: bench
bench: $(BIN) bench-capture
	MCPDESC=$(BIN) BENCH_DIR=$(BUILD)/bench sh tools/bench/run.sh

# `make test-bench-table`: a smoke test of the table's code, a second or two, nothing
# timed (tools/bench/test-table.sh: the printer on known samples, spawn.py, run.sh's
# settings). Not in `make check`.
.PHONY: test-bench-table
test-bench-table:
	sh tools/bench/test-table.sh

# `make bench-compare OLD=/path/to/old/mcpdesc`: this build against another one on the
# generated 1k- and 10k-tool descriptions, in one run (tools/bench/compare.sh: 5 runs of
# each, alternating, medians, identical reports required). For refactors (docs/bench.md).
.PHONY: bench-compare
bench-compare: $(BIN)
	@test -n "$(OLD)" || { echo "usage: make bench-compare OLD=/path/to/old/mcpdesc" >&2; exit 2; }
	@test -x "$(OLD)" -a -f "$(OLD)" || { echo "make bench-compare: OLD=$(OLD) is not an executable file: give the path of another build's mcpdesc" >&2; exit 2; }
	@mkdir -p $(BUILD)/bench
	@for n in 1000 10000; do \
	    f=$(BUILD)/bench/compare-$$n.json; \
	    [ -f $$f ] || python3 tools/bench/gen-description.py $$n $$f --seed=20261201 || exit 2; \
	    echo "== $$n tools"; sh tools/bench/compare.sh "$(OLD)" $(BIN) $$f 5 || exit 1; \
	done

# The WebAssembly row of `make bench` (tools/bench/run.sh, BENCH_WASM): the build is made
# first when emcc is installed (tools/install-deps.sh wasm); without it, or without node,
# the table says why the row was not measured.
bench: bench-wasm-build
.PHONY: bench-wasm-build
bench-wasm-build:
	@if command -v $(EMCC) > /dev/null 2>&1; then $(MAKE) --no-print-directory wasm; \
	else echo "bench: no emcc: the WebAssembly row is not measured (sh tools/install-deps.sh wasm)"; fi
