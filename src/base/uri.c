/* uri.c - RFC 3986 through uriparser; see uri.h. */
#include "base/uri.h"

#include <stdint.h>
#include <string.h>
#include <strings.h>
#include <uriparser/Uri.h>

#include "base/buf.h"
#include "base/util.h"

/* uriparser allocates through these: out of memory aborts, as everywhere else. */
static void *mm_malloc(UriMemoryManager *m, size_t n)
{
    (void)m;
    return xmalloc(n);
}

static void *mm_calloc(UriMemoryManager *m, size_t count, size_t size)
{
    (void)m;
    return xcalloc(count, size);
}

static void *mm_realloc(UriMemoryManager *m, void *p, size_t n)
{
    (void)m;
    return xrealloc(p, n);
}

static void *mm_reallocarray(UriMemoryManager *m, void *p, size_t count, size_t size)
{
    (void)m;
    if (size && count > SIZE_MAX / size) return NULL; /* as reallocarray(3) */
    return xrealloc(p, count * size);
}

static void mm_free(UriMemoryManager *m, void *p)
{
    (void)m;
    free(p);
}

static void mm_init(UriMemoryManager *mm)
{
    mm->malloc = mm_malloc;
    mm->calloc = mm_calloc;
    mm->realloc = mm_realloc;
    mm->reallocarray = mm_reallocarray;
    mm->free = mm_free;
    mm->userData = NULL;
}

/* Parse S[0..N) into *U. 0, or -1 with *WHY (new, when WHY is not NULL) saying where
 * the syntax breaks. On success the caller frees *U's members. */
static int parse(const char *s, size_t n, UriUriA *u, UriMemoryManager *mm, char **why)
{
    const char *err = NULL;
    int rc = uriParseSingleUriExMmA(u, s, s + n, &err, mm);
    if (rc == URI_SUCCESS) return 0;
    if (why) {
        size_t at = err && err >= s && err <= s + n ? (size_t)(err - s) : n;
        unsigned char c = at < n ? (unsigned char)s[at] : 0;
        if (at >= n) *why = xstrdup("the parse fails at its end");
        else if (c < 0x20 || c == 0x7F)
            *why =
                xasprintf("the parse fails at character %zu (control character 0x%02X)", at + 1, c);
        else if (c >= 0x80)
            *why = xasprintf("the parse fails at character %zu (non-ASCII byte 0x%02X)", at + 1, c);
        else *why = xasprintf("the parse fails at character %zu ('%c')", at + 1, c);
    }
    return -1;
}

int uri_check(const char *s, int allow_relative)
{
    UriMemoryManager mm;
    mm_init(&mm);
    UriUriA u;
    if (parse(s, strlen(s), &u, &mm, NULL) < 0) return 0;
    int ok = allow_relative || u.scheme.first != NULL;
    uriFreeUriMembersMmA(&u, &mm);
    return ok;
}

int uri_is_link(const char *s)
{
    UriMemoryManager mm;
    mm_init(&mm);
    UriUriA u;
    if (parse(s, strlen(s), &u, &mm, NULL) < 0) return 0;
    size_t n = u.scheme.first ? (size_t)(u.scheme.afterLast - u.scheme.first) : 0;
    int web = (n == 4 && !strncasecmp(s, "http", 4)) || (n == 5 && !strncasecmp(s, "https", 5));
    int file = n == 4 && !strncasecmp(s, "file", 4);
    int ok = (web || file) && !strncmp(s + n, "://", 3) &&
        (file || (u.hostText.first && u.hostText.afterLast > u.hostText.first));
    uriFreeUriMembersMmA(&u, &mm);
    return ok;
}

/* uriparser writes an IP literal host from its bytes ("[::1]" as "[0000:...:0001]"):
 * make *U's host its text again, so that resolving changes no host. */
static void host_as_written(UriUriA *u, UriMemoryManager *mm)
{
    if (u->hostData.ip4) {
        mm->free(mm, u->hostData.ip4);
        u->hostData.ip4 = NULL; /* written as hostText, the reg-name it also is */
    }
    if (u->hostData.ip6) {
        mm->free(mm, u->hostData.ip6);
        u->hostData.ip6 = NULL;
        u->hostData.ipFuture = u->hostText; /* written as "[" hostText "]" */
    }
}

/* *U as a string (new). */
static char *to_string(const UriUriA *u)
{
    int n = 0;
    if (uriToStringCharsRequiredA(u, &n) != URI_SUCCESS) BUG("uriToStringCharsRequiredA");
    char *s = xmalloc((size_t)n + 1);
    if (uriToStringA(s, u, n + 1, NULL) != URI_SUCCESS) BUG("uriToStringA");
    return s;
}

/* A scheme put in front of a relative base, taken off the target again: RFC 3986
 * resolves against absolute URIs only, and a URI reference never starts with ':'. */
#define NO_SCHEME "x:"

char *uri_resolve(const char *base, const char *ref, char **why)
{
    UriMemoryManager mm;
    mm_init(&mm);
    if (!base) base = "";
    const char *rhash = strchr(ref, '#'), *bhash = strchr(base, '#');
    size_t rn = rhash ? (size_t)(rhash - ref) : strlen(ref);
    size_t bn = bhash ? (size_t)(bhash - base) : strlen(base);
    UriUriA B, R, T;
    char *reason = NULL;
    if (parse(ref, rn, &R, &mm, &reason) < 0) {
        *why = xasprintf("is not a URI reference: %s", reason);
        free(reason);
        return NULL;
    }
    if (parse(base, bn, &B, &mm, &reason) < 0) {
        *why = xasprintf("cannot be resolved against the base URI \"%.*s\", which is not a "
                         "URI reference: %s",
                         (int)bn, base, reason);
        free(reason);
        uriFreeUriMembersMmA(&R, &mm);
        return NULL;
    }
    int ref_scheme = R.scheme.first != NULL;
    char *relative_base = NULL;
    if (!B.scheme.first) {
        uriFreeUriMembersMmA(&B, &mm);
        relative_base = xasprintf(NO_SCHEME "%.*s", (int)bn, base);
        if (parse(relative_base, strlen(relative_base), &B, &mm, NULL) < 0)
            BUG("a relative reference with a scheme in front is a URI");
    }
    int rc = uriAddBaseUriExMmA(&T, &R, &B, URI_RESOLVE_STRICTLY, &mm);
    uriFreeUriMembersMmA(&R, &mm);
    uriFreeUriMembersMmA(&B, &mm);
    if (rc != URI_SUCCESS) BUG("uriAddBaseUriExMmA refused an absolute base");
    if (T.owner) BUG("uriAddBaseUriExMmA made an owner"); /* host_as_written shares text */
    host_as_written(&T, &mm);
    char *t = to_string(&T);
    uriFreeUriMembersMmA(&T, &mm);
    const char *body = t;
    if (relative_base && !ref_scheme) {
        if (strncmp(t, NO_SCHEME, strlen(NO_SCHEME))) BUG("the target lost the base's scheme");
        body += strlen(NO_SCHEME);
    }
    free(relative_base);
    struct buf out = BUF_INIT;
    buf_adds(&out, body);
    if (rhash) buf_adds(&out, rhash);
    free(t);
    return out.s ? buf_detach(&out) : xstrdup("");
}

char *uri_split_fragment(const char *uri, const char **frag)
{
    const char *h = strchr(uri, '#');
    *frag = h ? h + 1 : NULL;
    return h ? xstrndup(uri, (size_t)(h - uri)) : xstrdup(uri);
}

char *uri_from_path(const char *path)
{
    char *u = xmalloc(8 + 3 * strlen(path) + 1);
    if (uriUnixFilenameToUriStringA(path, u) != URI_SUCCESS) BUG("uriUnixFilenameToUriStringA");
    return u;
}
