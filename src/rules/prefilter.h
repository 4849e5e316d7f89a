/* The literal prefilter: every signature's required literals, searched in
 * one pass over a line, so that only signatures whose literal occurs are
 * given to PCRE2.  Built from a plain array of literals (it knows nothing
 * of rule sets), whose texts it borrows; freed with prefilter_free.  The
 * per-scan dedupe state is the caller's. */
#ifndef OOMDIAG_PREFILTER_H
#define OOMDIAG_PREFILTER_H

#include <stddef.h>
#include <stdint.h>

struct prefilter;

/* One literal of signature SIG (an index below the SIG_COUNT given to
 * prefilter_build); TEXT is NUL-terminated and must outlive the
 * prefilter. */
struct prefilter_literal {
    uint32_t sig;
    const char *text;
    int caseless;
};

/* A prefilter of the N literals LITS, for signatures 0 .. SIG_COUNT - 1
 * (LITS may be freed after the call); NULL when out of memory. */
struct prefilter *prefilter_build(const struct prefilter_literal *lits, size_t n, size_t sig_count);
void prefilter_free(struct prefilter *pf);

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
