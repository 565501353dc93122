/* fn_mentions.c - the predicate mentions: does a text name something as a call target (a
 * tool to call) or as a parameter to fill, and is that name one the rule counts (in its
 * `names`, or among the strings some selectors reach) and not one of the names its
 * `except` selectors reach (the server's own tools)? A tool's description that steers the
 * model to another server's tool is the cross-tool manipulation of the security rules
 * (issue 29) and the cross-server reference of issue 30; a note on the server's own tools
 * ("call resolve-library-id before get-library-docs") is ordinary documentation.
 *
 * The text is read once, left to right, as words: maximal runs of the bytes a name, a path
 * or a URL is made of, so that `https://x/y_z` and `~/.ssh/id_rsa` stay one word each and
 * are never names. How a name stands is decided from the word, its quotes, the word after
 * it and the three words before it, with fixed English word lists (below): deterministic,
 * linear in the text, and documented in rules-yaml/README.md (Predicates, mentions). */
#include <ctype.h>
#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include <strings.h>

#include "rules/fnInt.h"

#define NAME_MAX_LEN 128 /* MCP 2025-11-25 tools.mdx "Tool names": 1 to 128 characters */
#define LOOK_BACK 3      /* words between a verb and its name, the verb included */

enum mentions_as { AS_CALL_TARGET, AS_PARAMETER };

static void byte_classes(void); /* the byte table of word_byte, filled once */

/* What the evaluation needs of the argument, read once when compiled (a rule over every
 * text evaluates it millions of times). */
struct mentions_prog {
    enum mentions_as as;
    json_int_t up, depth; /* -1: not given */
    int relative;         /* a selector of except or among is relative */
    int any_tool_like;    /* neither names nor among: every tool-like name is a candidate */
};

/* ---- compile ---- */

/* One entry of except or among: a selector (its string values count), {keys: SELECTOR}
 * (the member names of the objects it reaches count) or {session: SELECTOR} (its string
 * values in the session's other documents: validate --together). A holder's arg is
 * {"role": "except" or "among", "keys": BOOL}; a session selector's holder has session set. */
static int add_selectors(struct cc *cc, struct pred *p, struct yv list, const char *role)
{
    if (!list.v) return 0;
    if (!json_is_array(list.v) || !json_array_size(list.v)) {
        rule_cc_error(cc, list.n, 0,
                      "mentions: \"%s\" takes a non-empty list of selectors (a selector, or "
                      "{keys: SELECTOR} for the member names of the objects it reaches), not %s%s",
                      role, json_is_array(list.v) ? "an empty list" : "a ",
                      json_is_array(list.v) ? "" : rule_json_type_name(list.v));
        return -1;
    }
    p->kids = xrealloc(p->kids, (p->nkids + json_array_size(list.v)) * sizeof *p->kids);
    for (size_t i = 0; i < json_array_size(list.v); i++) {
        struct yv e = rule_yv_item(cc, list, i);
        int keys = 0, session = 0;
        if (json_is_object(e.v)) {
            struct yv k = rule_yv_member(cc, e, "keys");
            struct yv ss = rule_yv_member(cc, e, "session");
            if (!(k.v || ss.v) || json_object_size(e.v) != 1) {
                rule_cc_error(cc, e.n, 0,
                              "mentions: an entry of \"%s\" is a selector, {keys: SELECTOR} or "
                              "{session: SELECTOR}, nothing else",
                              role);
                return -1;
            }
            if (ss.v && strcmp(role, "among")) {
                rule_cc_error(cc, e.n, 0,
                              "mentions: {session: SELECTOR} belongs in \"among\" (the other "
                              "documents' names that count), not in \"%s\"",
                              role);
                return -1;
            }
            e = k.v ? k : ss;
            keys = k.v != NULL;
            session = ss.v != NULL;
        }
        if (!json_is_string(e.v)) {
            rule_cc_error(cc, e.n, 0, "mentions: a selector of \"%s\" is a string, not a %s", role,
                          rule_json_type_name(e.v));
            return -1;
        }
        struct sel *sl = rule_cc_sel(cc, e);
        if (!sl) return -1;
        p->kids[p->nkids++] = fn_sel_holder(sl, json_pack("{s:s,s:b}", "role", role, "keys", keys));
        p->kids[p->nkids - 1]->session = session;
    }
    return 0;
}

/* mentions: {as: call-target | parameter, names: [NAME, ...], among: [SEL, ...],
 *            except: [SEL, ...], up: N, depth: N} */
int fn_mentions_arg(struct cc *cc, struct pred *p, struct yv arg)
{
    static const char *const allowed[] = {"as", "names", "among", "except", "up", "depth", NULL};
    if (!json_is_object(arg.v) || !json_object_size(arg.v)) {
        rule_cc_error(cc, arg.n, 0, "mentions takes a mapping %s, not a %s%s", p->fn->synopsis,
                      json_is_object(arg.v) ? "empty " : "", rule_json_type_name(arg.v));
        return -1;
    }
    size_t i = 0;
    for (void *it = json_object_iter(arg.v); it; it = json_object_iter_next(arg.v, it), i++) {
        const char *k = json_object_iter_key(it);
        size_t j = 0;
        while (allowed[j] && strcmp(allowed[j], k)) j++;
        if (!allowed[j]) {
            rule_cc_error_hint(cc, doc_node_item(cc->d, arg.n, i), 1, rule_hint_unknown_member,
                               "unknown member \"%s\" in mentions (it takes %s)", k,
                               p->fn->synopsis);
            return -1;
        }
    }
    struct yv as = rule_yv_member(cc, arg, "as");
    if (!as.v) {
        rule_cc_error(cc, arg.n, 0,
                      "mentions needs \"as\": how a name must stand in the text to count "
                      "(call-target or parameter)");
        return -1;
    }
    const char *how = json_string_value(as.v);
    if (!how || (strcmp(how, "call-target") && strcmp(how, "parameter"))) {
        rule_cc_error(cc, as.n, 0, "mentions: \"as\" takes call-target or parameter, not %s%s%s",
                      how ? "\"" : "a ", how ? how : rule_json_type_name(as.v), how ? "\"" : "");
        return -1;
    }
    struct yv names = rule_yv_member(cc, arg, "names");
    if (names.v) {
        int ok = json_is_array(names.v) && json_array_size(names.v);
        for (size_t k = 0; ok && k < json_array_size(names.v); k++) {
            json_t *n = json_array_get(names.v, k);
            ok = json_is_string(n) && json_string_length(n) &&
                json_string_length(n) == strlen(json_string_value(n));
            if (!ok) {
                rule_cc_error(cc, rule_yv_item(cc, names, k).n, 0,
                              "mentions: a name of \"names\" is a non-empty string, not %s%s",
                              json_is_string(n) ? "an empty one" : "a ",
                              json_is_string(n) ? "" : rule_json_type_name(n));
                return -1;
            }
        }
        if (!ok) {
            rule_cc_error(cc, names.n, 0,
                          "mentions: \"names\" takes a non-empty list of names, not %s%s",
                          json_is_array(names.v) ? "an empty list" : "a ",
                          json_is_array(names.v) ? "" : rule_json_type_name(names.v));
            return -1;
        }
    }
    json_int_t up = -1, depth = -1;
    for (int k = 0; k < 2; k++) {
        const char *key = k ? "depth" : "up";
        struct yv y = rule_yv_member(cc, arg, key);
        if (!y.v) continue;
        if (!json_is_integer(y.v) || json_integer_value(y.v) < 0) {
            rule_cc_error(cc, y.n, 0, "mentions: \"%s\" must be a non-negative integer, not %s",
                          key, json_is_integer(y.v) ? "a negative one" : rule_json_type_name(y.v));
            return -1;
        }
        *(k ? &depth : &up) = json_integer_value(y.v);
    }
    if (up >= 0 && depth >= 0) {
        rule_cc_error(cc, rule_yv_member(cc, arg, "depth").n, 1,
                      "mentions takes \"up\" or \"depth\", not both");
        return -1;
    }
    struct yv among = rule_yv_member(cc, arg, "among");
    if (!strcmp(how, "parameter") && !names.v && !among.v) {
        rule_cc_error(cc, as.n, 0,
                      "mentions as a parameter needs \"names\" or \"among\": the parameter "
                      "names that count (e.g. among: [{keys: inputSchema/properties}], up: 1)");
        return -1;
    }
    if (add_selectors(cc, p, rule_yv_member(cc, arg, "except"), "except") < 0 ||
        add_selectors(cc, p, among, "among") < 0)
        return -1;
    p->arg = json_deep_copy(arg.v);
    json_object_set_new(p->arg, "up", json_integer(up));
    json_object_set_new(p->arg, "depth", json_integer(depth));
    byte_classes(); /* before any evaluation */
    struct mentions_prog *mp = xcalloc(1, sizeof *mp);
    mp->as = strcmp(how, "parameter") ? AS_CALL_TARGET : AS_PARAMETER;
    mp->up = up;
    mp->depth = depth;
    mp->any_tool_like = !names.v && !among.v;
    for (size_t k = 0; k < p->nkids; k++)
        if (!p->kids[k]->session && !sel_is_absolute(p->kids[k]->sel)) mp->relative = 1;
    p->data = mp;
    return 0;
}

void fn_mentions_free(struct pred *p)
{
    free(p->data);
}

/* ---- sets of names, compared without ASCII case and without - and _ ----
 * list_followed_projects, listFollowedProjects and List-Followed-Projects are one name:
 * servers and their descriptions spell a tool's name each way. */

static int folded_out(unsigned char c)
{
    return c == '-' || c == '_';
}

static uint64_t fold_hash(const char *s, size_t n)
{
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++)
        if (!folded_out((unsigned char)s[i]))
            h = (h ^ (unsigned char)tolower((unsigned char)s[i])) * 1099511628211ull;
    return h;
}

static int fold_equal(const char *a, size_t la, const char *b, size_t lb)
{
    size_t i = 0, j = 0;
    for (;;) {
        while (i < la && folded_out((unsigned char)a[i])) i++;
        while (j < lb && folded_out((unsigned char)b[j])) j++;
        if (i == la || j == lb) return i == la && j == lb;
        if (tolower((unsigned char)a[i]) != tolower((unsigned char)b[j])) return 0;
        i++, j++;
    }
}

/* Where a name of another document of the session stands (its first occurrence). */
struct name_origin {
    const doc *d; /* NULL: a name of this document, or of the rule's names */
    doc_node node;
    char *pointer;
    json_t *v;
};

struct name_set {
    size_t len, cap; /* cap: a power of two, at least twice len (0: empty) */
    struct {
        char *s;
        size_t n;
        struct name_origin from;
    } * slot;
    int given; /* the rule names this set (it may still be empty in a document) */
};

static size_t set_slot(const struct name_set *set, const char *s, size_t n)
{
    size_t i = (size_t)fold_hash(s, n) & (set->cap - 1);
    while (set->slot[i].s && !fold_equal(set->slot[i].s, set->slot[i].n, s, n))
        i = (i + 1) & (set->cap - 1);
    return i;
}

static void set_add_from(struct name_set *set, const char *s, size_t n,
                         const struct name_origin *from);

static void set_add(struct name_set *set, const char *s, size_t n)
{
    set_add_from(set, s, n, NULL);
}

static void set_add_from(struct name_set *set, const char *s, size_t n,
                         const struct name_origin *from)
{
    if (2 * (set->len + 1) > set->cap) {
        struct name_set old = *set;
        set->cap = old.cap ? 2 * old.cap : 16;
        set->slot = xcalloc(set->cap, sizeof *set->slot);
        for (size_t i = 0; i < old.cap; i++)
            if (old.slot[i].s) set->slot[set_slot(set, old.slot[i].s, old.slot[i].n)] = old.slot[i];
        free(old.slot);
    }
    size_t i = set_slot(set, s, n);
    if (set->slot[i].s) return;
    set->slot[i].s = xstrndup(s, n);
    set->slot[i].n = n;
    if (from) set->slot[i].from = *from;
    set->len++;
}

static int set_has(const struct name_set *set, const char *s, size_t n)
{
    return set->len && set->slot[set_slot(set, s, n)].s;
}

/* Where the name S (N bytes) of SET comes from, or NULL when not from another document. */
static const struct name_origin *set_origin(const struct name_set *set, const char *s, size_t n)
{
    if (!set->len) return NULL;
    size_t i = set_slot(set, s, n);
    return set->slot[i].s && set->slot[i].from.d ? &set->slot[i].from : NULL;
}

static void set_free(struct name_set *set)
{
    for (size_t i = 0; i < set->cap; i++) {
        free(set->slot[i].s);
        free(set->slot[i].from.pointer);
    }
    free(set->slot);
}

/* What a mentions predicate compares with in one document (from one base node): built
 * once and kept with the document's indexes (fn_cache_get). */
struct known {
    struct name_set except, allowed; /* allowed: names and among */
};

static void known_free(void *data)
{
    struct known *k = data;
    set_free(&k->except);
    set_free(&k->allowed);
    free(k);
}

struct collect {
    struct name_set *set;
    int keys;
    const doc *d; /* a session document the selector runs over, or NULL: this one */
};

static int collect_visit(const struct cursor *c, void *arg)
{
    struct collect *co = arg;
    if (co->keys) {
        if (!json_is_object(c->v)) return 0;
        for (void *it = json_object_iter(c->v); it; it = json_object_iter_next(c->v, it))
            set_add(co->set, json_object_iter_key(it), strlen(json_object_iter_key(it)));
    } else if (json_is_string(c->v) && co->d) {
        struct name_origin from = {co->d, c->node, NULL, c->v};
        const char *s = json_string_value(c->v);
        size_t n = json_string_length(c->v);
        if (!set_has(co->set, s, n)) { /* set_add_from keeps only a first origin */
            from.pointer = sel_pointer(c);
            set_add_from(co->set, s, n, &from);
        }
    } else if (json_is_string(c->v)) {
        set_add(co->set, json_string_value(c->v), json_string_length(c->v));
    }
    return 0;
}

static const struct known *known_get(const struct pred *p, const struct cursor *c,
                                     struct eval_ctx *ctx)
{
    const struct mentions_prog *mp = p->data;
    const struct cursor *base = NULL; /* absolute selectors only: one for the document */
    if (mp->relative) {
        base = c;
        for (json_int_t i = 0; base && i < mp->up; i++) base = base->parent;
        if (mp->depth >= 0) {
            while (base && base->depth > mp->depth) base = base->parent;
            if (base && base->depth != mp->depth) base = NULL;
        }
    }
    struct known *k = fn_cache_get(ctx, p, base);
    if (k) return k;
    k = xcalloc(1, sizeof *k);
    json_t *names = json_object_get(p->arg, "names"), *n;
    size_t i;
    json_array_foreach(names, i, n)
        set_add(&k->allowed, json_string_value(n), json_string_length(n));
    k->allowed.given = names != NULL;
    for (i = 0; i < p->nkids; i++) {
        const struct pred *h = p->kids[i];
        int except = !strcmp(json_string_value(json_object_get(h->arg, "role")), "except");
        struct collect co = {except ? &k->except : &k->allowed,
                             json_is_true(json_object_get(h->arg, "keys")), NULL};
        co.set->given = 1;
        if (h->session) { /* from the root of every other document of the session */
            const struct rule_session *ss = ctx->session;
            for (size_t j = 0; ss && j < ss->n; j++) {
                if (j == ss->self) continue;
                struct sel_ctx other = {ss->docs[j].d, ss->docs[j].view};
                co.d = ss->docs[j].d;
                sel_run(h->sel, &other, NULL, collect_visit, &co);
            }
            continue;
        }
        if (sel_is_absolute(h->sel) || base) sel_run(h->sel, &ctx->sctx, base, collect_visit, &co);
    }
    fn_cache_put(ctx, p, base, k, known_free);
    return k;
}

/* ---- reading the text ---- */

/* The bytes of a word: a name's ([A-Za-z0-9_.-]) and those that make it a path, a URL, an
 * address or an expression instead (a word with any of them is not a name). */
static unsigned char byte_class[256]; /* BYTE_*: filled once */
enum {
    BYTE_WORD = 1,   /* word_byte */
    BYTE_CLAUSE = 2, /* ends a clause between words */
    BYTE_NAME = 4,   /* in a name: [A-Za-z0-9_.-] */
    BYTE_SHAPE = 8   /* what makes a name tool-like: _ - or an uppercase letter */
};

static void byte_classes_fill(void)
{
    byte_class[0] = BYTE_CLAUSE; /* as strchr found it: a NUL in a text ends a clause */
    for (int c = 1; c < 256; c++)
        byte_class[c] =
            (unsigned char)((isalnum(c) || strchr("_.-:/\\~@%$=?&#+", c) ? BYTE_WORD : 0) |
                            (strchr(".;:!?|\n\r", c) ? BYTE_CLAUSE : 0) |
                            (isalnum(c) || strchr("_.-", c) ? BYTE_NAME : 0) |
                            (isupper(c) || c == '_' || c == '-' ? BYTE_SHAPE : 0));
}

static void byte_classes(void)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, byte_classes_fill);
}

static int word_byte(unsigned char c)
{
    return byte_class[c] & BYTE_WORD;
}

/* A code point at or before a position: decoded from valid UTF-8 (jansson's strings are). */
static uint32_t cp_at(const unsigned char *s, size_t n, size_t at)
{
    unsigned char c = s[at];
    int len = c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
    uint32_t cp = c & (len == 2 ? 0x1F : len == 3 ? 0x0F : 0x07);
    for (int i = 1; i < len && at + (size_t)i < n; i++) cp = cp << 6 | (s[at + i] & 0x3F);
    return cp;
}

static uint32_t cp_before(const unsigned char *s, size_t n, size_t at)
{
    size_t i = at - 1;
    while (i > 0 && at - i < 4 && (s[i] & 0xC0) == 0x80) i--;
    return cp_at(s, n, i);
}

/* Non-ASCII code points that separate words (punctuation, spaces, symbols, arrows, CJK
 * punctuation, emoji); any other one is taken for a letter, and a name glued to a letter
 * ("naïve_bayes" read as "ve_bayes") is no name. */
static int cp_separates(uint32_t cp)
{
    return (cp >= 0x80 && cp <= 0xBF) || cp == 0xD7 || cp == 0xF7 ||
        (cp >= 0x2000 && cp <= 0x2BFF) || (cp >= 0x3000 && cp <= 0x303F) ||
        (cp >= 0xFE30 && cp <= 0xFE4F) || (cp >= 0xFF01 && cp <= 0xFF0F) ||
        (cp >= 0xFF1A && cp <= 0xFF20) || (cp >= 0x1F000 && cp <= 0x1FAFF);
}

/* Quotes that make a name quoted or code-formatted: an opening one just before it and its
 * closing one just after it (or after "()"). */
#define QUOTE(open, close, how)                                                                    \
    {                                                                                              \
        open, close, how, sizeof open - 1, sizeof close - 1                                        \
    }
static const struct {
    const char *open, *close, *how;
    size_t lo, lc; /* their lengths in bytes */
} quotes[] = {
    QUOTE("`", "`", "code-formatted"),   QUOTE("'", "'", "quoted"),
    QUOTE("\"", "\"", "quoted"),         QUOTE("\u201C", "\u201D", "quoted"),
    QUOTE("\u2018", "\u2019", "quoted"), QUOTE("\u00AB", "\u00BB", "quoted"),
    QUOTE("\u201E", "\u201C", "quoted"), QUOTE("\u201E", "\u201D", "quoted"),
    QUOTE("\u2039", "\u203A", "quoted"), QUOTE("\u300C", "\u300D", "quoted"),
    QUOTE("\u300E", "\u300F", "quoted"),
};

static const char *quoted(const char *s, size_t n, size_t a, size_t b)
{
    for (size_t q = 0; q < sizeof quotes / sizeof *quotes; q++) {
        size_t lo = quotes[q].lo, lc = quotes[q].lc;
        if (a < lo || memcmp(s + a - lo, quotes[q].open, lo)) continue;
        size_t e = b + (n - b >= 2 && !memcmp(s + b, "()", 2) ? 2 : 0);
        if (n - e >= lc && !memcmp(s + e, quotes[q].close, lc)) return quotes[q].how;
    }
    return NULL;
}

enum gap { GAP_NONE, GAP_COMMA, GAP_CLAUSE };

struct word {
    size_t off, len; /* trailing . : ? / - taken off */
    enum gap before; /* what lies between the previous word and this one */
    int name;        /* shaped as a name and not glued to other text */
    int target;      /* stood as a counted (or own) name: "call a_b and c_d" */
};

/* Where the scan is: the next byte, and the gap the last word's trailing punctuation
 * began ("call it. send_email" ends a clause after "it"). */
struct reader {
    size_t pos;
    enum gap carry;
};

/* The next word (0 at the end), with the gap before it. */
static int next_word(const char *s, size_t n, struct reader *r, struct word *w)
{
    const unsigned char *u = (const unsigned char *)s;
    enum gap gap = r->carry;
    size_t i = r->pos;
    while (i < n && !word_byte(u[i])) {
        if (byte_class[u[i]] & BYTE_CLAUSE) gap = GAP_CLAUSE;
        else if (s[i] == ',' && gap == GAP_NONE) gap = GAP_COMMA;
        i++;
    }
    if (i >= n) return 0;
    size_t a = i;
    while (i < n && word_byte(u[i])) i++;
    size_t b = i;
    r->pos = i;
    r->carry = GAP_NONE;
    while (b > a &&
           (s[b - 1] == '.' || s[b - 1] == ':' || s[b - 1] == '?' || s[b - 1] == '/' ||
            s[b - 1] == '-')) {
        if (s[b - 1] != '/' && s[b - 1] != '-') r->carry = GAP_CLAUSE;
        b--;
    }
    w->off = a;
    w->len = b - a;
    w->before = gap;
    w->target = 0;
    w->name = w->len && w->len <= NAME_MAX_LEN && (isalpha(u[a]) || u[a] == '_');
    for (size_t k = a; w->name && k < b; k++) w->name = (byte_class[u[k]] & BYTE_NAME) != 0;
    if (w->name && a > 0 && u[a - 1] >= 0x80 && !cp_separates(cp_before(u, n, a))) w->name = 0;
    if (w->name && i < n && u[i] >= 0x80 && !cp_separates(cp_at(u, n, i))) w->name = 0;
    return 1;
}

/* Does W read as one of LIST's words (ASCII case aside)? */
static int word_is(const char *s, const struct word *w, const char *const *list)
{
    for (size_t i = 0; list[i]; i++)
        if (strlen(list[i]) == w->len && !strncasecmp(s + w->off, list[i], w->len)) return 1;
    return 0;
}

/* Verbs that make the name after them (within LOOK_BACK words, fillers between) a call
 * target: strong ones any tool-like name, weak ones only a sure one (stands: after "use",
 * "read-only" or "executionStats" is as likely English or an API's field as a tool). */
static const char *const strong_verbs[] = {"call",       "calls",    "calling", "invoke",
                                           "invokes",    "invoking", "trigger", "triggers",
                                           "triggering", NULL};
static const char *const weak_verbs[] = {"use",     "uses",    "using",    "run",       "runs",
                                         "running", "execute", "executes", "executing", NULL};
/* Verbs and prepositions that make the name after them a parameter to fill. */
static const char *const param_verbs[] = {
    "as",      "into",     "fill",      "fills",   "filling",  "put",       "puts",
    "putting", "pass",     "passes",    "passing", "set",      "sets",      "setting",
    "include", "includes", "including", "provide", "provides", "providing", NULL};
/* Verbs after which a name is a setting, not a call target ("set `max_tokens` to 10"). */
static const char *const set_verbs[] = {"set", "sets", "setting", "fill", "fills", "filling", NULL};
/* Words that may stand between a verb and its name. */
static const char *const fillers[] = {
    "the",  "a",    "an",     "this",  "that",    "these",    "those",  "its",      "their",
    "our",  "your", "my",     "other", "another", "external", "remote", "separate", "first",
    "then", "also", "always", "only",  "now",     "instead",  "mcp",    NULL};
/* A name followed by one of these is a tool ("the send_email tool"; not the plural: "use
 * search tools" names a kind of tool). */
static const char *const tool_nouns[] = {"tool", NULL};
/* A name followed by one of these is a parameter, a setting or a field, not a tool. */
static const char *const param_nouns[] = {
    "parameter",  "parameters", "param",   "params",   "argument",   "arguments", "arg",
    "args",       "field",      "fields",  "property", "properties", "option",    "options",
    "flag",       "flags",      "key",     "keys",     "input",      "value",     "values",
    "variable",   "variables",  "header",  "headers",  "setting",    "settings",  "attribute",
    "attributes", "column",     "columns", "mode",     "format",     "type",      NULL};
/* A name followed by one of these is something else than a tool: a state, a code, a
 * stored thing, a program, a kind of tool ("triggers input_required status", "the
 * agent-browser CLI", "use search tools"). */
static const char *const thing_nouns[] = {
    "tools",   "status",   "state",   "states",     "event",    "events",     "error",
    "errors",  "code",     "codes",   "block",      "blocks",   "object",     "objects",
    "index",   "indexes",  "stage",   "stages",     "operator", "module",     "modules",
    "package", "packages", "library", "libraries",  "file",     "files",      "directory",
    "folder",  "table",    "tables",  "collection", "database", "branch",     "label",
    "labels",  "tag",      "tags",    "class",      "cli",      "permission", "permissions",
    "scope",   "scopes",   "role",    "roles",      "token",    "tokens",     NULL};
static const char *const conjunctions[] = {"and", "or", NULL};

/* Shaped like a tool name (when no names are given): a lowercase first letter, and either
 * two parts that begin with a letter joined by _ or - (read_file, get-docs; not x86_64,
 * utf-8, Set-Cookie) or camelCase with a first part of two letters or more (sendEmail;
 * not iPhone, macOS). Not a file name or a domain (a last .part of one to four lowercase
 * letters or digits: package-lock.json, example.com). *PLAIN: without _, so as likely an
 * English compound or a field of an API (read-only, executionStats) as a tool. */
static int tool_like(const char *t, size_t n, int *plain)
{
    int lower = 0, us = 0, dash = 0, parts = 0, camel = 0;
    size_t dot = SIZE_MAX;
    /* most words are neither: no _ or -, no uppercase letter for camelCase, or not
     * beginning in lowercase (what *PLAIN says matters only for a tool-like name) */
    *plain = 1;
    if (!n || !islower((unsigned char)t[0])) return 0;
    unsigned shape = 0;
    for (size_t i = 0; i < n; i++) shape |= byte_class[(unsigned char)t[i]];
    if (!(shape & BYTE_SHAPE)) return 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)t[i];
        lower |= islower(c) != 0;
        us |= c == '_';
        dash |= c == '-';
        if (c == '.') dot = i;
        if (isalpha(c) && (i == 0 || t[i - 1] == '_' || t[i - 1] == '.' || t[i - 1] == '-'))
            parts++;
        if (i >= 1 && i + 1 < n && islower((unsigned char)t[i - 1]) && isupper(c) &&
            islower((unsigned char)t[i + 1]))
            camel = 1;
    }
    if (camel && !(n >= 2 && islower((unsigned char)t[0]) && islower((unsigned char)t[1])))
        camel = 0;
    *plain = !us;
    if (!lower || !islower((unsigned char)t[0])) return 0; /* SCREAMING_CASE, Set-Cookie */
    if (dot != SIZE_MAX && n - dot - 1 >= 1 && n - dot - 1 <= 4) {
        size_t k = dot + 1;
        while (k < n && (islower((unsigned char)t[k]) || isdigit((unsigned char)t[k]))) k++;
        if (k == n) return 0;
    }
    return ((us || dash) && parts >= 2) || camel;
}

/* The window the scan keeps: the word judged, up to LOOK_BACK words before it and the
 * one after it. */
struct window {
    struct word w[LOOK_BACK + 2]; /* w[0] the next word, w[1] the current, w[2..] before */
    size_t have;                  /* how many of them are real (from w[0]) */
};

/* The verb of LIST governing the current word: a word of LIST at most LOOK_BACK words
 * before it in the same clause, only fillers between; NULL when none. */
static const struct word *governed(const char *s, const struct window *win, const char *const *list)
{
    for (size_t k = 2; k < win->have && k < 2 + LOOK_BACK; k++) {
        if (win->w[k - 1].before != GAP_NONE) return NULL;
        if (word_is(s, &win->w[k], list)) return &win->w[k];
        if (!word_is(s, &win->w[k], fillers)) return NULL;
    }
    return NULL;
}

/* Is the current word a further name of a list that began with a counted one ("call
 * a_b, c_d or e_f")? */
static int listed(const char *s, const struct window *win)
{
    const struct word *cur = &win->w[1];
    if (win->have > 2 && cur->before == GAP_COMMA && win->w[2].target) return 1;
    return win->have > 3 && cur->before == GAP_NONE && word_is(s, &win->w[2], conjunctions) &&
        win->w[2].before != GAP_CLAUSE && win->w[3].target;
}

struct hit {
    const char *how; /* static text, or built in buf below */
    char buf[64];
};

static void how_word(struct hit *h, const char *fmt, const char *s, const struct word *w)
{
    char word[24];
    size_t n = w->len < sizeof word - 1 ? w->len : sizeof word - 1;
    memcpy(word, s + w->off, n);
    word[n] = 0;
    for (size_t i = 0; i < n; i++) word[i] = (char)tolower((unsigned char)word[i]);
    snprintf(h->buf, sizeof h->buf, fmt, word);
    h->how = h->buf;
}

/* How the current word stands as AS (1, with H filled), or 0. KNOWN: the name is in names
 * or among; PLAIN: a tool-like name without _ (tool_like). */
static int stands(const char *s, size_t n, const struct window *win, enum mentions_as as, int known,
                  int plain, struct hit *h)
{
    const struct word *cur = &win->w[1], *next = win->have > 0 && win->w[0].len ? &win->w[0] : NULL;
    int next_close = next && next->before == GAP_NONE;
    const char *q = quoted(s, n, cur->off, cur->off + cur->len);
    const struct word *v;
    if (as == AS_PARAMETER) {
        if (q) h->how = q;
        else if (next_close && word_is(s, next, param_nouns)) how_word(h, "before \"%s\"", s, next);
        else if ((v = governed(s, win, param_verbs))) how_word(h, "after \"%s\"", s, v);
        else if (listed(s, win)) h->how = "in a list";
        else return 0;
        return 1;
    }
    /* "the max_results parameter", "input_required status", "set `max_tokens` to 10" */
    if (next_close && (word_is(s, next, param_nouns) || word_is(s, next, thing_nouns))) return 0;
    if (governed(s, win, set_verbs)) return 0;
    /* a name the rule gives or a snake_case one stands on weaker evidence than a plain one,
     * which in real descriptions is as often English or a field, a value or a method of an
     * API ("use read-only mode", "use 'autoEmbed'", "db.collection.deleteMany(...)") */
    int sure = known || !plain;
    size_t end = cur->off + cur->len;
    if (sure && end < n && s[end] == '(' && (known || !memchr(s + cur->off, '.', cur->len)))
        h->how = "in call syntax";
    else if ((v = governed(s, win, strong_verbs))) how_word(h, "after \"%s\"", s, v);
    else if (sure && next_close && word_is(s, next, tool_nouns))
        how_word(h, "before \"%s\"", s, next);
    else if (sure && (v = governed(s, win, weak_verbs))) how_word(h, "after \"%s\"", s, v);
    else if (q && known) h->how = q;
    else if (sure && listed(s, win)) h->how = "in a list";
    else return 0;
    if (q) h->how = q; /* the form says most: "call `send_email`" is code-formatted */
    return 1;
}

/* The high bit of each byte of W (eight bytes, the first lowest) that is an ASCII byte
 * from LO to HI. */
static uint64_t bytes_within(uint64_t w, unsigned char lo, unsigned char hi)
{
    const uint64_t ones = 0x0101010101010101ull;
    uint64_t t = w & 0x7F7F7F7F7F7F7F7Full; /* no carry between bytes below */
    return (t + ones * (0x80u - lo)) & ~(t + ones * (0x7Fu - hi)) & ~w & 0x8080808080808080ull;
}

/* Can S hold a tool-like name (tool_like)? 0 only when it cannot: no _ or - (a name of
 * two parts), and no lowercase letter just before an uppercase one (camelCase). */
static int may_hold_tool_like(const char *s, size_t n, const struct cursor *c)
{
    if (c->text_facts & SEL_TEXT_FACTS) { /* its facts (sel.h) say whether _ or - occurs */
        if (c->text_ascii[0] & ((uint64_t)1 << '-') ||
            c->text_ascii[1] & ((uint64_t)1 << ('_' - 64)))
            return 1;
    } else if (memchr(s, '_', n) || memchr(s, '-', n)) {
        return 1;
    }
    /* eight bytes at a time: an upper case letter's high bit against the one before */
    uint64_t after_lower = 0; /* 0x80 when the byte before the word is a lower case letter */
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, s + i, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
        w = __builtin_bswap64(w);
#endif
        uint64_t lower = bytes_within(w, 'a', 'z');
        if (bytes_within(w, 'A', 'Z') & (lower << 8 | after_lower)) return 1;
        after_lower = lower >> 56;
    }
    for (i = i ? i : 1; i < n; i++)
        if (s[i] >= 'A' && s[i] <= 'Z' && s[i - 1] >= 'a' && s[i - 1] <= 'z') return 1;
    return 0;
}

/* The first name of S that counts: 1 with *WORD and H set. */
static int scan(const char *s, size_t n, enum mentions_as as, const struct known *k,
                struct word *found, struct hit *h)
{
    struct window win = {0};
    struct reader r = {0, GAP_NONE};
    for (int got = 1; got;) {
        memmove(&win.w[1], &win.w[0], (LOOK_BACK + 1) * sizeof win.w[0]);
        if (win.have < LOOK_BACK + 2) win.have++;
        got = next_word(s, n, &r, &win.w[0]);
        if (!got) win.w[0] = (struct word){0};
        if (win.have < 2) continue;
        struct word *cur = &win.w[1];
        if (!cur->name) continue;
        const char *t = s + cur->off;
        int plain = 0, in_allowed = set_has(&k->allowed, t, cur->len);
        int eligible = k->allowed.given ? in_allowed : in_allowed || tool_like(t, cur->len, &plain);
        if (!eligible) continue;
        if (!stands(s, n, &win, as, in_allowed, plain, h)) continue;
        cur->target = 1;
        if (set_has(&k->except, t, cur->len)) continue; /* the server's own */
        *found = *cur;
        return 1;
    }
    return 0;
}

int fn_mentions_per_document(const struct pred *p)
{
    return !((const struct mentions_prog *)p->data)->relative;
}

int fn_mentions_may_hold(const struct pred *p, const struct cursor *c,
                         struct fn_text_scratch *scratch)
{
    if (!json_is_string(c->v)) return 0;
    const struct mentions_prog *mp = p->data;
    /* with no names given, only a tool-like name is a candidate: most texts hold none (a
     * test before the names' lookup) */
    return !mp->any_tool_like ||
        may_hold_tool_like(json_string_value(c->v), json_string_length(c->v), c);
}

int fn_mentions_eval(const struct pred *p, const struct cursor *c, struct eval_ctx *ctx)
{
    if (!fn_mentions_may_hold(p, c, NULL)) return 0;
    const char *s = json_string_value(c->v);
    size_t n = json_string_length(c->v);
    const struct mentions_prog *mp = p->data;
    enum mentions_as as = mp->as;
    struct word w;
    struct hit h = {0};
    const struct known *k = known_get(p, c, ctx);
    if (!scan(s, n, as, k, &w, &h)) return 0;
    fn_match_note(ctx, w.off, w.len);
    const struct name_origin *from = set_origin(&k->allowed, s + w.off, w.len);
    if (from) {
        fn_related_reset(ctx);
        fn_related_add(ctx, from->d, from->node, from->pointer, from->v);
    }
    buf_reset(&ctx->detail);
    buf_addf(&ctx->detail, "names \"%.*s\" as %s (%s)", (int)w.len, s + w.off,
             as == AS_PARAMETER ? "a parameter" : "a call target", h.how);
    return 1;
}
