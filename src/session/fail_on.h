/* --fail-on, parsed once: which diagnoses count for the exit status.  A
 * struct fail_on owns its copy of the list (any length); fail_on_free
 * releases it. */
#ifndef OOMDIAG_FAIL_ON_H
#define OOMDIAG_FAIL_ON_H

#include <stddef.h>

#include "oomdiag/oomdiag.h"

struct fail_on {
    char *text;          /* the list, its commas made NULs */
    const char **causes; /* the causes that count, into TEXT (none listed: all) */
    size_t cause_count;
    enum od_confidence min_confidence; /* the lowest confidence that counts */
};

/* Does the rule set know cause ID? */
typedef int (*fail_on_known_fn)(const void *ctx, const char *id);

/* Parses TEXT, comma-separated causes (each checked with KNOWN) and
 * confidence names.  0; or -1 with *BAD at the item that is neither (it
 * lives in F: print it before fail_on_free), or *BAD NULL when out of
 * memory. */
int fail_on_parse(struct fail_on *f, const char *text, fail_on_known_fn known, const void *ctx, const char **bad);

/* Does diagnosis D count for the exit status (F: --fail-on, or NULL for
 * every root cause)? */
int fail_on_counts(const struct fail_on *f, const struct od_diagnosis *d);

void fail_on_free(struct fail_on *f);

#endif
