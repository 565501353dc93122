# servers.awk - read a servers file for install.sh and capture.sh (awk -F'|'): print one
# NAME|PACKAGE|VERSION|ARGS|ENV line per server to install and capture. A line of five
# fields (tests/precision/servers.txt) is one server; a line of six,
# NAME|PACKAGE|OLDVERSION|NEWVERSION|ARGS|ENV (tests/diff-real/servers.txt), is two:
# NAME/OLDVERSION and NAME/NEWVERSION, so each version gets its own install folder and
# capture file (captures/NAME/VERSION.json). Comments (#) and empty lines are skipped.
/^#/ || NF == 0 { next }
NF == 6 {
    print $1 "/" $3 "|" $2 "|" $3 "|" $5 "|" $6
    print $1 "/" $4 "|" $2 "|" $4 "|" $5 "|" $6
    next
}
{ print }
