/* doc_arena.c - the jansson values of one large document, bump-allocated in one mapping
 * (docInt.h: doc_arena_*). glibc's malloc spends 8 to 24 bytes on each small block, and
 * jansson makes several blocks per value (the value, an object's buckets, a member's
 * pair, a string's bytes): in an arena a block costs its size rounded to 8 bytes.
 *
 * jansson's allocation functions are global (json_set_alloc_funcs), so ours route by
 * thread: while a thread parses a document its arena is "current" and jansson's blocks
 * come from it; at any other time (and when it is full) they come from the functions
 * that were installed before ours. A block is recognised as an arena's by its address
 * when freed, on any thread. A freed block is not reused. The mapping goes when its
 * document let go of it and every block is freed: a value that something else still
 * holds (json_incref) keeps it mapped, so jansson's reference counts stay true.
 * Such a value (the schema memo keeps schemas across documents) must not keep the whole
 * tree in memory: each page counts its live blocks (no block crosses a page), and once
 * the document let go, a page whose blocks are all freed leaves memory. */
#include "doc/docInt.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define ARENA_SLOTS 64
/* Blocks handed out while the arena is current are counted by its thread alone and added
 * at doc_arena_end; until then this bias keeps the count of a parse that frees blocks
 * (jansson's buckets and array tables grow) above zero. */
#define ARENA_BIAS ((uint64_t)1 << 62)

#define ARENA_PAGE ((size_t)4096)
/* Larger blocks (long strings, the tables of large arrays and objects) go to malloc: a
 * block stays within a page. */
#define ARENA_MAX_BLOCK ((size_t)1024)

struct doc_arena {         /* at the start of its own mapping */
    _Atomic uint64_t live; /* 1 for the document + blocks not freed (+ ARENA_BIAS while current) */
    _Atomic int released;  /* the document let go: empty pages leave memory */
    char *first;           /* the first page of blocks */
    char *next, *end;      /* the free space (its thread, while current) */
    uint64_t made;         /* blocks handed out while current */
    size_t page_made;      /* of them in next's page, not yet in page_live */
    size_t size;           /* of the mapping: a power of two */
    int slot;
    _Atomic uint32_t page_live[]; /* blocks not freed in each page from first on */
};

/* The live arenas, each as its base address | log2 of its size (its base is page-aligned),
 * 0 for a free slot: one word, so a lock-free reader never sees half an arena. */
static _Atomic uintptr_t slots[ARENA_SLOTS];
static _Atomic int slots_used; /* the slots below it may be in use */
static pthread_mutex_t slots_lock = PTHREAD_MUTEX_INITIALIZER;

static _Thread_local struct doc_arena *current;
static _Atomic(json_malloc_t) prev_malloc;
static _Atomic(json_free_t) prev_free;
static pthread_once_t hooks_once = PTHREAD_ONCE_INIT;

static size_t page_of(const struct doc_arena *a, const void *p)
{
    return (size_t)((const char *)p - a->first) / ARENA_PAGE;
}

/* The blocks made in next's page join its count (the owner's thread). */
static void page_flush(struct doc_arena *a)
{
    if (a->page_made && a->next > a->first)
        atomic_fetch_add(&a->page_live[page_of(a, a->next - 1)], (uint32_t)a->page_made);
    a->page_made = 0;
}

static void *arena_malloc(size_t n)
{
    struct doc_arena *a = current;
    size_t need = (n + 7) & ~(size_t)7; /* jansson's structures hold pointers and doubles */
    if (a && n && need <= ARENA_MAX_BLOCK) {
        size_t room = ARENA_PAGE - (size_t)(a->next - a->first) % ARENA_PAGE;
        if (room < need || room == ARENA_PAGE) { /* a new page: the last one's count is done */
            page_flush(a);
            if (room < need) a->next += room;
        }
        if ((size_t)(a->end - a->next) >= need) {
            void *p = a->next;
            a->next += need;
            a->made++;
            a->page_made++;
            return p;
        }
    }
    return atomic_load_explicit(&prev_malloc, memory_order_relaxed)(n);
}

/* Pages [FROM, TO) of A leave memory (their blocks are all freed). */
static void pages_drop(struct doc_arena *a, size_t from, size_t to)
{
    if (from < to) madvise(a->first + from * ARENA_PAGE, (to - from) * ARENA_PAGE, MADV_DONTNEED);
}

/* The arena P was handed out from, or NULL. */
static struct doc_arena *arena_of(const void *p)
{
    int n = atomic_load_explicit(&slots_used, memory_order_acquire);
    for (int i = 0; i < n; i++) {
        uintptr_t s = atomic_load_explicit(&slots[i], memory_order_acquire);
        uintptr_t base = s & ~(uintptr_t)63;
        if (s && (uintptr_t)p - base < ((uintptr_t)1 << (s & 63))) return (struct doc_arena *)base;
    }
    return NULL;
}

/* SIZE bytes of address space whose first HEAD bytes are zero, or NULL. Linux maps
 * untouched pages; emscripten's mmap is its malloc and then a memset of the whole
 * length (a 10,000-tools document's arena: a seventh of the WebAssembly program's run),
 * so there the space comes from malloc with only the head zeroed: the blocks handed out
 * need no zeros, and memory the module grows by is untouched until used. */
static void *region_map(size_t size, size_t head)
{
#ifdef __EMSCRIPTEN__
    void *p = aligned_alloc(ARENA_PAGE, size);
    if (p) memset(p, 0, head);
    return p;
#else
    (void)head;
    void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                   -1, 0);
    return p == MAP_FAILED ? NULL : p;
#endif
}

static void region_unmap(void *p, size_t size)
{
#ifdef __EMSCRIPTEN__
    (void)size;
    free(p);
#else
    munmap(p, size);
#endif
}

static void arena_unmap(struct doc_arena *a)
{
    pthread_mutex_lock(&slots_lock);
    atomic_store(&slots[a->slot], 0); /* before the pages go: no reader matches them then */
    pthread_mutex_unlock(&slots_lock);
    region_unmap(a, a->size);
}

static void arena_unref(struct doc_arena *a, uint64_t n)
{
    if (atomic_fetch_sub_explicit(&a->live, n, memory_order_acq_rel) == n) arena_unmap(a);
}

static void arena_free(void *p)
{
    struct doc_arena *a = p ? arena_of(p) : NULL;
    if (!a) {
        atomic_load_explicit(&prev_free, memory_order_relaxed)(p);
        return;
    }
    size_t page = page_of(a, p);
    if (atomic_fetch_sub(&a->page_live[page], 1) == 1 && atomic_load(&a->released))
        pages_drop(a, page, page + 1);
    arena_unref(a, 1);
}

static void hooks_install(void)
{
    json_malloc_t m;
    json_free_t f;
    json_get_alloc_funcs(&m, &f);
    atomic_store(&prev_malloc, m);
    atomic_store(&prev_free, f);
    json_set_alloc_funcs(arena_malloc, arena_free);
}

static struct doc_arena *arena_new(size_t room);

struct doc_arena *doc_arena_new(size_t text_len)
{
    if (text_len < DOC_ARENA_MIN_TEXT || text_len > DOC_DEFAULT_MAX_BYTES) return NULL;
    /* pretty JSON's tree takes 3 to 4 times its text: room for twice that */
    return arena_new(8 * text_len);
}

struct doc_arena *doc_arena_new_tree(size_t tree_bytes)
{
    if (tree_bytes < DOC_ARENA_MIN_TREE || tree_bytes > DOC_DEFAULT_MAX_BYTES) return NULL;
    struct doc_arena *a = arena_new(2 * tree_bytes);
#ifdef MADV_POPULATE_WRITE
    /* A tree read back from the cache fills about twice its payload (the shipped set's
     * 0.44 MB of entries, 0.93 MB of blocks): those pages made in one call rather than
     * one fault each (200 of a start's 570). A kernel before 5.14 refuses: they fault. */
    size_t room = a ? (size_t)(a->end - a->first) : 0, want = 2 * tree_bytes;
    if (a)
        madvise(a->first, want < room ? want / ARENA_PAGE * ARENA_PAGE : room, MADV_POPULATE_WRITE);
#endif
    return a;
}

/* An arena of ROOM bytes or more: address space only (pages are used as the parse
 * reaches them); a larger tree goes on in malloc. */
static struct doc_arena *arena_new(size_t room)
{
    pthread_once(&hooks_once, hooks_install);
    json_malloc_t m;
    json_free_t f;
    json_get_alloc_funcs(&m, &f);
    if (m != arena_malloc || f != arena_free) return NULL; /* a program replaced them */
    int log2 = 20;
    while (((size_t)1 << log2) < room) log2++;
    size_t size = (size_t)1 << log2;
    size_t head = sizeof(struct doc_arena) + size / ARENA_PAGE * sizeof(uint32_t); /* counts */
    void *base = region_map(size, head);
    if (!base) return NULL;
    struct doc_arena *a = base;
    pthread_mutex_lock(&slots_lock);
    int slot = 0;
    while (slot < ARENA_SLOTS && atomic_load(&slots[slot])) slot++;
    if (slot < ARENA_SLOTS) {
        atomic_store(&slots[slot], (uintptr_t)base | (uintptr_t)log2);
        if (slot >= atomic_load(&slots_used)) atomic_store(&slots_used, slot + 1);
    }
    pthread_mutex_unlock(&slots_lock);
    if (slot == ARENA_SLOTS) { /* that many large documents at once: malloc for this one */
        region_unmap(base, size);
        return NULL;
    }
    atomic_init(&a->live, 1 + ARENA_BIAS);
    atomic_init(&a->released, 0);
    a->first = a->next = (char *)base + (head + ARENA_PAGE - 1) / ARENA_PAGE * ARENA_PAGE;
    a->end = (char *)base + size;
    a->made = a->page_made = 0;
    a->size = size;
    a->slot = slot;
    return a;
}

void doc_arena_begin(struct doc_arena *a)
{
    current = a;
}

void doc_arena_end(struct doc_arena *a)
{
    current = NULL;
    if (!a) return;
    page_flush(a);
    /* live = 1 + made - freed: at least 1, the document's */
    atomic_fetch_add_explicit(&a->live, a->made - ARENA_BIAS, memory_order_acq_rel);
}

void doc_arena_release(struct doc_arena *a)
{
    if (!a) return;
    atomic_store(&a->released, 1);
    /* the pages emptied before now leave here, those emptied later as their last block
     * goes (arena_free); the live count stays above 0 until this call's own unref */
    size_t pages = page_of(a, a->next + ARENA_PAGE - 1), run = 0;
    for (size_t i = 0; i < pages; i++)
        if (atomic_load(&a->page_live[i])) {
            pages_drop(a, run, i);
            run = i + 1;
        }
    pages_drop(a, run, pages);
    arena_unref(a, 1);
}

size_t doc_arena_used(const struct doc_arena *a)
{
    return a ? (size_t)(a->next - (const char *)a) : 0;
}

size_t doc_arena_resident(const struct doc_arena *a)
{
    size_t pages = page_of(a, a->next + ARENA_PAGE - 1), n = 0;
    unsigned char in[256];
    for (size_t i = 0; i < pages; i += sizeof in) {
        size_t k = pages - i < sizeof in ? pages - i : sizeof in;
        if (mincore(a->first + i * ARENA_PAGE, k * ARENA_PAGE, in) < 0) return (size_t)-1;
        for (size_t j = 0; j < k; j++) n += in[j] & 1;
    }
    return n * ARENA_PAGE;
}
