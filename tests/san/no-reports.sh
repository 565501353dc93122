#!/bin/sh
# no-reports.sh DIR - the sanitizer half of `make check` writes every ASan, LeakSanitizer
# and UBSan report into DIR (log_path, see the Makefile); any file there fails the run,
# whatever the runner that started the program made of its exit status or stderr.
set -u
dir=$1
n=$(find "$dir" -type f 2>/dev/null | wc -l)
if [ "$n" -eq 0 ]; then
    echo "check-sanitize: no sanitizer report"
    exit 0
fi
echo "check-sanitize: FAIL: $n sanitizer report(s) in $dir:"
for f in $(find "$dir" -type f | sort | head -n 5); do
    echo "  $f:"
    head -n 30 "$f" | sed 's/^/    | /'
done
exit 1
