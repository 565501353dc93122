/* check_release.c - what a binary trusts (rules/release.h, docs/releases.md): the table of
 * shipped tags, pins, the order of the file lists of a refusal, the release search path
 * and the library's way to load a release by tag and check a digest (mcpdesc.h). */
#include <check.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/util.h"
#include "rules/lock.h"
#include "judge/mcpdesc.h"
#include "rules/release.h"
#include "testutil.h"

/* the digest of rules-yaml/releases/mcpdesc-mcp@v0.9.0-rc.12/rules/SHA256SUMS */
static const char rc12[] =
    "sha256:630c26180fe16e39d6b439f0413107d9cccbc62f5247963acbc3cea688d58393";

START_TEST(test_shipped_table)
{
    const struct release_shipped *s = release_shipped_find("mcpdesc-mcp", "v0.9.0-rc.12");
    ck_assert_ptr_nonnull(s);
    ck_assert_str_eq(s->digest, rc12);
    ck_assert_ptr_nonnull(strstr(s->sums, "  tool.yaml\n"));
    /* first-format tags: the digest of the release, from its TAG.digest record */
    s = release_shipped_find("mcpdesc-mcp", "v0.9.0-rc.3");
    ck_assert_ptr_nonnull(s);
    ck_assert_str_eq(s->digest,
                     "sha256:a64f09f5ff79abd365c53e9a8cdf47545dfb681e335fa5cbbd431c146448dce7");
    ck_assert_ptr_null(release_shipped_find("mcpdesc-mcp", "v0.9.0-rc.99"));
    ck_assert_ptr_null(release_shipped_find("acme-policy", "v1.0.0"));
    ck_assert(release_shipped_name("mcpdesc-mcp"));
    ck_assert(!release_shipped_name("acme-policy"));
    char *list = release_shipped_list("mcpdesc-mcp");
    ck_assert_ptr_nonnull(strstr(list, "v0.9.0-rc.3, v0.9.0-rc.4"));
    ck_assert_ptr_nonnull(strstr(list, "v0.9.0-rc.9, v0.9.0-rc.10")); /* version order */
    free(list);
}
END_TEST

START_TEST(test_parse_pin)
{
    char *name, *tag, *digest;
    const char *hex = rc12 + 7;
    char *spec = xasprintf("mcpdesc-mcp@v0.9.0-rc.12@sha256:%s", hex);
    ck_assert_int_eq(release_parse_pin(spec, "dflt", &name, &tag, &digest), 0);
    ck_assert_str_eq(name, "mcpdesc-mcp");
    ck_assert_str_eq(tag, "v0.9.0-rc.12");
    ck_assert_str_eq(digest, rc12);
    free(name), free(tag), free(digest), free(spec);
    spec = xasprintf("v1@sha256:%s", hex); /* a bare tag takes the default name */
    ck_assert_int_eq(release_parse_pin(spec, "dflt", &name, &tag, &digest), 0);
    ck_assert_str_eq(name, "dflt");
    ck_assert_str_eq(tag, "v1");
    free(name), free(tag), free(digest), free(spec);
    ck_assert_int_eq(release_parse_pin("a@v1", "dflt", &name, &tag, &digest), 0);
    ck_assert_ptr_null(digest);
    free(name), free(tag);
    static const char *const bad[] = {
        "a@v1@sha256:abc", /* too short */
        "a@v1@sha256:",    /* empty */
        "a@v1@sha512:00",  /* another hash: its @ makes a bad tag */
        "a@v1@sha256:630C26180FE16E39D6B439F0413107D9CCCBC62F5247963ACBC3CEA688D58393",
        "A@v1", /* not a name */
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        ck_assert_msg(release_parse_pin(bad[i], "dflt", &name, &tag, &digest) < 0, "%s", bad[i]);
    spec = xasprintf("a@v1@sha256:%s0", hex); /* 65 digits */
    ck_assert_int_lt(release_parse_pin(spec, "dflt", &name, &tag, &digest), 0);
    free(spec);
}
END_TEST

START_TEST(test_differences_order)
{
    static const char h1[] = "1111111111111111111111111111111111111111111111111111111111111111";
    static const char h2[] = "2222222222222222222222222222222222222222222222222222222222222222";
    struct buf want = BUF_INIT, have = BUF_INIT, out = BUF_INIT;
    /* nine files missing before the one that differs, in the release's order */
    for (int i = 0; i < 9; i++) buf_addf(&want, "%s  ../conformance/f%d.json\n", h1, i);
    buf_addf(&want, "%s  tool.yaml\n", h1);
    buf_addf(&have, "%s  tool.yaml\n%s  extra.yaml\n", h2, h1);
    lock_sums_differences(buf_str(&want), buf_str(&have), &out);
    const char *s = buf_str(&out);
    ck_assert_msg(!strncmp(s, "  tool.yaml: differs from the release's file\n", 45), "%s", s);
    ck_assert_ptr_nonnull(strstr(s, "  ../conformance/f0.json: in the release's SHA256SUMS"));
    ck_assert_ptr_nonnull(strstr(s, "  ... and 3 more\n")); /* 1 + 9 + 1, eight shown */
    buf_release(&want), buf_release(&have), buf_release(&out);
}
END_TEST

START_TEST(test_search_path)
{
    setenv("MCPDESC_RULES_PATH", "/a:/b::/a", 1);
    struct release_search s;
    release_search_init(&s);
    ck_assert_uint_ge(s.path.n, 3);
    ck_assert_str_eq(s.path.dirs[0], "/a"); /* in order, each once, empty parts skipped */
    ck_assert_str_eq(s.path.dirs[1], "/b");
    ck_assert_str_ne(s.path.dirs[2], "/a");
    release_search_release(&s);
    unsetenv("MCPDESC_RULES_PATH");
    /* the unit tests are not the source tree's mcpdesc: its rules-yaml/ is not theirs */
    ck_assert_ptr_null(release_tree_root());
}
END_TEST

START_TEST(test_load_tag)
{
    char *releases = xasprintf("%s/../../rules-yaml/releases", tu_data_dir());
    setenv("MCPDESC_RULES_PATH", releases, 1);
    char *err = (char *)"unset";
    mcpdesc_rules *r = mcpdesc_rules_load_tag("v0.9.0-rc.12", &err);
    ck_assert_msg(r != NULL, "%s", err);
    ck_assert_ptr_null(err);
    ck_assert_str_eq(mcpdesc_rules_tag(r), "v0.9.0-rc.12");
    ck_assert_str_eq(mcpdesc_rules_digest(r), rc12);
    ck_assert(mcpdesc_rules_verify_digest(r, rc12));
    ck_assert(!mcpdesc_rules_verify_digest(r, "sha256:00"));
    mcpdesc_rules_free(r);

    char *spec = xasprintf("mcpdesc-mcp@v0.9.0-rc.12@%s", rc12);
    r = mcpdesc_rules_load_tag(spec, &err);
    ck_assert_msg(r != NULL, "%s", err);
    mcpdesc_rules_free(r);
    free(spec);
    spec = xasprintf("mcpdesc-mcp@v0.9.0-rc.12@sha256:%064d", 0);
    r = mcpdesc_rules_load_tag(spec, &err);
    ck_assert_ptr_null(r);
    ck_assert_ptr_nonnull(strstr(err, "not the pinned"));
    ck_assert_ptr_nonnull(strstr(err, rc12)); /* both digests */
    free(err);
    free(spec);
    r = mcpdesc_rules_load_tag("v0.0.1", &err);
    ck_assert_ptr_null(r);
    ck_assert_ptr_nonnull(strstr(err, "no release mcpdesc-mcp@v0.0.1"));
    free(err);
    r = mcpdesc_rules_load_tag("not a tag", &err);
    ck_assert_ptr_null(r);
    free(err);
    unsetenv("MCPDESC_RULES_PATH");
    free(releases);
}
END_TEST

START_TEST(test_refuses_rehashed)
{
    /* a copy of rc.12 whose tool.yaml changed and whose SHA256SUMS was rewritten to match */
    char dir[] = "/tmp/mcpdesc-rehash-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char *data = realpath(tu_data_dir(), NULL);
    ck_assert_ptr_nonnull(data);
    char *cmd = xasprintf("cd %s && ROOT=%s/../.. sh %s/releases/tamper.sh "
                          "mcpdesc-mcp@v0.9.0-rc.12 mcpdesc-mcp@v0.9.0-rc.12 >/dev/null",
                          dir, data, data);
    free(data);
    ck_assert_int_eq(system(cmd), 0);
    free(cmd);
    char *rel = xasprintf("%s/mcpdesc-mcp@v0.9.0-rc.12", dir);
    char *err = NULL;
    mcpdesc_rules *r = mcpdesc_rules_load(rel, &err);
    ck_assert_ptr_null(r);
    ck_assert_ptr_nonnull(err);
    ck_assert_ptr_nonnull(strstr(err, "is not the release mcpdesc-mcp@v0.9.0-rc.12"));
    ck_assert_ptr_nonnull(strstr(err, "tool.yaml: differs from the release's file"));
    free(err);
    setenv("MCPDESC_RULES_PATH", dir, 1); /* found by tag first on the search path */
    r = mcpdesc_rules_load_tag("v0.9.0-rc.12", &err);
    ck_assert_ptr_null(r);
    ck_assert_ptr_nonnull(strstr(err, "is not the release"));
    free(err);
    unsetenv("MCPDESC_RULES_PATH");
    free(rel);
    tu_rmdir(xstrdup(dir));
}
END_TEST

Suite *release_suite(void)
{
    Suite *s = suite_create("release");
    TCase *tc = tcase_create("trust");
    tcase_add_test(tc, test_shipped_table);
    tcase_add_test(tc, test_parse_pin);
    tcase_add_test(tc, test_differences_order);
    tcase_add_test(tc, test_search_path);
    tcase_add_test(tc, test_load_tag);
    tcase_add_test(tc, test_refuses_rehashed);
    suite_add_tcase(s, tc);
    return s;
}
