#include "prefilter.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ruleset.h"

/* How the search works.  Every literal is at least MIN_LEN bytes long, so
 * with windows of W bytes (W = min(4, MIN_LEN)) a literal holds
 * MIN_LEN - W + 1 whole windows.  Each literal registers S consecutive
 * windows of itself (its rarest stretch), S = min(4, MIN_LEN - W + 1).  Any
 * occurrence of the literal then puts one of those windows at a position
 * that is a multiple of S, so the scan hashes only every S-th window of the
 * line: about one hash and one bit test per 4 bytes.  A set bit sends the
 * position to exact verification. */

enum { HASH_BITS = 18, MAX_STRIDE = 4, MAX_WINDOW = 4 };

struct entry {
    uint32_t hash;
    uint32_t sig;     /* signature index */
    uint32_t off;     /* offset of the window in the literal */
    uint32_t len;     /* literal length */
    int caseless;
    const char *text; /* borrowed from the signature */
};

struct prefilter {
    uint64_t bits[(1u << HASH_BITS) / 64];
    struct entry *entries; /* sorted by hash */
    size_t count, cap;
    size_t sig_count;
    unsigned window, stride;
};

static uint32_t hash_window(uint32_t v)
{
    return (v * 2654435761u) >> (32 - HASH_BITS);
}

static uint32_t load_window(const unsigned char *p, unsigned w)
{
    uint32_t v = 0;
    if (w == 4) {
        memcpy(&v, p, 4);
        return v;
    }
    for (unsigned i = 0; i < w; i++)
        v |= (uint32_t)p[i] << (8 * i);
    return v;
}

/* How unusual a byte is in training logs; higher is rarer. */
static int rarity(unsigned char c)
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

static int entry_cmp(const void *a, const void *b)
{
    const struct entry *x = a, *y = b;
    return x->hash < y->hash ? -1 : x->hash > y->hash;
}

static int add(struct prefilter *pf, struct entry e)
{
    if (pf->count == pf->cap) {
        size_t n = pf->cap ? pf->cap * 2 : 64;
        struct entry *p = realloc(pf->entries, n * sizeof *p);
        if (p == NULL)
            return -1;
        pf->entries = p;
        pf->cap = n;
    }
    pf->entries[pf->count++] = e;
    pf->bits[e.hash >> 6] |= (uint64_t)1 << (e.hash & 63);
    return 0;
}

/* Registers the window of TEXT at OFF, in every letter case if CASELESS. */
static int add_window(struct prefilter *pf, struct entry e, const unsigned char *text)
{
    unsigned char w[MAX_WINDOW];
    unsigned letters[MAX_WINDOW], nletters = 0;
    memcpy(w, text + e.off, pf->window);
    for (unsigned i = 0; e.caseless && i < pf->window; i++)
        if (isalpha(w[i]))
            letters[nletters++] = i;
    for (unsigned mask = 0; mask < (1u << nletters); mask++) {
        for (unsigned k = 0; k < nletters; k++)
            w[letters[k]] = (unsigned char)((mask >> k) & 1 ? toupper(w[letters[k]]) : tolower(w[letters[k]]));
        e.hash = hash_window(load_window(w, pf->window));
        if (add(pf, e) != 0)
            return -1;
    }
    return 0;
}

struct prefilter *prefilter_build(const struct od_ruleset *rs)
{
    struct prefilter *pf = calloc(1, sizeof *pf);
    size_t min_len = 64;
    if (pf == NULL)
        return NULL;
    pf->sig_count = rs->sig_count;
    for (size_t i = 0; i < rs->sig_count; i++)
        for (size_t l = 0; l < rs->sigs[i]->literal_count; l++) {
            size_t n = strlen(rs->sigs[i]->literals[l]);
            if (n < min_len)
                min_len = n;
        }
    if (min_len < 2)
        min_len = 2;
    pf->window = min_len < MAX_WINDOW ? (unsigned)min_len : MAX_WINDOW;
    pf->stride = (unsigned)(min_len - pf->window + 1);
    if (pf->stride > MAX_STRIDE)
        pf->stride = MAX_STRIDE;
    unsigned span = pf->window + pf->stride - 1; /* bytes covered by S windows */

    for (size_t i = 0; i < rs->sig_count; i++) {
        const struct sig *s = rs->sigs[i];
        for (size_t l = 0; l < s->literal_count; l++) {
            const unsigned char *t = (const unsigned char *)s->literals[l];
            size_t n = strlen(s->literals[l]), best = 0;
            int best_score = -1;
            for (size_t o = 0; o + span <= n; o++) {
                int score = 0;
                for (size_t k = o; k < o + span; k++)
                    score += rarity(t[k]);
                if (score > best_score) {
                    best_score = score;
                    best = o;
                }
            }
            for (unsigned k = 0; k < pf->stride; k++) {
                struct entry e = {0, (uint32_t)i, (uint32_t)(best + k), (uint32_t)n, s->caseless, s->literals[l]};
                if (add_window(pf, e, t) != 0) {
                    prefilter_free(pf);
                    return NULL;
                }
            }
        }
    }
    if (pf->count > 0)
        qsort(pf->entries, pf->count, sizeof *pf->entries, entry_cmp);
    return pf;
}

void prefilter_free(struct prefilter *pf)
{
    if (pf == NULL)
        return;
    free(pf->entries);
    free(pf);
}

int prefilter_state_init(struct prefilter_state *st, const struct prefilter *pf)
{
    st->sig_count = pf->sig_count;
    st->epoch = 0;
    st->seen = calloc(pf->sig_count ? pf->sig_count : 1, sizeof *st->seen);
    return st->seen ? 0 : -1;
}

void prefilter_state_free(struct prefilter_state *st)
{
    free(st->seen);
    st->seen = NULL;
}

static size_t first_entry(const struct prefilter *pf, uint32_t hash)
{
    size_t lo = 0, hi = pf->count;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (pf->entries[mid].hash < hash)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* Verifies the literals whose window hashes to HASH, placed at AT. */
static size_t verify(const struct prefilter *pf, struct prefilter_state *st, const char *line, size_t len, size_t at,
                     uint32_t hash, uint32_t *out, size_t found)
{
    for (size_t k = first_entry(pf, hash); k < pf->count && pf->entries[k].hash == hash; k++) {
        const struct entry *e = &pf->entries[k];
        if (st->seen[e->sig] == st->epoch || at < e->off || at - e->off + e->len > len)
            continue;
        const char *start = line + at - e->off;
        int eq = e->caseless ? strncasecmp(start, e->text, e->len) == 0 : memcmp(start, e->text, e->len) == 0;
        if (eq) {
            st->seen[e->sig] = st->epoch;
            out[found++] = e->sig;
        }
    }
    return found;
}

size_t prefilter_find(const struct prefilter *pf, struct prefilter_state *st, const char *line, size_t len,
                      uint32_t *out)
{
    const unsigned char *b = (const unsigned char *)line;
    const unsigned w = pf->window, s = pf->stride;
    size_t found = 0;
    if (len < w || pf->count == 0)
        return 0;
    if (++st->epoch == 0) {
        memset(st->seen, 0, st->sig_count * sizeof *st->seen);
        st->epoch = 1;
    }
    const size_t last = len - w;
    if (w == 4 && s == 4) { /* the common case, unrolled by the compiler */
        for (size_t i = 0; i <= last; i += 4) {
            uint32_t v;
            memcpy(&v, b + i, 4);
            uint32_t h = hash_window(v);
            if (pf->bits[h >> 6] & ((uint64_t)1 << (h & 63)))
                found = verify(pf, st, line, len, i, h, out, found);
        }
        return found;
    }
    for (size_t i = 0; i <= last; i += s) {
        uint32_t h = hash_window(load_window(b + i, w));
        if (pf->bits[h >> 6] & ((uint64_t)1 << (h & 63)))
            found = verify(pf, st, line, len, i, h, out, found);
    }
    return found;
}
