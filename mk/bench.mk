# mk/bench.mk - `make bench`: the benchmark of issue #8 (tools/bench/run.sh, docs/bench.md):
# mcpdesc (full rule set and the two seed rules) against a bare jansson parse and
# Spectral 6 on generated 1k/10k/50k-tool descriptions, and first `make bench-capture`
# (mk/capture.mk: serial vs parallel capture sessions) and `make bench-lsp` (mk/lsp.mk: edit to
# diagnostics in the language server). Not part of `make check`.
# Settings pass through the environment: BENCH_SIZES, BENCH_REPS, BENCH_SPECTRAL_MAX, BENCH_SEED.
.PHONY: bench
bench: $(BIN) bench-capture bench-lsp
	MCPDESC=$(BIN) BENCH_DIR=$(BUILD)/bench sh tools/bench/run.sh

# `make bench-compare OLD=/path/to/old/mcpdesc`: this build against another one on the
# generated 1k- and 10k-tool descriptions, in one run (tools/bench/compare.sh: 5 runs of
# each, alternating, medians, identical reports required). For refactors (docs/bench.md).
.PHONY: bench-compare
bench-compare: $(BIN)
	@test -n "$(OLD)" || { echo "usage: make bench-compare OLD=/path/to/old/mcpdesc" >&2; exit 2; }
	@mkdir -p $(BUILD)/bench
	@for n in 1000 10000; do \
	    f=$(BUILD)/bench/compare-$$n.json; \
	    [ -f $$f ] || python3 tools/bench/gen-description.py $$n $$f --seed=20261201 || exit 2; \
	    echo "== $$n tools"; sh tools/bench/compare.sh "$(OLD)" $(BIN) $$f 5 || exit 1; \
	done
