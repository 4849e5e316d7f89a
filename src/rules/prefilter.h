/* The literal prefilter: every signature's required literals, searched in
 * one pass over a line, so that only signatures whose literal occurs are
 * given to PCRE2.  Built from a plain array of literals (it knows nothing
 * of rule sets), whose texts it copies; freed with prefilter_free.  The
 * per-scan dedupe state is the caller's. */
#ifndef OOMDIAG_PREFILTER_H
#define OOMDIAG_PREFILTER_H

#include <stddef.h>
#include <stdint.h>

struct prefilter;

/* One literal of signature SIG (an index below the SIG_COUNT given to
 * prefilter_build); TEXT is NUL-terminated (the prefilter keeps a copy). */
struct prefilter_literal {
    uint32_t sig;
    const char *text;
    int caseless;
};

/* A prefilter of the N literals LITS, for signatures 0 .. SIG_COUNT - 1
 * (LITS may be freed after the call); NULL when out of memory. */
struct prefilter *prefilter_build(const struct prefilter_literal *lits, size_t n, size_t sig_count);
void prefilter_free(struct prefilter *pf);

/* A prefilter's tables as plain data, so that a build tool can write those
 * of the builtin rules as C static data (image.h) and start-up need not
 * build them.  See prefilter.c for what the fields mean. */
enum { PREFILTER_HASH_BITS = 18, PREFILTER_BUCKET_BITS = 12, PREFILTER_TEDDY_BYTES = 5 };

struct prefilter_entry {
    uint32_t hash, sig, off, len; /* window hash; signature; window offset and literal length */
    uint32_t text;                /* offset of the literal in texts */
    uint32_t caseless;
    uint64_t head; /* the literal's first 8 bytes as loaded (0 when shorter or caseless) */
};

struct prefilter_table {
    const uint64_t *bits;                  /* 1 << PREFILTER_HASH_BITS bits */
    const uint32_t *bucket;                /* (1 << PREFILTER_BUCKET_BITS) + 1 */
    const struct prefilter_entry *entries; /* sorted by hash; NULL when none */
    size_t count;
    unsigned window, stride;
    uint32_t mask;
    int teddy; /* the masks below hold (they are used where the CPU has AVX2) */
    unsigned char teddy_lo[PREFILTER_TEDDY_BYTES][16], teddy_hi[PREFILTER_TEDDY_BYTES][16];
};

struct prefilter_data {
    struct prefilter_table tables[2]; /* literals of 7 bytes or more; shorter ones */
    const char *texts;                /* every literal, each NUL-terminated */
    size_t texts_len;
    size_t sig_count;
    uint32_t byte_order; /* "\1\2\3\4" as a uint32_t where the tables were built */
};

/* PF's tables, borrowed. */
const struct prefilter_data *prefilter_data(const struct prefilter *pf);
/* A prefilter that borrows D's tables (static data); NULL when out of
 * memory or when D was built for another byte order (then build one). */
struct prefilter *prefilter_from_data(const struct prefilter_data *d);

/* Caller-owned scratch for one scanning thread. */
struct prefilter_state {
    uint32_t *seen; /* one slot per signature */
    uint32_t epoch;
    size_t sig_count;
};
int prefilter_state_init(struct prefilter_state *st, const struct prefilter *pf);
void prefilter_state_free(struct prefilter_state *st);

/* Writes into OUT (room for sig_count) the indexes of the signatures whose
 * literal occurs in LINE, each once, in signature order of discovery.
 * Returns how many. */
size_t prefilter_find(const struct prefilter *pf, struct prefilter_state *st, const char *line, size_t len,
                      uint32_t *out);

#endif
