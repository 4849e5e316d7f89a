/* Evidence: a capture of a signature's pattern turned into a typed field
 * (a "_bytes" name: a size in bytes; digits: an integer; else safe text),
 * fields derived from others (shape x dtype -> requested_bytes); the
 * field names the engine itself relies on are listed once, in
 * fieldnames.h (the rules layer, whose field declarations check them too),
 * and every other name is the rules' own (docs/rules.md, "Captures and fields").  Pure functions over a
 * caller-owned od_fields. */
#ifndef OOMDIAG_EVIDENCE_H
#define OOMDIAG_EVIDENCE_H

#include <stddef.h>

#include "fieldnames.h" /* the names, once: EVIDENCE_RANK, EVIDENCE_STEP, ... */
#include "fields.h"
#include "ruleset.h"

/* Ranks run from 0 to below this. */
enum { EVIDENCE_RANK_MAX = 1000000 };

/* The integer S (LEN bytes: an optional sign, then digits only) in *OUT;
 * 0, or -1 when it is not one or does not fit. */
int evidence_int(const char *s, size_t len, long long *out);
/* An rx_capture_fn: the capture NAME = VALUE (LEN bytes) typed into the
 * od_fields CTX; an unparsable size is left out, not guessed.  0 or -1
 * (out of memory). */
int evidence_capture(void *ctx, const char *name, const char *value, size_t len);
/* Adds to F what its captures imply: requested_bytes from shape and
 * dtype (with RS's dtype sizes), when it was not captured itself. */
void evidence_derive(const struct od_ruleset *rs, struct od_fields *f);
/* F's rank, when it holds a valid one; else -1. */
int evidence_rank(const struct od_fields *f);

#endif
