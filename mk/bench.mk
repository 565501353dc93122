# mk/bench.mk - `make bench`: the benchmark of issue #8 (tools/bench/run.sh, docs/bench.md):
# mcpdesc (full rule set and the two seed rules) against a bare jansson parse and
# Spectral 6 on generated 1k/10k/50k-tool descriptions. Not part of `make check`.
# Settings pass through the environment: BENCH_SIZES, BENCH_REPS, BENCH_SPECTRAL_MAX, BENCH_SEED.
.PHONY: bench
bench: $(BIN)
	MCPDESC=$(BIN) BENCH_DIR=$(BUILD)/bench sh tools/bench/run.sh
