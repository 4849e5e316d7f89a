/* Evidence: a capture of a signature's pattern turned into a typed field
 * (a "_bytes" name: a size in bytes; digits: an integer; else safe text),
 * fields derived from others (shape x dtype -> requested_bytes), and the
 * one list of the field names the engine itself relies on; every other
 * name is the rules' own (docs/rules.md, "Captures and fields").  Pure functions over a
 * caller-owned od_fields. */
#ifndef OOMDIAG_EVIDENCE_H
#define OOMDIAG_EVIDENCE_H

#include <stddef.h>

#include "fields.h"
#include "ruleset.h"

/* Captures the scan reads. */
#define EVIDENCE_RANK "rank" /* the rank a line names (also a rank source's one group) */
#define EVIDENCE_STEP "step" /* a progress line's step */
/* Captures a size is derived from, and the size. */
#define EVIDENCE_SHAPE "shape"                     /* "[32,1024,1024]", "(32, 1024)", "32x1024" */
#define EVIDENCE_DTYPE "dtype"                     /* a dtype the rules give a size ("dtypes") */
#define EVIDENCE_REQUESTED_BYTES "requested_bytes" /* elements of shape x size of dtype, unless captured */
/* A capture whose name ends so is a size: "2.87 GiB" -> bytes. */
#define EVIDENCE_BYTES_SUFFIX "_bytes"
/* Names that templates and conditions see beside the fields (classify). */
#define EVIDENCE_RANKS "ranks" /* every rank the diagnosis saw, "0, 3" */
#define EVIDENCE_PATH "path"   /* the lead finding's input */
#define EVIDENCE_LINE "line"   /* the lead finding's line number */

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
