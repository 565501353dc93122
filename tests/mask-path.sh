# mask-path.sh - masks a directory's absolute path in test outputs (sourced).
# shellcheck shell=sh
#   mask_path PATH TOKEN FILE...
# rewrites each FILE in place, replacing PATH by TOKEN where PATH is a whole path: not
# preceded by a file-name character or '/' (the start of the line, a space, a quote, '=',
# '(' or "file://" may precede it) and followed by '/', a character that is not part of a
# file name, or the end of the line (a '.' only when it ends a sentence). With the
# checkout at /project, conformance/expected-invalid/projection-types.json,
# https://example.test/project/ and /project.git stay as written. run-cli.sh masks its
# scratch directory (@WORK@) and the repository (@ROOT@) with it;
# tests/mask-path-selftest.sh shows what it masks and what it leaves.
mask_path() {
    mask_path_re=$(printf '%s\n' "$1" | sed 's/[][\\.*^$+?(){}|#]/\\&/g')
    mask_path_token=$2
    shift 2
    # [^...] below: not a file-name character (letters, digits, . _ ~ + -) nor '/'
    sed -i -E -e ':a' \
        -e "s#(^|[^[:alnum:]._~+/-]|://)$mask_path_re(/|[^[:alnum:]._~+-]|\\.?\$|\\.[^[:alnum:]._~+/-])#\\1$mask_path_token\\2#" \
        -e 'ta' "$@"
}
