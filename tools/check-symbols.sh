#!/bin/sh
# check-symbols.sh LIB - every global symbol defined by the library must carry an
# allowed module prefix (house style: prefix = file stem), so the library can be
# embedded without clashing with jansson's json_*, libyaml's yaml_* or the caller.
set -eu
lib=$1
allowed='^(mcpdesc_|overlap_|docs_|lint_|buf_|doc_|ptr_|sel_|yml_|rule_|eval_|fn_|res_|diag_|report_|ver_|schema_|capture_|rpc_|manifest_|lock_|sha256_|util_|x(malloc|calloc|realloc|strdup|strndup|asprintf)$)'
bad=$(nm -g --defined-only "$lib" | awk 'NF==3 && $2 ~ /[TDBR]/ {print $3}' | grep -Ev "$allowed" || true)
if [ -n "$bad" ]; then
    echo "check-symbols: global symbols without a module prefix in $lib:" >&2
    echo "$bad" | sed 's/^/  /' >&2
    exit 1
fi
echo "check-symbols: ok ($(nm -g --defined-only "$lib" | awk 'NF==3 && $2 ~ /[TDBR]/' | wc -l) symbols)"
