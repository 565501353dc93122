/* check_uri.c - base/uri.c, RFC 3986 through uriparser: reference resolution (the
 * normal and abnormal examples of RFC 3986 section 5.4, relative bases as a schema
 * without an identifier has, fragments kept verbatim, hosts kept as written, refusals
 * with their reason) and the uri / uri-reference syntax checks. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "base/uri.h"

#define RFC_BASE "http://a/b/c/d;p?q"

static const struct {
    const char *base, *ref, *target;
} resolved[] = {
    /* RFC 3986 section 5.4.1, normal examples */
    {RFC_BASE, "g:h", "g:h"},
    {RFC_BASE, "g", "http://a/b/c/g"},
    {RFC_BASE, "./g", "http://a/b/c/g"},
    {RFC_BASE, "g/", "http://a/b/c/g/"},
    {RFC_BASE, "/g", "http://a/g"},
    {RFC_BASE, "//g", "http://g"},
    {RFC_BASE, "?y", "http://a/b/c/d;p?y"},
    {RFC_BASE, "g?y", "http://a/b/c/g?y"},
    {RFC_BASE, "#s", "http://a/b/c/d;p?q#s"},
    {RFC_BASE, "g#s", "http://a/b/c/g#s"},
    {RFC_BASE, "g?y#s", "http://a/b/c/g?y#s"},
    {RFC_BASE, ";x", "http://a/b/c/;x"},
    {RFC_BASE, "g;x", "http://a/b/c/g;x"},
    {RFC_BASE, "g;x?y#s", "http://a/b/c/g;x?y#s"},
    {RFC_BASE, "", "http://a/b/c/d;p?q"},
    {RFC_BASE, ".", "http://a/b/c/"},
    {RFC_BASE, "./", "http://a/b/c/"},
    {RFC_BASE, "..", "http://a/b/"},
    {RFC_BASE, "../", "http://a/b/"},
    {RFC_BASE, "../g", "http://a/b/g"},
    {RFC_BASE, "../..", "http://a/"},
    {RFC_BASE, "../../", "http://a/"},
    {RFC_BASE, "../../g", "http://a/g"},
    /* RFC 3986 section 5.4.2, abnormal examples */
    {RFC_BASE, "../../../g", "http://a/g"},
    {RFC_BASE, "../../../../g", "http://a/g"},
    {RFC_BASE, "/./g", "http://a/g"},
    {RFC_BASE, "/../g", "http://a/g"},
    {RFC_BASE, "g.", "http://a/b/c/g."},
    {RFC_BASE, ".g", "http://a/b/c/.g"},
    {RFC_BASE, "g..", "http://a/b/c/g.."},
    {RFC_BASE, "..g", "http://a/b/c/..g"},
    {RFC_BASE, "./../g", "http://a/b/g"},
    {RFC_BASE, "./g/.", "http://a/b/c/g/"},
    {RFC_BASE, "g/./h", "http://a/b/c/g/h"},
    {RFC_BASE, "g/../h", "http://a/b/c/h"},
    {RFC_BASE, "g;x=1/./y", "http://a/b/c/g;x=1/y"},
    {RFC_BASE, "g;x=1/../y", "http://a/b/c/y"},
    {RFC_BASE, "g?y/./x", "http://a/b/c/g?y/./x"},
    {RFC_BASE, "g?y/../x", "http://a/b/c/g?y/../x"},
    {RFC_BASE, "g#s/./x", "http://a/b/c/g#s/./x"},
    {RFC_BASE, "g#s/../x", "http://a/b/c/g#s/../x"},
    {RFC_BASE, "http:g", "http:g"}, /* strict parsers, as section 5.2.2 says */
    /* a schema without an identifier: no base URI, or a relative one */
    {"", "../a/./b", "a/b"},
    {"", "#/$defs/x", "#/$defs/x"},
    {"", "", ""},
    {NULL, "foo.json#/$defs/a", "foo.json#/$defs/a"},
    {"", "/x/../y.json", "/y.json"},
    {"", "//h/p/../q", "//h/q"},
    {"", "?y", "?y"},
    {"", "x:y", "x:y"}, /* a scheme of its own, even the one put in front of a relative base */
    {"foo/bar.json", "baz.json", "foo/baz.json"},
    {"foo/bar.json", "../../baz.json", "baz.json"},
    {"/a/b", "c", "/a/c"},
    {"//h", "c", "//h/c"},
    {"foo/bar.json#frag", "#/x", "foo/bar.json#/x"},
    {"urn:uuid:deadbeef-1234", "#/$defs/x", "urn:uuid:deadbeef-1234#/$defs/x"},
    {"file:///folder/file.json", "#/$defs/x", "file:///folder/file.json#/$defs/x"},
    {"file:///folder/file.json", "other.json", "file:///folder/other.json"},
    {"http://localhost:1234/draft2020-12/", "baseUriChange/folderInteger.json",
     "http://localhost:1234/draft2020-12/baseUriChange/folderInteger.json"},
    /* the base's fragment is no part of it; the reference's is kept verbatim */
    {"http://a/b#f", "c", "http://a/c"},
    {"http://a/b", "#/$defs/foo bar", "http://a/b#/$defs/foo bar"},
    {"http://a/b", "c#x#y", "http://a/c#x#y"},
    /* hosts as written: IP literals are not rewritten from their bytes */
    {"http://[2001:DB8::7]/a/b", "c", "http://[2001:DB8::7]/a/c"},
    {"http://a/b", "ldap://[2001:db8::7]/c=GB?objectClass?one",
     "ldap://[2001:db8::7]/c=GB?objectClass?one"},
    {"http://[v1.x]/a", "b", "http://[v1.x]/b"},
    {"http://1.2.3.4:8080/a", "b", "http://1.2.3.4:8080/b"},
    {"http://u@a/b", "c", "http://u@a/c"},
    /* the scheme's case is kept, percent-encodings are not decoded */
    {"http://x/a/b", "HTTP://x/../c", "HTTP://x/c"},
    {"http://x/a/b", "c%2Fd%20e", "http://x/a/c%2Fd%20e"},
};

START_TEST(resolves)
{
    char *why = NULL;
    char *t = uri_resolve(resolved[_i].base, resolved[_i].ref, &why);
    ck_assert_msg(t, "case %d: \"%s\" against \"%s\": refused: %s", _i, resolved[_i].ref,
                  resolved[_i].base ? resolved[_i].base : "(null)", why ? why : "");
    ck_assert_msg(!strcmp(t, resolved[_i].target),
                  "case %d: \"%s\" against \"%s\" gives \"%s\", not \"%s\"", _i, resolved[_i].ref,
                  resolved[_i].base ? resolved[_i].base : "(null)", t, resolved[_i].target);
    free(t);
}
END_TEST

static const struct {
    const char *base, *ref, *why;
} refused[] = {
    {RFC_BASE, "http://x:abc/", "is not a URI reference: the parse fails at character 13 ('/')"},
    {RFC_BASE, "a b", "is not a URI reference: the parse fails at character 2 (' ')"},
    {RFC_BASE, "caf\xc3\xa9.json",
     "is not a URI reference: the parse fails at character 4 (non-ASCII byte 0xC3)"},
    {RFC_BASE, "a\nb",
     "is not a URI reference: the parse fails at character 2 (control character 0x0A)"},
    {RFC_BASE, "%zz", "is not a URI reference: the parse fails at character 2 ('z')"},
    {RFC_BASE, "http://[::1", "is not a URI reference: the parse fails at its end"},
    {"", "my_notes:x", "is not a URI reference: the parse fails at character 9 (':')"},
    {"http://a b/", "c",
     "cannot be resolved against the base URI \"http://a b/\", which is not a URI reference: "
     "the parse fails at character 9 (' ')"},
};

START_TEST(refuses)
{
    char *why = NULL;
    char *t = uri_resolve(refused[_i].base, refused[_i].ref, &why);
    ck_assert_msg(!t, "case %d: \"%s\" resolved to \"%s\"", _i, refused[_i].ref, t ? t : "");
    ck_assert_ptr_nonnull(why);
    ck_assert_str_eq(why, refused[_i].why);
    free(why);
}
END_TEST

static const struct {
    const char *s;
    int uri, uri_reference;
} checked[] = {
    {"http://x:abc/", 0, 0}, /* RFC 3986 port = *DIGIT */
    {"//x:abc/", 0, 0},
    {"http://example.com:8080/", 1, 1},
    {"http://example.com:/", 1, 1}, /* an empty port is allowed */
    {"http://x:80:90/", 0, 0},
    {"https://[::1]:8080/", 1, 1}, /* IPv6 literal */
    {"https://[2001:db8::7]/c=GB?objectClass?one", 1, 1},
    {"http://[::ffff:192.0.2.1]/", 1, 1},
    {"http://[v1.fe80::a+en1]/", 1, 1}, /* IPvFuture */
    {"http://[::1/", 0, 0},
    {"http://[fe80::zz]/", 0, 0},
    {"http://[::ffff:192.168.0.01]/", 0, 0},      /* a leading zero in the embedded IPv4 */
    {"http://2001:db8::7/", 0, 0},                /* IPv6 without brackets */
    {"//a@b@example.com/", 0, 0},                 /* one '@' ends the userinfo */
    {"https://example.com/a%20b?q=1#frag", 1, 1}, /* percent-encoding, query, fragment */
    {"https://example.com/%zz", 0, 0},
    {"https://example.com/%2", 0, 0},
    {"https://example.com/a#b#c", 0, 0},
    {"https://example.com/#", 1, 1}, /* an empty fragment */
    {"https://example.com/p#/$defs/x?y", 1, 1},
    {"urn:isbn:0451450523", 1, 1},
    {"mailto:a@example.com", 1, 1},
    {"docs+git://main/CHANGELOG.md", 1, 1},
    {"a:b/c", 1, 1},
    {"my_notes://inbox", 0, 0}, /* no scheme, and a ':' in the first segment */
    {"./my_notes:inbox", 0, 1},
    {"../a/b?c", 0, 1}, /* relative references: uri-reference only */
    {"/relative/path", 0, 1},
    {"#frag", 0, 1},
    {"", 0, 1},
    {"a b", 0, 0},
    {"file:///srv/My Documents/a.pdf", 0, 0},
    {"https://example.com/caf\xc3\xa9", 0, 0}, /* non-ASCII is refused (an IRI, not a URI) */
    {"caf\xc3\xa9", 0, 0},
    {"http://example.com/{x}", 0, 0}, /* a URI template is not a URI */
};

START_TEST(checks)
{
    ck_assert_msg(uri_check(checked[_i].s, 0) == checked[_i].uri,
                  "case %d: uri \"%s\": expected %d", _i, checked[_i].s, checked[_i].uri);
    ck_assert_msg(uri_check(checked[_i].s, 1) == checked[_i].uri_reference,
                  "case %d: uri-reference \"%s\": expected %d", _i, checked[_i].s,
                  checked[_i].uri_reference);
}
END_TEST

START_TEST(splits_and_paths)
{
    const char *frag;
    char *u = uri_split_fragment("http://a/b#c#d", &frag);
    ck_assert_str_eq(u, "http://a/b");
    ck_assert_str_eq(frag, "c#d");
    free(u);
    u = uri_split_fragment("http://a/b#", &frag);
    ck_assert_str_eq(u, "http://a/b");
    ck_assert_str_eq(frag, "");
    free(u);
    u = uri_split_fragment("urn:x", &frag);
    ck_assert_str_eq(u, "urn:x");
    ck_assert_ptr_null(frag);
    free(u);
    u = uri_from_path("/srv/My Documents/a+b/caf\xc3\xa9.json");
    ck_assert_str_eq(u, "file:///srv/My%20Documents/a%2Bb/caf%C3%A9.json");
    ck_assert(uri_check(u, 0));
    free(u);
    u = uri_from_path("/schema/mcp/2025-11-25/tool.json");
    ck_assert_str_eq(u, "file:///schema/mcp/2025-11-25/tool.json");
    free(u);
}
END_TEST

/* --docs-url, a config's docs-url: absolute http(s) with a host, or file:// */
static const struct {
    const char *s;
    int link;
} links[] = {
    {"https://docs.example/rules", 1},
    {"HTTP://docs.example:8080/r?x=1#f", 1},
    {"file:///usr/share/doc/mcpdesc/rules", 1},
    {"file://localhost/srv/rules", 1},
    {"javascript:alert(1)//", 0},
    {"not a url", 0},
    {"", 0},
    {"/rules", 0},
    {"docs.example/rules", 0},
    {"https:/docs.example", 0},
    {"https:///rules", 0},
    {"ftp://docs.example/rules", 0},
    {"data:text/html,<b>x</b>", 0},
    {"https://docs.example/a b", 0},
};

START_TEST(is_link)
{
    ck_assert_msg(uri_is_link(links[_i].s) == links[_i].link, "uri_is_link(\"%s\") != %d",
                  links[_i].s, links[_i].link);
}
END_TEST

Suite *uri_suite(void)
{
    Suite *s = suite_create("uri");
    TCase *tc = tcase_create("core");
    tcase_add_loop_test(tc, resolves, 0, (int)(sizeof resolved / sizeof resolved[0]));
    tcase_add_loop_test(tc, refuses, 0, (int)(sizeof refused / sizeof refused[0]));
    tcase_add_loop_test(tc, checks, 0, (int)(sizeof checked / sizeof checked[0]));
    tcase_add_test(tc, splits_and_paths);
    tcase_add_loop_test(tc, is_link, 0, (int)(sizeof links / sizeof links[0]));
    suite_add_tcase(s, tc);
    return s;
}
