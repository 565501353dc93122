#!/bin/sh
# coverage.sh - line coverage reached by each harness's corpus (mk/fuzz.mk, fuzz-coverage):
#   sh tests/fuzz/coverage.sh COVERAGE_FUZZ_BUILD FUZZ_BUILD NAME...
# Runs each coverage-instrumented harness once over FUZZ_BUILD/corpus/NAME and
# FUZZ_BUILD/seeds/NAME and prints llvm-cov's line coverage of the files it targets.
set -u
cb=$1
fb=$2
shift 2
export MCPDESC_TOP="${MCPDESC_TOP:-$(pwd)}"
cov=llvm-cov
command -v llvm-cov >/dev/null || cov=llvm-cov-14
prof=llvm-profdata
command -v llvm-profdata >/dev/null || prof=llvm-profdata-14
targets() {
    case $1 in
        doc_json) echo src/doc/doc_load.c src/doc/doc.c src/doc/doc_json.c ;;
        doc_yaml) echo src/doc/doc_load.c src/doc/doc.c src/doc/doc_yaml.c ;;
        rules) echo src/rules/rule_compile.c src/rules/rule_set_load.c src/rules/fn.c src/rules/fn_schema.c src/rules/fn_table.c src/resolve/sel.c src/judge/eval.c ;;
        ptr) echo src/base/ptr.c src/resolve/sel.c ;;
        res) echo src/resolve/res.c src/resolve/sel.c ;;
        schema) echo src/schema/schema_errors.c src/schema/schema_map.c src/schema/schema_obj.c \
                     src/schema/schema_ctx.c src/schema/schema_dialect.c src/schema/schema_index.c \
                     src/schema/schema_compile.c src/schema/schema_check.c \
                     src/schema/schema_eval.c src/schema/schema_num.c src/schema/schema_regex.c \
                     src/base/val.c ;;
        rpc) echo src/capture/rpc.c ;;
        validate) echo src/resolve/res.c src/resolve/sel.c src/judge/eval.c src/rules/fn.c src/rules/fn_schema.c src/judge/mcpdesc.c ;;
        capture) echo src/capture/capture.c ;;
    esac
}
mkdir -p "$cb/prof"
for name in "$@"; do
    dirs=""
    for d in "$fb/corpus/$name" "$fb/seeds/$name"; do [ -d "$d" ] && dirs="$dirs $d"; done
    [ -n "$dirs" ] || { echo "coverage: $name: no corpus (run make fuzz first)"; continue; }
    rm -f "$cb/prof/$name".*
    # shellcheck disable=SC2086
    LLVM_PROFILE_FILE="$cb/prof/$name.profraw" "$cb/bin/$name" -runs=0 $dirs > "$cb/prof/$name.log" 2>&1
    "$prof" merge -sparse "$cb/prof/$name.profraw" -o "$cb/prof/$name.profdata"
    # shellcheck disable=SC2086
    echo "coverage: $name ($(find $dirs -type f | wc -l) inputs)"
    # shellcheck disable=SC2046
    "$cov" report "$cb/bin/$name" -instr-profile="$cb/prof/$name.profdata" $(targets "$name") |
        awk 'NR > 2 && $1 != "" && $1 !~ /^-/ { printf "  %-22s lines %s  functions %s\n", $1, $10, $7 }'
done
