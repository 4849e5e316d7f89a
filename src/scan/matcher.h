/* Applying a ruleset to one line: the literal prefilter picks candidate
 * signatures, PCRE2 confirms them, named captures become typed fields.
 * Never prints: regex trouble goes to the msg_sink.  A matcher borrows the
 * ruleset and owns its scratch state; matcher_free releases it. */
#ifndef OOMDIAG_MATCHER_H
#define OOMDIAG_MATCHER_H

#include <stddef.h>

#include "msg.h"
#include "ruleset.h"

struct matcher;

struct matcher *matcher_create(const struct od_ruleset *rs, struct msg_sink *sink);
void matcher_free(struct matcher *m);

/* Called for each signature that matches; FIELDS holds its parsed captures
 * (the callee may take them over with fields_copy; they are cleared after
 * the call).  A non-zero return stops the line. */
typedef int (*matcher_hit_fn)(void *ctx, const struct sig *sig, const struct od_fields *fields);

/* Flags for matcher_line. */
enum {
    MATCHER_SKIP_PROGRESS = 1, /* leave progress signatures out */
    MATCHER_ONLY_PROGRESS = 2  /* run progress signatures only */
};

/* Runs every candidate signature over LINE (LEN bytes). Returns the number
 * of matches, or -1 if FN failed. */
int matcher_line(struct matcher *m, const char *line, size_t len, int flags, matcher_hit_fn fn, void *ctx);
/* Did the last matcher_line skip a progress signature whose literal was
 * in the line (MATCHER_SKIP_PROGRESS)? */
int matcher_skipped_progress(const struct matcher *m);

/* Runs one signature's regex (compiling it if needed); parses its captures
 * into FIELDS (cleared first).  1 match, 0 none, -1 regex trouble. */
int matcher_try(struct matcher *m, struct sig *sig, const char *line, size_t len, struct od_fields *fields);

/* The rank a rank source finds in TEXT, or -1. */
int matcher_rank(struct matcher *m, const struct rank_source *src, const char *text, size_t len);

#endif
