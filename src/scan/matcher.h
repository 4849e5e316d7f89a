/* Applying a ruleset to one line: the literal prefilter picks candidate
 * signatures, PCRE2 confirms them, named captures become typed fields, and
 * of several signatures of one cause and role that match the line only the
 * most specific is reported (the one that captures the most numbers, then
 * the most fields, then the longest match, then the first defined).  A
 * signature that does not match a line is tried again on what follows each
 * recognised line prefix (see matcher_prefix).  matcher_line answers with
 * one value: the matches, and whether the line looks like the start of a
 * message broken over several lines (what it wants joined).  Never prints:
 * regex trouble goes to the msg_sink.  A matcher borrows the ruleset, which
 * it never writes, and owns the signatures' compiled regexes (compiled on
 * first use: the scan's cache), its scratch state, its last result and what
 * it learns of each signature (runs, limit hits); matcher_free releases
 * it.  Not shared between threads. */
#ifndef OOMDIAG_MATCHER_H
#define OOMDIAG_MATCHER_H

#include <stddef.h>
#include <stdint.h>

#include "msg.h"
#include "ruleset.h"

struct matcher;

struct matcher *matcher_create(const struct od_ruleset *rs, struct msg_sink *sink);
void matcher_free(struct matcher *m);

/* Flags for matcher_line. */
enum {
    MATCHER_SKIP_PROGRESS = 1,  /* leave progress signatures out */
    MATCHER_ONLY_PROGRESS = 2,  /* run progress signatures only */
    MATCHER_ALL_HITS = 4,       /* report every match, not only the most specific of a cause */
    MATCHER_HOLD = 8,           /* if the line wants a join, report no match (the result is `held`) */
    MATCHER_PROGRESS_STEP = 16, /* a progress signature's fields are its step alone (all the scan reads of them) */
    MATCHER_NO_FALLBACK = 32    /* leave fallback signatures out (a reading joined from several lines) */
};

/* A cause and role whose signatures compete on one line. */
struct matcher_want {
    const struct cause *cause;
    enum od_role role;
};
enum { MATCHER_WANT_MAX = 8 };

/* One reported match: the signature and its parsed captures (a caller
 * that keeps them copies them with fields_copy). */
struct matcher_hit {
    const struct sig *sig;
    const struct od_fields *fields;
};

/* All a line told the matcher, in one value.  It and what it points to
 * are the matcher's, valid until its next matcher_line. */
struct matcher_result {
    /* The most specific match of each cause and role (every match under
     * MATCHER_ALL_HITS), in signature discovery order; none when held. */
    const struct matcher_hit *hits;
    size_t hit_count;
    /* MATCHER_HOLD, and the line wants a join: the causes and roles for
     * which a signature whose literal is in the line failed to match
     * although its pattern has more named groups than the best match of
     * its cause and role captured (or none matched), so that the line may
     * hold a message's headline but not all of it (up to MATCHER_WANT_MAX,
     * also when not held)... */
    int held;
    struct matcher_want want[MATCHER_WANT_MAX];
    size_t want_count;
    /* ... and what the line's matches of them tell, as the sum over them
     * of (captured fields + 1). */
    size_t want_score;
    /* Every reported match is of a cause, and none a progress or context
     * line (so that its findings, and a note of the last error line, are
     * all it left). */
    int plain;
    /* A progress signature whose literal was in the line was left out
     * (MATCHER_SKIP_PROGRESS). */
    int skipped_progress;
    /* The signatures of a cause whose literal the line held but whose
     * pattern did not match it (indexes into the ruleset's sigs). */
    const uint32_t *near_misses;
    size_t near_miss_count;
};

/* Runs every candidate signature over LINE (LEN bytes).  Never NULL. */
const struct matcher_result *matcher_line(struct matcher *m, const char *line, size_t len, int flags);
/* The signatures of causes (no progress, context or fallback ones) whose
 * literal is in TEXT: up to MAX into OUT; returns how many. */
size_t matcher_literal_sigs(struct matcher *m, const char *text, size_t len, const struct sig **out, size_t max);
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

/* SIG's compiled regex (compiled now if it is not yet, reported to the
 * matcher's sink once if it cannot be), or NULL. */
const struct rx *matcher_sig_rx(struct matcher *m, const struct sig *sig);
/* Runs that hit PCRE2's limits (the line was not searched to its end)
 * since the last call, and in *SIG the last signature that did; resets. */
unsigned matcher_limit_take(struct matcher *m, const struct sig **sig);

/* The rank a rank source finds in TEXT, or -1. */
int matcher_rank(struct matcher *m, const struct rank_source *src, const char *text, size_t len);

#endif
