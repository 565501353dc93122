/* check_fn.c - the predicates added for the MCP rule set (length, matches, path-matches,
 * key, range, format, unique, among, every-descendant): each on passing and failing
 * nodes, in context (ancestors, per-item versions, components), and each bad argument
 * refused with its position. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "base/util.h"

/* The check sits on line 13, from column 12. */
#define RULE(check) \
    "rules:\n  - id: t.x\n    owner: t\n    surface: Tool\n    kind: structural\n" \
    "    level: must\n    status: stable\n    enforcement: internal\n    applies: all\n" \
    "    summary: s\n    requirement: r\n    based-on: [{tier: 1, text: src}]\n    check: " check "\n"

static const struct {
    const char *pred;   /* YAML flow mapping */
    const char *value;  /* JSON */
    int holds;
} preds[] = {
    /* length: code points, items, members */
    {"{length: {min: 1, max: 3}}", "\"abc\"", 1},
    {"{length: {min: 1, max: 3}}", "\"abcd\"", 0},
    {"{length: {min: 1}}", "\"\"", 0},
    {"{length: {max: 2}}", "\"\\u00e9\\u00e9\"", 1},          /* two code points, four bytes */
    {"{length: {max: 2}}", "\"\\ud83d\\ude00\\ud83d\\ude00\"", 1}, /* two astral code points */
    {"{length: {max: 1}}", "[1, 2]", 0},
    {"{length: {min: 2}}", "{\"a\": 1, \"b\": 2}", 1},
    {"{length: {min: 0}}", "5", 0},
    /* matches: PCRE2, UTF, unanchored unless the pattern anchors */
    {"{matches: '^[A-Za-z0-9_.-]*$'}", "\"get_user.v2\"", 1},
    {"{matches: '^[A-Za-z0-9_.-]*$'}", "\"get user\"", 0},
    {"{matches: 'user'}", "\"get_user_by_id\"", 1},
    {"{matches: '^.{2}$'}", "\"\\u00e9\\u00e9\"", 1},
    {"{matches: '(?i)^abc$'}", "\"ABC\"", 1},
    {"{matches: 'a'}", "[\"a\"]", 0},
    {"{matches: '^(a+)+$'}", "\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaab\"", 0},
    /* path-matches: the node's pointer */
    {"{path-matches: '^/x$'}", "1", 1},
    {"{path-matches: '^/y'}", "1", 0},
    /* key: the member name */
    {"{key: {equals: x}}", "1", 1},
    {"{key: {matches: '^y'}}", "1", 0},
    {"{key: {length: {max: 1}}}", "null", 1},
    /* range */
    {"{range: {min: 0, max: 1}}", "0.5", 1},
    {"{range: {min: 0, max: 1}}", "1", 1},
    {"{range: {min: 0, max: 1}}", "1.0001", 0},
    {"{range: {min: 0}}", "-1", 0},
    {"{range: {max: 9007199254740991}}", "9007199254740992", 0},
    {"{range: {max: 9007199254740991}}", "9007199254740991", 1},
    {"{range: {min: 0}}", "\"1\"", 0},
    /* format: uri */
    {"{format: uri}", "\"https://example.com/a%20b?q=1#frag\"", 1},
    {"{format: uri}", "\"file:///srv/My Documents/a.pdf\"", 0},
    {"{format: uri}", "\"docs+git://main/CHANGELOG.md\"", 1},
    {"{format: uri}", "\"my_notes://inbox\"", 0},
    {"{format: uri}", "\"/relative/path\"", 0},
    {"{format: uri}", "\"https://[::1]:8080/\"", 1},
    {"{format: uri}", "\"https://example.com/a#b#c\"", 0},
    {"{format: uri}", "\"https://example.com/%zz\"", 0},
    {"{format: uri}", "\"urn:isbn:0451450523\"", 1},
    {"{format: uri}", "\"http://x:abc/\"", 0},          /* RFC 3986 port = *DIGIT */
    {"{format: uri-reference}", "\"//x:abc/\"", 0},
    {"{format: uri}", "\"https://example.com/caf\\u00e9\"", 0},
    {"{format: uri-reference}", "\"../a/b?c\"", 1},
    {"{format: uri-reference}", "\"a:b/c\"", 1},
    {"{format: uri-reference}", "\"a b\"", 0},
    {"{format: uri-reference}", "\"\"", 1},
    /* format: uri-template (RFC 6570) */
    {"{format: uri-template}", "\"file:///{+path}\"", 1},
    {"{format: uri-template}", "\"https://x.example/search{?q,page:3}{#section}\"", 1},
    {"{format: uri-template}", "\"db://{table}/{id}{/rest*}\"", 1},
    {"{format: uri-template}", "\"{var.name}{%41b}\"", 1},
    {"{format: uri-template}", "\"file:///{path\"", 0},
    {"{format: uri-template}", "\"file:///path}\"", 0},
    {"{format: uri-template}", "\"{}\"", 0},
    {"{format: uri-template}", "\"{a b}\"", 0},
    {"{format: uri-template}", "\"{=x}\"", 0},
    {"{format: uri-template}", "\"{x:0}\"", 0},
    {"{format: uri-template}", "\"{x:10000}\"", 0},
    {"{format: uri-template}", "\"a b\"", 0},
    {"{format: uri-template}", "\"notes://{id}/caf\\u00e9\"", 1},
    /* format: media-type */
    {"{format: media-type}", "\"text/markdown\"", 1},
    {"{format: media-type}", "\"text/plain; charset=utf-8\"", 1},
    {"{format: media-type}", "\"multipart/form-data; boundary=\\\"a b\\\"\"", 1},
    {"{format: media-type}", "\"image/svg+xml\"", 1},
    {"{format: media-type}", "\"text\"", 0},
    {"{format: media-type}", "\"plain text\"", 0},
    {"{format: media-type}", "\"text/plain;\"", 0},
    /* format: iso-8601 */
    {"{format: iso-8601}", "\"2025-01-12T15:00:58Z\"", 1},
    {"{format: iso-8601}", "\"2025-01-12T15:00:58.123+02:00\"", 1},
    {"{format: iso-8601}", "\"2025-01-12\"", 1},
    {"{format: iso-8601}", "\"20250112T150058Z\"", 1},
    {"{format: iso-8601}", "\"2025-W02-7\"", 1},
    {"{format: iso-8601}", "\"2025-012\"", 1},
    {"{format: iso-8601}", "\"2024-02-29\"", 1},
    {"{format: iso-8601}", "\"2025-02-29\"", 0},
    {"{format: iso-8601}", "\"2025-13-01\"", 0},
    {"{format: iso-8601}", "\"2025-01-\"", 0},
    {"{format: iso-8601}", "\"12/01/2025 15:00\"", 0},
    {"{format: iso-8601}", "\"2025-01-12 15:00:58\"", 0},
    {"{format: iso-8601}", "\"2025-01-12T25:00\"", 0},
    {"{format: iso-8601}", "\"202501\"", 0},
    {"{format: iso-8601}", "1736694058", 0},
    /* every-descendant */
    {"{every-descendant: {lacks: bad}}", "{\"a\": [{\"b\": {}}]}", 1},
    {"{every-descendant: {lacks: bad}}", "{\"a\": [{\"b\": {\"bad\": 1}}]}", 0},
    {"{every-descendant: {lacks: bad}}", "{\"bad\": 1}", 1}, /* the node itself is not below */
    {"{every-descendant: {not: {path-matches: '/a/0/b$'}}}", "{\"a\": [{\"b\": 1}]}", 0},
    /* nesting */
    {"{nesting: {max: 0}}", "\"text\"", 1},
    {"{nesting: {max: 0}}", "[]", 1},
    {"{nesting: {max: 0}}", "{}", 1},
    {"{nesting: {max: 0}}", "[1]", 0},
    {"{nesting: {max: 2}}", "[[1]]", 1},
    {"{nesting: {max: 1}}", "[[1]]", 0},
    {"{nesting: {max: 1}}", "[[]]", 1},   /* the empty array lies one step below */
    {"{nesting: {max: 3}}", "{\"a\": [1, {\"b\": {}}], \"c\": 2}", 1}, /* b's {} is 3 below */
    {"{nesting: {max: 2}}", "{\"a\": [1, {\"b\": {}}], \"c\": 2}", 0},
    {"{nesting: {max: 3}}", "{\"x\": 1, \"a\": [1, {\"b\": {\"c\": 3}}], \"z\": []}", 0},
    {"{nesting: {max: 4}}", "{\"x\": 1, \"a\": [1, {\"b\": {\"c\": 3}}], \"z\": []}", 1},
    /* ancestor: from /x/a/0, up 1 is /x/a, up 2 is /x, up 3 the root, up 4 none */
    {"{every: {select: a/0, require: {ancestor: {up: 2, require: {has: k}}}}}", "{\"k\": 1, \"a\": [5]}", 1},
    {"{every: {select: a/0, require: {ancestor: {up: 1, require: {json-type: array}}}}}", "{\"a\": [5]}", 1},
    {"{every: {select: a/0, require: {ancestor: {up: 1, require: {has: k}}}}}", "{\"k\": 1, \"a\": [5]}", 0},
    {"{every: {select: a/0, require: {ancestor: {up: 3, require: {has: k}}}}}", "{\"k\": 1, \"a\": [5]}", 0},
    {"{every: {select: a/0, require: {ancestor: {up: 3, require: {has: x}}}}}", "{\"a\": [5]}", 1},
    {"{every: {select: a/0, require: {ancestor: {up: 4, require: {json-type: object}}}}}", "{\"a\": [5]}", 0},
};

START_TEST(predicate_holds_or_not)
{
    char *rule = xasprintf(RULE("{select: /x, require: %s, message: m}"), preds[_i].pred);
    struct diag_list errs = DIAG_LIST_INIT, out = DIAG_LIST_INIT;
    struct rule_set *rs = tu_rules(rule, &errs);
    ck_assert_msg(rs != NULL, "case %d: %s", _i, errs.len ? errs.items[0].message : "");
    char *json = xasprintf("{\"x\": %s}", preds[_i].value);
    tu_eval(rs, json, &out);
    ck_assert_msg((out.len == 0) == preds[_i].holds, "case %d: %s on %s: expected %s", _i, preds[_i].pred,
                  preds[_i].value, preds[_i].holds ? "pass" : "fail");
    diag_list_release(&out);
    diag_list_release(&errs);
    rule_set_free(rs);
    free(json);
    free(rule);
}
END_TEST

/* format boundaries, both sides of each: the value is a plain C string (JSON-encoded
 * here, so quotes, backslashes and control characters need no second escaping). */
static const struct {
    const char *format;
    const char *value;
    int holds;
} formats[] = {
    /* iso-8601: leap years (every 4th year, not every 100th, but every 400th) */
    {"iso-8601", "2000-02-29", 1},
    {"iso-8601", "1900-02-29", 0},
    {"iso-8601", "2024-02-29", 1},
    {"iso-8601", "2023-02-29", 0},
    {"iso-8601", "2023-02-28", 1},
    {"iso-8601", "20000229", 1},
    {"iso-8601", "19000229", 0},
    {"iso-8601", "2000-02-30", 0},
    /* day 31 in a 30-day month (and in a 31-day one) */
    {"iso-8601", "2025-04-31", 0},
    {"iso-8601", "2025-11-31", 0},
    {"iso-8601", "2025-04-30", 1},
    {"iso-8601", "2025-12-31", 1},
    {"iso-8601", "2025-12-32", 0},
    {"iso-8601", "2025-01-00", 0},
    /* ordinal dates: day 366 only in leap years */
    {"iso-8601", "2024-366", 1},
    {"iso-8601", "2000-366", 1},
    {"iso-8601", "2023-366", 0},
    {"iso-8601", "1900-366", 0},
    {"iso-8601", "2023-365", 1},
    {"iso-8601", "2024-367", 0},
    {"iso-8601", "2024-000", 0},
    /* leap second: 60 is accepted (RFC 3339 time-second), at any minute; 61 never */
    {"iso-8601", "2016-12-31T23:59:60Z", 1},
    {"iso-8601", "2016-12-31T23:59:60.5Z", 1},
    {"iso-8601", "20161231T235960Z", 1},
    {"iso-8601", "2016-12-31T23:59:61Z", 0},
    {"iso-8601", "20161231T235961Z", 0},
    {"iso-8601", "2016-12-31T23:59:59Z", 1},
    {"iso-8601", "2016-12-31T23:60:00Z", 0},
    /* 24:00 ends the day: allowed only with nothing after it */
    {"iso-8601", "2025-01-12T24:00", 1},
    {"iso-8601", "2025-01-12T24:00:00Z", 1},
    {"iso-8601", "2025-01-12T24:00:00.000", 1},
    {"iso-8601", "2025-01-12T24", 1},
    {"iso-8601", "2025-01-12T24:01", 0},
    {"iso-8601", "2025-01-12T24:30:00", 0},
    {"iso-8601", "2025-01-12T24:00:01", 0},
    {"iso-8601", "2025-01-12T24:00:60", 0},
    {"iso-8601", "20250112T240001", 0},
    {"iso-8601", "2025-01-12T24:00:00.5", 0},
    {"iso-8601", "2025-01-12T24.5", 0},
    {"iso-8601", "2025-01-12T23:59:59.999", 1},
    /* offsets: hours 00 to 23, minutes 00 to 59 */
    {"iso-8601", "2025-01-12T15:00:58+23:59", 1},
    {"iso-8601", "2025-01-12T15:00:58-23:59", 1},
    {"iso-8601", "2025-01-12T15:00:58+24:00", 0},
    {"iso-8601", "2025-01-12T15:00:58-25:00", 0},
    {"iso-8601", "2025-01-12T15:00:58+2400", 0},
    {"iso-8601", "2025-01-12T15:00:58+05:60", 0},
    {"iso-8601", "2025-01-12T15:00:58+0560", 0},
    {"iso-8601", "2025-01-12T15:00:58+05:59", 1},
    {"iso-8601", "2025-01-12T15:00:58+0530", 1},
    {"iso-8601", "2025-01-12T15:00:58+05", 1},
    {"iso-8601", "2025-01-12T15:00:58+05:", 0},
    {"iso-8601", "2025-01-12T15:00:58+5:30", 0},
    {"iso-8601", "2025-01-12T15:00:58+05:3", 0},
    /* media-type: quoted strings, with quoted pairs */
    {"media-type", "text/plain; charset=\"a\\\"b\"", 1},
    {"media-type", "text/plain; charset=\"a\\\\\"", 1},   /* an escaped backslash, then the end */
    {"media-type", "text/plain; charset=\"\"", 1},
    {"media-type", "text/plain; charset=\"a b;c=d\"", 1},
    {"media-type", "text/plain; charset=\"abc", 0},       /* unterminated */
    {"media-type", "text/plain; charset=\"a\\\"", 0},     /* the only quote after a is escaped */
    {"media-type", "text/plain; charset=\"abc\\", 0},     /* a backslash at the very end */
    {"media-type", "text/plain; charset=\"a\x01" "b\"", 0}, /* a control character */
    {"media-type", "text/plain; charset=\"a\\\x01\"", 0},  /* nor quoted */
    {"media-type", "text/plain; charset=\"a\tb\"", 1},    /* a tab is qdtext */
    {"media-type", "text/plain; charset=\"a\"b", 0},      /* text after the closing quote */
    /* empty type or subtype */
    {"media-type", "/plain", 0},
    {"media-type", "text/", 0},
    {"media-type", "/", 0},
    {"media-type", "", 0},
    {"media-type", "text/plain/x", 0},
    /* tokens with characters outside tchar */
    {"media-type", "te(xt/plain", 0},
    {"media-type", "text/pl@in", 0},
    {"media-type", "text/pl\xc3\xa9in", 0},
    {"media-type", "text/plain; ch@rset=utf-8", 0},
    {"media-type", "text/plain; charset=utf/8", 0},
    {"media-type", "text/plain; charset=utf 8", 0},
    {"media-type", "application/vnd.a+json; q=1.0; x-y_z=!#$%&'*+-.^_`|~", 1},
    /* a parameter needs a name, "=" and a value */
    {"media-type", "text/plain; charset", 0},
    {"media-type", "text/plain; charset=", 0},
    {"media-type", "text/plain; =utf-8", 0},
    {"media-type", "text/plain; charset=utf-8;", 0},
    /* whitespace: optional around ";", nowhere else */
    {"media-type", "text/plain;charset=utf-8", 1},
    {"media-type", "text/plain ; charset=utf-8", 1},
    {"media-type", "text/plain\t;\tcharset=utf-8", 1},
    {"media-type", "text/plain ;charset=utf-8 ; format=flowed", 1},
    {"media-type", "text/plain; charset =utf-8", 0},
    {"media-type", "text/plain; charset= utf-8", 0},
    {"media-type", "text /plain", 0},
    {"media-type", "text/ plain", 0},
    {"media-type", " text/plain", 0},
    {"media-type", "text/plain ", 0},
    {"media-type", "text/plain; charset=utf-8\t", 0},
    /* case: tokens are case-insensitive (RFC 9110 8.3.1), so any case is the syntax */
    {"media-type", "TEXT/Plain; Charset=UTF-8", 1},
    /* base64 (RFC 4648 section 4): the alphabet, groups of four, = padding the last group */
    {"base64", "", 1},          /* zero octets */
    {"base64", "Zg==", 1},
    {"base64", "Zm8=", 1},
    {"base64", "Zm9v", 1},
    {"base64", "Zm9vYmFy", 1},
    {"base64", "+/+/", 1},
    {"base64", "iVBORw0KGgo=", 1},
    {"base64", "Zh==", 1},      /* pad bits not zero: accepted (RFC 4648 3.5 lets it) */
    {"base64", "@@@@", 0},      /* outside the alphabet */
    {"base64", "Zg", 0},        /* padding missing */
    {"base64", "Zg=", 0},
    {"base64", "Zm9vY", 0},     /* not a multiple of four */
    {"base64", "Z===", 0},      /* at most two = */
    {"base64", "====", 0},
    {"base64", "Zg==Zg==", 0},  /* = only at the end */
    {"base64", "Zm=v", 0},
    {"base64", "-_-_", 0},      /* base64url (section 5) is another alphabet */
    {"base64", "Zm9v\nYmFy", 0}, /* no line breaks (section 3.3) */
    {"base64", "Zm9v YmFy", 0},
    {"base64", "Zm9v\tZm9v", 0},
    /* data-uri (RFC 2397): data:[mediatype][;base64],data, a URI; ;base64 data is Base64 */
    {"data-uri", "data:image/png;base64,iVBORw0KGgo=", 1},
    {"data-uri", "data:;base64,Zm9v", 1},
    {"data-uri", "DATA:image/png;BASE64,Zm9v", 1},       /* scheme and ;base64 in any case */
    {"data-uri", "data:image/png;base64,", 1},           /* zero octets */
    {"data-uri", "data:image/png;base64,Zm%2B%2f", 1},   /* %XX decoded first: Zm+/ */
    {"data-uri", "data:text/plain;charset=US-ASCII,hello%20world", 1}, /* not Base64: any */
    {"data-uri", "data:,", 1},
    {"data-uri", "data:image/svg+xml,%3Csvg%2F%3E", 1},
    {"data-uri", "data:image/png;base64,@@@@", 0},
    {"data-uri", "data:image/png;base64,Zm9vY", 0},
    {"data-uri", "data:image/png;base64,Zg", 0},
    {"data-uri", "data:image/png;base64,Zm9v%20YmFy", 0}, /* a decoded space */
    {"data-uri", "data:image/png;base64,Zm9v YmFy", 0},   /* not a URI */
    {"data-uri", "data:image/png;base64,Zm9v%0AYmFy", 0}, /* a decoded line break */
    {"data-uri", "data:image/png;base64,Zm%3", 0},        /* a broken escape */
    {"data-uri", "data:image/png;base64,Zm9v#x", 0},      /* a fragment is no Base64 */
    {"data-uri", "data:image/png;base64,-_-_", 0},
    {"data-uri", "data:image/png;base64", 0},             /* no comma */
    {"data-uri", "https://example.com/i.png", 0},
    {"data-uri", "data", 0},
    {"data-uri", "", 0},
};

START_TEST(format_boundary)
{
    char *rule = xasprintf(RULE("{select: /x, require: {format: %s}, message: m}"), formats[_i].format);
    struct diag_list errs = DIAG_LIST_INIT, out = DIAG_LIST_INIT;
    struct rule_set *rs = tu_rules(rule, &errs);
    ck_assert_msg(rs != NULL, "case %d: %s", _i, errs.len ? errs.items[0].message : "");
    json_t *v = json_pack("{s:s}", "x", formats[_i].value);
    char *json = json_dumps(v, JSON_COMPACT);
    tu_eval(rs, json, &out);
    ck_assert_msg((out.len == 0) == formats[_i].holds, "case %d: format %s on %s: expected %s", _i,
                  formats[_i].format, json, formats[_i].holds ? "pass" : "fail");
    free(json);
    json_decref(v);
    diag_list_release(&out);
    diag_list_release(&errs);
    rule_set_free(rs);
    free(rule);
}
END_TEST

/* Runs CHECK over JSON and returns the failing pointers, comma-separated (new string). */
static char *failing(const char *check, const char *json)
{
    char *rule = xasprintf(RULE("%s"), check);
    struct diag_list errs = DIAG_LIST_INIT, out = DIAG_LIST_INIT;
    struct rule_set *rs = tu_rules(rule, &errs);
    ck_assert_msg(rs != NULL, "%s: %s", check, errs.len ? errs.items[0].message : "");
    tu_eval(rs, json, &out);
    char *s = xstrdup("");
    for (size_t i = 0; i < out.len; i++) {
        char *t = xasprintf("%s%s%s", s, i ? "," : "", out.items[i].pointer);
        free(s);
        s = t;
    }
    diag_list_release(&out);
    diag_list_release(&errs);
    rule_set_free(rs);
    free(rule);
    return s;
}

static const struct {
    const char *check;
    const char *json;
    const char *fails; /* pointers of the failing nodes, in report order */
} contexts[] = {
    /* unique over an absolute selection: only the later duplicate fails */
    {"{select: /tools/*/name, require: {unique: {select: /tools/*/name}}, message: m}",
     "{\"tools\": [{\"name\": \"a\"}, {\"name\": \"b\"}, {\"name\": \"a\"}, {\"name\": \"a\"}]}",
     "/tools/2/name,/tools/3/name"},
    /* items never offered together do not clash */
    {"{select: /tools/*/name, require: {unique: {select: /tools/*/name}}, message: m}",
     "{\"tools\": [{\"name\": \"a\", \"protocolVersions\": [\"2024-11-05\"]},"
     " {\"name\": \"a\", \"protocolVersions\": [\"2025-06-18\"]}]}",
     ""},
    /* ignore-case (ASCII) */
    {"{select: /tools/*/name, require: {unique: {select: /tools/*/name, ignore-case: true}}, message: m}",
     "{\"tools\": [{\"name\": \"getUser\"}, {\"name\": \"GETUSER\"}, {\"name\": \"other\"}]}",
     "/tools/1/name"},
    /* up: siblings under the same parent only */
    {"{select: '/prompts/*/arguments/*/name', require: {unique: {select: '*/name', up: 2}}, message: m}",
     "{\"prompts\": [{\"arguments\": [{\"name\": \"a\"}, {\"name\": \"b\"}]},"
     " {\"arguments\": [{\"name\": \"a\"}, {\"name\": \"a\"}]}]}",
     "/prompts/1/arguments/1/name"},
    /* depth: an ancestor at a fixed depth, several selectors */
    {"{select: [/t/*/s/p/*/h, /t/*/s/p/*/p/*/h], require: {unique: {select: [p/*/h, p/*/p/*/h], depth: 3, "
     "ignore-case: true}}, message: m}",
     "{\"t\": [{\"s\": {\"p\": {\"a\": {\"h\": \"X\"}, \"b\": {\"p\": {\"c\": {\"h\": \"x\"}}}}}},"
     " {\"s\": {\"p\": {\"a\": {\"h\": \"X\"}}}}]}",
     "/t/0/s/p/b/p/c/h"},
    /* among with keys: a string naming a member of a selected object */
    {"{select: '/s/required/*', require: {among: {select: properties, up: 2, keys: true}}, message: m}",
     "{\"s\": {\"properties\": {\"a\": {}, \"b\": {}}, \"required\": [\"a\", \"c\", \"b\"]}}",
     "/s/required/1"},
    /* among with values */
    {"{select: /t/*/annotations/title, require: {among: {select: title, up: 2}}, message: m}",
     "{\"t\": [{\"title\": \"A\", \"annotations\": {\"title\": \"A\"}}, {\"title\": \"A\", \"annotations\": {\"title\": \"B\"}}]}",
     "/t/1/annotations/title"},
    /* key on object members and array items */
    {"{select: '/m/*', require: {key: {matches: '^[a-z]+/'}}, message: m}",
     "{\"m\": {\"com/a\": 1, \"Bad\": 2}}", "/m/Bad"},
    {"{select: '/m/*', require: {key: {json-type: string}}, message: m}", "{\"m\": [1]}", "/m/0"},
    /* every-descendant follows $componentRef, and path-matches sees the logical pointer */
    {"{select: /tools/*/inputSchema, require: {every-descendant: {any: [{lacks: h}, "
     "{path-matches: '^/tools/[0-9]+/inputSchema(/properties/[^/]+)+$'}]}}, message: m}",
     "{\"tools\": [{\"inputSchema\": {\"properties\": {\"a\": {\"$componentRef\": \"#/components/schemas/A\"}}}},"
     " {\"inputSchema\": {\"items\": {\"$componentRef\": \"#/components/schemas/A\"}}}],"
     " \"components\": {\"schemas\": {\"A\": {\"h\": \"X\"}}}}",
     "/tools/1/inputSchema"},
};

START_TEST(predicate_in_context)
{
    char *got = failing(contexts[_i].check, contexts[_i].json);
    ck_assert_msg(!strcmp(got, contexts[_i].fails), "case %d: failing [%s], expected [%s]", _i, got,
                  contexts[_i].fails);
    free(got);
}
END_TEST

/* Bad arguments: refused at the position of the offending argument (line 13). */
static const struct {
    const char *pred;
    const char *at;      /* the text the error points at, inside pred */
    const char *message; /* a substring of the error */
} bad[] = {
    {"{length: 3}", "3", "length takes a mapping {min: N, max: N}"},
    {"{length: {min: -1}}", "-1", "\"min\" must be a non-negative integer"},
    {"{length: {mni: 1}}", "mni", "unknown member \"mni\" in length"},
    {"{length: {min: 3, max: 1}}", "{min", "\"min\" (3) is larger than \"max\" (1)"},
    {"{matches: '(a'}", "'(a'", "matches: bad regular expression at offset 2"},
    {"{matches: [a]}", "[a]", "matches takes a regular expression"},
    {"{path-matches: '[z-a]'}", "'[z-a]'", "path-matches: bad regular expression"},
    {"{key: 5}", "5", "a predicate is a mapping"},
    {"{range: {min: a}}", "a}", "range: \"min\" must be a number"},
    {"{range: {min: 2, max: 1}}", "{min", "\"min\" is larger than \"max\""},
    /* compared exactly, as range compares a value: equal as doubles, not as numbers */
    {"{range: {min: 9007199254740993, max: 9007199254740992}}", "{min", "\"min\" is larger than \"max\""},
    {"{format: url}", "url", "format takes uri, uri-reference, uri-template, media-type, iso-8601, base64 or data-uri, not \"url\""},
    {"{unique: /tools/*/name}", "/tools", "unique takes a mapping"},
    {"{unique: {up: 1}}", "{up", "unique needs \"select\""},
    {"{unique: {select: /a, up: 1, depth: 2}}", "depth", "takes \"up\" or \"depth\", not both"},
    {"{unique: {select: '/a/~2'}}", "'/a/~2'", "bad selector"},
    {"{unique: {select: /a, keys: true}}", "keys", "unknown member \"keys\" in unique"},
    {"{among: {select: /a, ignore-case: 1}}", "1}", "\"ignore-case\" must be true or false"},
    {"{among: {select: []}}", "[]", "\"select\" takes a selector or a non-empty list"},
    {"{every-descendant: [a]}", "[a]", "a predicate is a mapping"},
};

START_TEST(bad_argument_refused_with_position)
{
    char *check = xasprintf("{select: /x, require: %s, message: m}", bad[_i].pred);
    char *rule = xasprintf(RULE("%s"), check);
    struct diag_list errs = DIAG_LIST_INIT;
    struct rule_set *rs = tu_rules(rule, &errs);
    ck_assert_msg(rs == NULL, "case %d: %s was accepted", _i, bad[_i].pred);
    ck_assert_msg(errs.len > 0, "case %d: no error", _i);
    const struct diag *d = &errs.items[0];
    ck_assert_msg(strstr(d->message, bad[_i].message) != NULL, "case %d: \"%s\" lacks \"%s\"", _i, d->message,
                  bad[_i].message);
    unsigned col = (unsigned)(strstr(check, bad[_i].pred) - check) +
                   (unsigned)(strstr(bad[_i].pred, bad[_i].at) - bad[_i].pred) + 12;
    ck_assert_msg(d->line == 13 && d->col == col, "case %d (%s): at %u:%u, expected 13:%u", _i, d->message,
                  d->line, d->col, col);
    diag_list_release(&errs);
    free(rule);
    free(check);
}
END_TEST

Suite *fn_suite(void)
{
    Suite *s = suite_create("fn");
    TCase *tc = tcase_create("predicates");
    tcase_add_loop_test(tc, predicate_holds_or_not, 0, sizeof preds / sizeof preds[0]);
    tcase_add_loop_test(tc, format_boundary, 0, sizeof formats / sizeof formats[0]);
    tcase_add_loop_test(tc, predicate_in_context, 0, sizeof contexts / sizeof contexts[0]);
    tcase_add_loop_test(tc, bad_argument_refused_with_position, 0, sizeof bad / sizeof bad[0]);
    suite_add_tcase(s, tc);
    return s;
}
