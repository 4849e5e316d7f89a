#include "prefilter.h"

#include <ctype.h>
#include <stdlib.h>
#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define PREFILTER_TEDDY 1
#endif
#include <string.h>
#include <strings.h>

#include "grow.h"

/* How the search works.  Literals are split by length into two tables, so
 * that a few short ones do not slow the search for the many long ones.  In
 * a table every literal is at least MIN_LEN bytes long, so with windows of
 * W bytes a literal holds MIN_LEN - W + 1 whole windows.  Each literal
 * registers S consecutive windows of itself (its rarest stretch),
 * S = min(4, MIN_LEN - W + 1).  Any occurrence of the literal then puts one
 * of those windows at a position that is a multiple of S, so the scan
 * hashes only every S-th window of the line: for literals of 7 bytes or
 * more, one hash and one bit test per 4 bytes.  A set bit sends the
 * position to exact verification. */

enum {
    HASH_BITS = PREFILTER_HASH_BITS,
    BUCKET_BITS = PREFILTER_BUCKET_BITS,
    MAX_STRIDE = 4,
    MAX_WINDOW = 4,
    LONG_LITERAL = 7,
    TEDDY_BYTES = PREFILTER_TEDDY_BYTES,
    TEDDY_MAX = 64
};
_Static_assert(HASH_BITS == 18, "sort_entries sorts 18-bit hashes in two passes of 9 bits");

/* A table being built: the writable arrays behind a prefilter_table. */
struct table {
    struct prefilter_table *t;
    uint64_t *bits;
    uint32_t *bucket;
    struct prefilter_entry *entries;
    size_t count, cap;
};

struct prefilter {
    struct prefilter_data d;
    int avx2;  /* the CPU runs teddy_maybe */
    int owned; /* d's arrays are malloc'd (prefilter_build), not static */
};

static uint32_t hash_window(uint32_t v)
{
    return (v * 2654435761u) >> (32 - HASH_BITS);
}

/* The W bytes at P as a number: four bytes loaded, the ones past W masked
 * off (MASK has 0xff in its first W bytes in memory order), so that the
 * same bytes give the same number whatever the byte order.  P[0..3] must
 * be readable; window_tail is for the end of a line. */
static uint32_t load_window(const unsigned char *p, uint32_t mask)
{
    uint32_t v;
    memcpy(&v, p, 4);
    return v & mask;
}

static uint32_t window_tail(const unsigned char *p, unsigned w, uint32_t mask)
{
    unsigned char tmp[4] = {0, 0, 0, 0};
    memcpy(tmp, p, w);
    return load_window(tmp, mask);
}

/* How unusual a byte is in training logs; higher is rarer. */
static int rarity_of(unsigned char c)
{
    if (c == ' ')
        return 0;
    if (isdigit(c) || c == '.' || c == ',' || c == '/' || c == '-' || c == ':')
        return 1;
    if (islower(c))
        return strchr("etaoinsrhl", c) ? 1 : strchr("jkqvxz", c) ? 4 : 2;
    if (isupper(c))
        return 5;
    return 3;
}

/* The same, tabulated once per build of a prefilter. */
struct rarity_table {
    unsigned char r[256];
};

static void rarity_init(struct rarity_table *t)
{
    for (int c = 0; c < 256; c++)
        t->r[c] = (unsigned char)rarity_of((unsigned char)c);
}

/* Sorts the entries by hash: two stable counting passes of 9 bits each
 * (HASH_BITS is 18), cheaper than qsort at start-up. */
static int sort_entries(struct table *t)
{
    struct prefilter_entry *tmp = malloc((t->count ? t->count : 1) * sizeof *tmp);
    if (tmp == NULL)
        return -1;
    for (unsigned shift = 0; shift < HASH_BITS; shift += 9) {
        size_t start[513] = {0};
        for (size_t i = 0; i < t->count; i++)
            start[((t->entries[i].hash >> shift) & 511) + 1]++;
        for (size_t b = 1; b <= 512; b++)
            start[b] += start[b - 1];
        for (size_t i = 0; i < t->count; i++)
            tmp[start[(t->entries[i].hash >> shift) & 511]++] = t->entries[i];
        if (t->count > 0) /* entries is NULL when no signature has a literal */
            memcpy(t->entries, tmp, t->count * sizeof *tmp);
    }
    free(tmp);
    size_t k = 0;
    for (uint32_t b = 0; b <= (1u << BUCKET_BITS); b++) {
        while (k < t->count && (t->entries[k].hash >> (HASH_BITS - BUCKET_BITS)) < b)
            k++;
        t->bucket[b] = (uint32_t)k;
    }
    return 0;
}

static int add(struct table *t, struct prefilter_entry e)
{
    struct prefilter_entry *entries = grow(t->entries, &t->cap, t->count, sizeof *entries, 64);
    if (entries == NULL)
        return -1;
    t->entries = entries;
    t->entries[t->count++] = e;
    t->bits[e.hash >> 6] |= (uint64_t)1 << (e.hash & 63);
    return 0;
}

/* Registers the window of TEXT at OFF, in every letter case if CASELESS. */
static int add_window(struct table *t, struct prefilter_entry e, const unsigned char *text)
{
    unsigned char w[MAX_WINDOW];
    unsigned letters[MAX_WINDOW], nletters = 0;
    const unsigned window = t->t->window;
    memcpy(w, text + e.off, window);
    for (unsigned i = 0; e.caseless && i < window; i++)
        if (isalpha(w[i]))
            letters[nletters++] = i;
    for (unsigned mask = 0; mask < (1u << nletters); mask++) {
        for (unsigned k = 0; k < nletters; k++)
            w[letters[k]] = (unsigned char)((mask >> k) & 1 ? toupper(w[letters[k]]) : tolower(w[letters[k]]));
        e.hash = hash_window(window_tail(w, window, t->t->mask));
        if (add(t, e) != 0)
            return -1;
    }
    return 0;
}

static int is_long(const char *literal)
{
    return strlen(literal) >= LONG_LITERAL;
}

/* Sets up T's line filter where it pays: a table of at most TEDDY_MAX
 * literals, each of TEDDY_BYTES bytes or more (the shipped rules' short
 * literals; the long ones are too many); it runs where the CPU has AVX2.  A literal's fingerprint is its TEDDY_BYTES
 * rarest consecutive bytes; distinct fingerprints go round-robin into 8 buckets (bit b of a mask byte is bucket b), and
 * a caseless letter counts in both cases. */
static void teddy_init(struct prefilter_table *t, const struct prefilter_literal *lits, size_t n_lits, int want_long,
                       const struct rarity_table *rt)
{
    size_t count = 0;
    t->teddy = 0;
    for (size_t i = 0; i < n_lits; i++)
        if (is_long(lits[i].text) == want_long && (++count > TEDDY_MAX || strlen(lits[i].text) < TEDDY_BYTES))
            return;
    if (count == 0)
        return;
    memset(t->teddy_lo, 0, sizeof t->teddy_lo);
    memset(t->teddy_hi, 0, sizeof t->teddy_hi);
    unsigned char seen[TEDDY_MAX][TEDDY_BYTES]; /* fingerprints so far: one alike goes where the first went */
    unsigned char seen_bucket[TEDDY_MAX];
    size_t nseen = 0;
    unsigned b = 0;
    for (size_t i = 0; i < n_lits; i++) {
        const unsigned char *text = (const unsigned char *)lits[i].text;
        size_t n = strlen(lits[i].text), best = 0;
        if (is_long(lits[i].text) != want_long)
            continue;
        int best_score = -1;
        for (size_t o = 0; o + TEDDY_BYTES <= n; o++) {
            int score = 0;
            for (unsigned j = 0; j < TEDDY_BYTES; j++)
                score += rt->r[text[o + j]];
            if (score > best_score) {
                best_score = score;
                best = o;
            }
        }
        size_t k = 0;
        while (k < nseen && memcmp(seen[k], text + best, TEDDY_BYTES) != 0)
            k++;
        if (k == nseen) {
            memcpy(seen[nseen], text + best, TEDDY_BYTES);
            seen_bucket[nseen++] = (unsigned char)b;
            b = (b + 1) % 8;
        }
        unsigned bit = 1u << seen_bucket[k];
        for (unsigned j = 0; j < TEDDY_BYTES; j++) {
            unsigned char c = text[best + j];
            unsigned char cases[2] = {c, lits[i].caseless && isalpha(c) ? (unsigned char)(c ^ 0x20) : c};
            for (int c2 = 0; c2 < 2; c2++) {
                t->teddy_lo[j][cases[c2] & 15] |= (unsigned char)bit;
                t->teddy_hi[j][cases[c2] >> 4] |= (unsigned char)bit;
            }
        }
    }
    t->teddy = 1;
}

#ifdef PREFILTER_TEDDY
/* Can LINE hold a literal of T?  0 only when it cannot: at no position do
 * the TEDDY_BYTES bytes fit, nibble by nibble, the fingerprints of one bucket (the
 * nibble-mask search of Hyperscan's "Teddy", 32 positions at a time).  A
 * line too short for one block is a maybe. */
__attribute__((target("avx2"))) static inline __m256i teddy_byte(const struct prefilter_table *t, const char *at, int j)
{
    const __m256i low = _mm256_set1_epi8(15);
    const __m256i lo = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)t->teddy_lo[j]));
    const __m256i hi = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)t->teddy_hi[j]));
    const __m256i v = _mm256_loadu_si256((const __m256i *)(at + j));
    return _mm256_and_si256(_mm256_shuffle_epi8(lo, _mm256_and_si256(v, low)),
                            _mm256_shuffle_epi8(hi, _mm256_and_si256(_mm256_srli_epi16(v, 4), low)));
}

__attribute__((target("avx2"))) static int teddy_maybe(const struct prefilter_table *t, const char *line, size_t len)
{
    enum { BLOCK = 32, READS = BLOCK + TEDDY_BYTES - 1 };
    _Static_assert(TEDDY_BYTES == 5, "teddy_maybe takes 5 bytes");
    if (len < READS)
        return 1;
    for (size_t i = 0;; i += BLOCK) {
        if (i + READS > len)
            i = len - READS; /* the last block overlaps the one before */
        const char *at = line + i;
        __m256i r = _mm256_and_si256(_mm256_and_si256(teddy_byte(t, at, 0), teddy_byte(t, at, 1)),
                                     _mm256_and_si256(teddy_byte(t, at, 2), teddy_byte(t, at, 3)));
        r = _mm256_and_si256(r, teddy_byte(t, at, 4));
        if (!_mm256_testz_si256(r, r))
            return 1;
        if (i + READS == len)
            return 0;
    }
}
#endif

/* Where in TEXT (N bytes) the SPAN bytes the rarest by RT start. */
static size_t rarest_span(const struct rarity_table *rt, const unsigned char *text, size_t n, unsigned span)
{
    size_t best = 0;
    int best_score = -1;
    for (size_t o = 0; o + span <= n; o++) {
        int score = 0;
        for (size_t k = o; k < o + span; k++)
            score += rt->r[text[k]];
        if (score > best_score) {
            best_score = score;
            best = o;
        }
    }
    return best;
}

/* Builds table T from the literals that are long (LONG) or not; TEXT_AT
 * is each literal's offset in the prefilter's copy of the texts. */
static int build_table(struct prefilter_table *pt, const struct prefilter_literal *lits, const uint32_t *text_at,
                       size_t n_lits, int want_long)
{
    struct rarity_table rt;
    size_t min_len = 64;
    struct table tb = {pt,
                       calloc((1u << HASH_BITS) / 64, sizeof(uint64_t)),
                       calloc((1u << BUCKET_BITS) + 1, sizeof(uint32_t)),
                       NULL,
                       0,
                       0};
    struct table *t = &tb;
    pt->bits = tb.bits;
    pt->bucket = tb.bucket;
    if (tb.bits == NULL || tb.bucket == NULL)
        return -1;
    rarity_init(&rt);
    for (size_t i = 0; i < n_lits; i++) {
        size_t n = strlen(lits[i].text);
        if (is_long(lits[i].text) == want_long && n < min_len)
            min_len = n;
    }
    if (min_len < 2)
        min_len = 2;
    pt->window = min_len >= 6 ? MAX_WINDOW : min_len >= 4 ? 3 : (unsigned)min_len;
    pt->stride = (unsigned)(min_len - pt->window + 1);
    if (pt->stride > MAX_STRIDE)
        pt->stride = MAX_STRIDE;
    memset(&pt->mask, 0xff, pt->window);
    unsigned span = pt->window + pt->stride - 1; /* bytes covered by S windows */

    int rc = 0;
    for (size_t i = 0; rc == 0 && i < n_lits; i++) {
        const struct prefilter_literal *lit = &lits[i];
        if (is_long(lit->text) != want_long)
            continue;
        const unsigned char *text = (const unsigned char *)lit->text;
        size_t n = strlen(lit->text), best = rarest_span(&rt, text, n, span);
        for (unsigned k = 0; rc == 0 && k < pt->stride; k++) {
            struct prefilter_entry e = {0, lit->sig, (uint32_t)(best + k), (uint32_t)n, text_at[i], lit->caseless != 0,
                                        0};
            if (n >= 8 && !lit->caseless)
                memcpy(&e.head, text, 8);
            rc = add_window(t, e, text);
        }
    }
    if (rc == 0) {
        teddy_init(pt, lits, n_lits, want_long, &rt);
        rc = sort_entries(t);
    }
    pt->entries = tb.entries;
    pt->count = tb.count;
    return rc;
}

static uint32_t byte_order(void)
{
    uint32_t v;
    memcpy(&v, "\1\2\3\4", 4);
    return v;
}

static int cpu_has_avx2(void)
{
#ifdef PREFILTER_TEDDY
    return __builtin_cpu_supports("avx2") != 0;
#else
    return 0;
#endif
}

struct prefilter *prefilter_build(const struct prefilter_literal *lits, size_t n, size_t sig_count)
{
    struct prefilter *pf = calloc(1, sizeof *pf);
    uint32_t *text_at = malloc((n ? n : 1) * sizeof *text_at);
    size_t total = 0;
    for (size_t i = 0; i < n; i++)
        total += strlen(lits[i].text) + 1;
    char *texts = malloc(total ? total : 1);
    if (pf == NULL || text_at == NULL || texts == NULL || total > UINT32_MAX) {
        free(pf);
        free(text_at);
        free(texts);
        return NULL;
    }
    pf->owned = 1;
    pf->avx2 = cpu_has_avx2();
    pf->d.sig_count = sig_count;
    pf->d.byte_order = byte_order();
    pf->d.texts = texts;
    pf->d.texts_len = total;
    for (size_t i = 0, at = 0; i < n; i++) {
        size_t len = strlen(lits[i].text) + 1;
        memcpy(texts + at, lits[i].text, len);
        text_at[i] = (uint32_t)at;
        at += len;
    }
    int rc = build_table(&pf->d.tables[0], lits, text_at, n, 1);
    if (rc == 0)
        rc = build_table(&pf->d.tables[1], lits, text_at, n, 0);
    free(text_at);
    if (rc != 0) {
        prefilter_free(pf);
        return NULL;
    }
    return pf;
}

const struct prefilter_data *prefilter_data(const struct prefilter *pf)
{
    return &pf->d;
}

struct prefilter *prefilter_from_data(const struct prefilter_data *d)
{
    if (d->byte_order != byte_order())
        return NULL;
    struct prefilter *pf = calloc(1, sizeof *pf);
    if (pf == NULL)
        return NULL;
    pf->d = *d;
    pf->avx2 = cpu_has_avx2();
    return pf;
}

void prefilter_free(struct prefilter *pf)
{
    if (pf == NULL)
        return;
    if (pf->owned) {
        for (int i = 0; i < 2; i++) {
            free((void *)pf->d.tables[i].bits);
            free((void *)pf->d.tables[i].bucket);
            free((void *)pf->d.tables[i].entries);
        }
        free((void *)pf->d.texts);
    }
    free(pf);
}

int prefilter_state_init(struct prefilter_state *st, const struct prefilter *pf)
{
    st->sig_count = pf->d.sig_count;
    st->epoch = 0;
    st->seen = calloc(st->sig_count ? st->sig_count : 1, sizeof *st->seen);
    return st->seen ? 0 : -1;
}

void prefilter_state_free(struct prefilter_state *st)
{
    free(st->seen);
    st->seen = NULL;
}

/* Verifies the literals whose window hashes to HASH, placed at AT. */
__attribute__((always_inline)) static inline size_t verify(const struct prefilter_table *t, const char *texts,
                                                           struct prefilter_state *st, const char *line, size_t len,
                                                           size_t at, uint32_t hash, uint32_t *out, size_t found)
{
    uint32_t b = hash >> (HASH_BITS - BUCKET_BITS);
    for (size_t k = t->bucket[b]; k < t->bucket[b + 1]; k++) {
        const struct prefilter_entry *e = &t->entries[k];
        if (e->hash != hash || at < e->off || at - e->off + e->len > len)
            continue;
        const char *start = line + at - e->off, *text = texts + e->text;
        int eq;
        if (e->head != 0) { /* 8 bytes at once: most windows that hash alike are in other words */
            uint64_t v;
            memcpy(&v, start, 8);
            eq = v == e->head && st->seen[e->sig] != st->epoch && memcmp(start + 8, text + 8, e->len - 8) == 0;
        } else if (st->seen[e->sig] == st->epoch ||
                   (!e->caseless && (start[0] != text[0] || start[e->len - 1] != text[e->len - 1]))) {
            continue; /* most windows that hash alike differ at an end */
        } else {
            eq = e->caseless ? strncasecmp(start, text, e->len) == 0 : memcmp(start, text, e->len) == 0;
        }
        if (eq) {
            st->seen[e->sig] = st->epoch;
            out[found++] = e->sig;
        }
    }
    return found;
}

static size_t scan_table(const struct prefilter *pf, const struct prefilter_table *t, struct prefilter_state *st,
                         const char *line, size_t len, uint32_t *out, size_t found)
{
    const unsigned char *b = (const unsigned char *)line;
    const unsigned w = t->window, s = t->stride;
    const uint64_t *bits = t->bits;
    const char *texts = pf->d.texts;
    if (len < w || t->count == 0)
        return found;
#ifdef PREFILTER_TEDDY
    if (t->teddy && pf->avx2 && !teddy_maybe(t, line, len))
        return found;
#endif
    const size_t last = len - w;
    if (w == 4 && s == 4) { /* the common case, unrolled by the compiler */
        for (size_t i = 0; i <= last; i += 4) {
            uint32_t v;
            memcpy(&v, b + i, 4);
            uint32_t h = hash_window(v);
            if (bits[h >> 6] & ((uint64_t)1 << (h & 63)))
                found = verify(t, texts, st, line, len, i, h, out, found);
        }
        return found;
    }
    size_t i = 0;
    for (; i + 4 <= len; i += s) {
        uint32_t h = hash_window(load_window(b + i, t->mask));
        if (bits[h >> 6] & ((uint64_t)1 << (h & 63)))
            found = verify(t, texts, st, line, len, i, h, out, found);
    }
    for (; i <= last; i += s) {
        uint32_t h = hash_window(window_tail(b + i, w, t->mask));
        if (bits[h >> 6] & ((uint64_t)1 << (h & 63)))
            found = verify(t, texts, st, line, len, i, h, out, found);
    }
    return found;
}

size_t prefilter_find(const struct prefilter *pf, struct prefilter_state *st, const char *line, size_t len,
                      uint32_t *out)
{
    if (++st->epoch == 0) {
        memset(st->seen, 0, st->sig_count * sizeof *st->seen);
        st->epoch = 1;
    }
    size_t found = scan_table(pf, &pf->d.tables[0], st, line, len, out, 0);
    return scan_table(pf, &pf->d.tables[1], st, line, len, out, found);
}
