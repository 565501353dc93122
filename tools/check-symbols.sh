#!/bin/sh
# check-symbols.sh LIB... - every global symbol defined by the libraries must carry an
# allowed module prefix (house style: prefix = file stem), so the library can be
# embedded without clashing with jansson's json_*, libyaml's yaml_* or the caller.
set -eu
libs="$*"
allowed='^(mcpdesc_|config_|fix_|fingerprint_|baseline_|suppress_|overlap_|pattern_note_|rulepage_|lint_|fixtures_|rules_diff_|rules_test_|judge_|view_|val_|buf_|loc_|doc_|ptr_|sel_|yml_|rule_|eval_|fn_|res_|diag_|report_|ver_|schema_|capture_|rpc_|lsp_|lspf_|manifest_|lock_|release_|sha256_|uri_|util_|x(malloc|calloc|realloc|strdup|strndup|asprintf)$)'
# nm (binutils) comes with the compiler; without it nothing would be checked: fail
if ! command -v nm > /dev/null 2>&1; then
    echo "check-symbols: FAIL: nm not found (install binutils)" >&2
    exit 1
fi
syms=$(nm -g --defined-only $libs | awk 'NF==3 && $2 ~ /[TDBR]/ {print $3}') || exit 1
count=$(printf '%s\n' "$syms" | grep -c . || true)
if [ "$count" -lt 100 ]; then
    echo "check-symbols: FAIL: only $count global symbols in $libs; are they the libraries?" >&2
    exit 1
fi
bad=$(printf '%s\n' "$syms" | grep -Ev "$allowed" || true)
if [ -n "$bad" ]; then
    echo "check-symbols: global symbols without a module prefix in $libs:" >&2
    echo "$bad" | sed 's/^/  /' >&2
    exit 1
fi
echo "check-symbols: ok ($count symbols)"
