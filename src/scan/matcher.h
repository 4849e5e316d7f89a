/* Applying a ruleset to one line: the literal prefilter picks candidate
 * signatures, PCRE2 confirms them, named captures become typed fields, and
 * of several signatures of one cause and role that match the line only the
 * most specific is reported (the one that captures the most numbers,
 * then the most fields, then the longest match, then the first defined).  The matcher also tells
 * whether the line looks like the start of a message broken over several
 * lines (see matcher_wants_join).  A signature that does not match a line
 * is tried again on what follows each recognised line prefix (see
 * matcher_prefix).  Never prints: regex trouble goes to the
 * msg_sink.  A matcher borrows the ruleset (whose only cache it fills is
 * each signature's compiled regex) and owns its scratch state and what it
 * learns of each signature (runs, limit hits); matcher_free releases it. */
#ifndef OOMDIAG_MATCHER_H
#define OOMDIAG_MATCHER_H

#include <stddef.h>
#include <stdint.h>

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
    MATCHER_ONLY_PROGRESS = 2, /* run progress signatures only */
    MATCHER_ALL_HITS = 4,      /* report every match, not only the most specific of a cause */
    MATCHER_HOLD = 8,          /* if the line wants a join, report nothing and return MATCHER_HELD */
    MATCHER_PROGRESS_STEP = 16, /* a progress signature's fields are its step alone (all the scan reads of them) */
    MATCHER_NO_FALLBACK = 32    /* leave fallback signatures out (a reading joined from several lines) */
};
enum { MATCHER_HELD = -2 };

/* A cause and role whose signatures compete on one line. */
struct matcher_want {
    const struct cause *cause;
    enum od_role role;
};
enum { MATCHER_WANT_MAX = 8 };

/* Runs every candidate signature over LINE (LEN bytes) and calls FN for
 * the most specific match of each cause and role (every match with
 * MATCHER_ALL_HITS), in signature discovery order.  Returns the number of
 * calls, or -1 if FN failed. */
int matcher_line(struct matcher *m, const char *line, size_t len, int flags, matcher_hit_fn fn, void *ctx);
/* Did the last matcher_line skip a progress signature whose literal was
 * in the line (MATCHER_SKIP_PROGRESS)? */
int matcher_skipped_progress(const struct matcher *m);
/* The signatures of a cause whose literal the last line held but whose
 * pattern did not match it (indexes into the ruleset's sigs): *OUT points
 * at them; returns how many. */
size_t matcher_near_misses(const struct matcher *m, const uint32_t **out);

/* After matcher_line (also when it held the line): the causes and roles
 * for which a signature whose literal is in the line failed to match
 * although its pattern has more named groups than the best match of its
 * cause and role captured fields (or none matched): the line may hold a
 * message's headline but not all of it.  Writes up to MATCHER_WANT_MAX of
 * them into OUT; returns how many. */
size_t matcher_wants_join(const struct matcher *m, struct matcher_want *out);
/* After matcher_line: what its matches of the causes and roles it wants
 * tell, as the sum over them of (captured fields + 1). */
size_t matcher_want_score(const struct matcher *m);
/* The same, as the signatures themselves: up to MAX into OUT. */
size_t matcher_literal_sigs(struct matcher *m, const char *text, size_t len, const struct sig **out, size_t max);
/* Was every match the last matcher_line reported of a cause, and none a
 * progress or context line (so that its findings, and a note of the last
 * error line, are all it left)? */
int matcher_line_was_plain(const struct matcher *m);
/* The longest literal, less one byte: how far a literal cut in two by a
 * line break can reach each side of the break. */
size_t matcher_literal_reach(const struct matcher *m);
/* Does TEXT hold a literal of a signature of one of WANT's causes and
 * roles?  (Such a line starts a message of its own.) */
int matcher_has_literal_of(struct matcher *m, const char *text, size_t len, const struct matcher_want *want, size_t n);

/* The line prefix (rules' "line_prefixes", tried in order) that TEXT
 * starts with: its length (LEN when the line is nothing else), 0 when none;
 * *WHICH (if not NULL) is then its shape.  matcher_line tries every
 * signature that did not match a line again behind each such prefix in
 * turn. */
size_t matcher_prefix(struct matcher *m, const char *text, size_t len, const struct line_prefix **which);

/* Runs one signature's regex (compiling it if needed); parses its captures
 * into FIELDS (cleared first).  1 match, 0 none, -1 regex trouble. */
int matcher_try(struct matcher *m, struct sig *sig, const char *line, size_t len, struct od_fields *fields);

/* How often SIG's pattern hit PCRE2's limits in this matcher, and
 * whether it is switched off for that (after 3). */
unsigned matcher_limit_hits(const struct matcher *m, const struct sig *sig);
/* Runs that hit PCRE2's limits (the line was not searched to its end)
 * since the last call, and in *SIG the last signature that did; resets. */
unsigned matcher_limit_take(struct matcher *m, const struct sig **sig);
int matcher_sig_disabled(const struct matcher *m, const struct sig *sig);
/* Forgets what it learned of the signatures: every one runs again as new. */
void matcher_forget(struct matcher *m);

/* The rank a rank source finds in TEXT, or -1. */
int matcher_rank(struct matcher *m, const struct rank_source *src, const char *text, size_t len);

#endif
