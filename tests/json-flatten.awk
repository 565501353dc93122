# json-flatten.awk - a JSON text as one line per value, "POINTER<TAB>VALUE": { or [ for a
# container, a scalar as written (a string with its quotes). tests/check-schemas.sh reads
# the schemas with it (no jq or python needed).
{ text = text $0 "\n" }
END {
    n = length(text); i = 1; depth = 0
    while (i <= n) {
        c = substr(text, i, 1)
        if (c ~ /[ \t\n\r,:]/) { i++; continue }
        if (c == "\"") {
            j = i + 1; s = ""
            while (j <= n) {
                d = substr(text, j, 1)
                if (d == "\\") { s = s substr(text, j, 2); j += 2; continue }
                if (d == "\"") break
                s = s d; j++
            }
            i = j + 1
            k = i; while (substr(text, k, 1) ~ /[ \t\n\r]/) k++
            if (kind[depth] == "o" && substr(text, k, 1) == ":") { key[depth] = s; i = k + 1; continue }
            emit("\"" s "\"")
            continue
        }
        if (c == "{" || c == "[") {
            emit(c); depth++; kind[depth] = (c == "{") ? "o" : "a"; idx[depth] = 0; key[depth] = ""
            i++; continue
        }
        if (c == "}" || c == "]") { depth--; if (depth > 0 && kind[depth] == "a") idx[depth]++; i++; continue }
        j = i; while (j <= n && substr(text, j, 1) !~ /[ \t\n\r,\]}]/) j++
        emit(substr(text, i, j - i)); i = j
    }
}
function emit(v,   p, l, seg) {
    p = ""
    for (l = 1; l <= depth; l++) {
        if (kind[l] == "o") { seg = key[l]; gsub(/~/, "~0", seg); gsub(/\//, "~1", seg) }
        else seg = idx[l]
        p = p "/" seg
    }
    print p "\t" v
    if (depth > 0 && kind[depth] == "a" && v != "{" && v != "[") idx[depth]++
}
