#include "prefilter.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ruleset.h"

/* One literal, anchored on its rarest two-byte window ("bigram"). */
struct entry {
    uint16_t key;     /* the anchor bigram, as it may appear in text */
    uint32_t sig;     /* signature index */
    uint32_t off;     /* offset of the anchor in the literal */
    uint32_t len;     /* literal length */
    int caseless;
    const char *text; /* borrowed from the signature */
};

struct prefilter {
    uint64_t bits[65536 / 64]; /* bigrams that anchor some literal */
    struct entry *entries;     /* sorted by key */
    size_t count;
    size_t sig_count;
};

/* How unusual a byte is in training logs; higher is rarer. Lower-case
 * letters, digits, spaces and common punctuation fill most lines. */
static int rarity(unsigned char c)
{
    if (c == ' ')
        return 0;
    if (isdigit(c) || c == '.' || c == ',' || c == '/' || c == '-' || c == ':')
        return 1;
    if (islower(c))
        return strchr("jkqvxz", c) ? 3 : 1;
    if (isupper(c))
        return 4;
    return 3;
}

static int entry_cmp(const void *a, const void *b)
{
    const struct entry *x = a, *y = b;
    return (int)x->key - (int)y->key;
}

static int add(struct prefilter *pf, size_t *cap, struct entry e)
{
    if (pf->count == *cap) {
        size_t n = *cap ? *cap * 2 : 64;
        struct entry *p = realloc(pf->entries, n * sizeof *p);
        if (p == NULL)
            return -1;
        pf->entries = p;
        *cap = n;
    }
    pf->entries[pf->count++] = e;
    pf->bits[e.key >> 6] |= (uint64_t)1 << (e.key & 63);
    return 0;
}

struct prefilter *prefilter_build(const struct od_ruleset *rs)
{
    struct prefilter *pf = calloc(1, sizeof *pf);
    size_t cap = 0;
    if (pf == NULL)
        return NULL;
    pf->sig_count = rs->sig_count;
    for (size_t i = 0; i < rs->sig_count; i++) {
        const struct sig *s = rs->sigs[i];
        for (size_t l = 0; l < s->literal_count; l++) {
            const unsigned char *t = (const unsigned char *)s->literals[l];
            size_t n = strlen(s->literals[l]), best = 0;
            int best_score = -1;
            for (size_t o = 0; o + 1 < n; o++) {
                int score = rarity(t[o]) + rarity(t[o + 1]);
                if (score > best_score) {
                    best_score = score;
                    best = o;
                }
            }
            struct entry e = {0, (uint32_t)i, (uint32_t)best, (uint32_t)n, s->caseless, s->literals[l]};
            unsigned char a = t[best], b = t[best + 1];
            if (!s->caseless) {
                e.key = (uint16_t)(a << 8 | b);
                if (add(pf, &cap, e) != 0)
                    goto fail;
                continue;
            }
            unsigned char as[2] = {(unsigned char)tolower(a), (unsigned char)toupper(a)};
            unsigned char bs[2] = {(unsigned char)tolower(b), (unsigned char)toupper(b)};
            for (int x = 0; x < 2; x++)
                for (int y = 0; y < 2; y++) {
                    if ((x && as[1] == as[0]) || (y && bs[1] == bs[0]))
                        continue;
                    e.key = (uint16_t)(as[x] << 8 | bs[y]);
                    if (add(pf, &cap, e) != 0)
                        goto fail;
                }
        }
    }
    if (pf->count > 0)
        qsort(pf->entries, pf->count, sizeof *pf->entries, entry_cmp);
    return pf;
fail:
    prefilter_free(pf);
    return NULL;
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

static size_t first_entry(const struct prefilter *pf, uint16_t key)
{
    size_t lo = 0, hi = pf->count;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (pf->entries[mid].key < key)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

size_t prefilter_find(const struct prefilter *pf, struct prefilter_state *st, const char *line, size_t len,
                      uint32_t *out)
{
    const unsigned char *b = (const unsigned char *)line;
    size_t found = 0;
    if (len < 2 || pf->count == 0)
        return 0;
    if (++st->epoch == 0) {
        memset(st->seen, 0, st->sig_count * sizeof *st->seen);
        st->epoch = 1;
    }
    unsigned key = b[0];
    for (size_t i = 1; i < len; i++) {
        key = ((key << 8) | b[i]) & 0xffff;
        if (!(pf->bits[key >> 6] & ((uint64_t)1 << (key & 63))))
            continue;
        size_t at = i - 1; /* where the bigram starts */
        for (size_t k = first_entry(pf, (uint16_t)key); k < pf->count && pf->entries[k].key == key; k++) {
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
    }
    return found;
}
