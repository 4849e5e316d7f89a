/* Rejoining a message that a terminal, a paste or a log shipper broke over
 * several physical lines.  A struct join holds copies of the lines since
 * the one that started the message (at most JOIN_MAX_LINES lines and
 * JOIN_MAX_BYTES bytes in all) and offers two readings of their whole:
 * - glued: the lines back to back, as a wrap at a fixed width (fold -w, a
 *   terminal) or a split at a byte count (a shipper) cut them; this reading
 *   holds for K lines only if lines 2..K-1 are as long as line 1 (each full
 *   line was cut at the same width, the last one may be shorter);
 * - spaced: the lines with the white space around each break replaced by
 *   one space, as a paste that broke at spaces (and perhaps lost them);
 *   blank lines are left out.
 * The caller owns the struct; join_free releases its buffers. */
#ifndef OOMDIAG_JOIN_H
#define OOMDIAG_JOIN_H

#include <stddef.h>

enum { JOIN_MAX_LINES = 16, JOIN_MAX_BYTES = 64 * 1024, JOIN_MIN_WIDTH = 20 };

struct join_line {
    size_t off, len; /* in the glued text: the whole line */
    size_t skip;     /* its first bytes that readings leave out (prefixes it shares with the first line) */
    unsigned long long number;
    int cr_ended;
};

enum { JOIN_RUN_MAX = 8 };    /* lines of the run kept before a join's first line */
enum { JOIN_PREFIX_MAX = 4 }; /* line prefixes taken off a continuation */

struct join {
    size_t first_done; /* lines 1.. that were already matched on their own (the run a join started with) */
    size_t undo;       /* their findings, which a reading that stands for them replaces */
    /* The run: the last lines, kept while they may be the first parts of a
     * line that a wrap at a fixed width cut up: each as long as the
     * longest line so far, not ended by a lone "\r", and with no match but
     * findings; at most JOIN_RUN_MAX of them, all of one length, back to
     * back in SEAM (SEAM_LEN bytes, 0: none kept).  Its last line is the
     * seam a literal may straddle. */
    char *seam;
    size_t seam_len, max_len;
    struct {
        size_t len, findings; /* findings: what its own matches made (undone if the join stands for it) */
        unsigned long long number;
    } run[JOIN_RUN_MAX];
    size_t run_count;
    size_t first_skip; /* the first line's prefixes that the continuations carried too (and were held without) */
    char *glued;       /* the held lines back to back: also their store */
    size_t glued_len;
    char *scratch; /* JOIN_MAX_BYTES + JOIN_MAX_LINES bytes for a reading */
    struct join_line lines[JOIN_MAX_LINES];
    size_t count;
    size_t glued_lines; /* the glued reading holds for this many lines */
};

/* 0, or -1 when out of memory. */
int join_init(struct join *j);
void join_free(struct join *j);

/* Starts over with TEXT (LEN bytes) as line 1.  0, or -1 if it does not
 * fit (the join is then empty). */
int join_start(struct join *j, const char *text, size_t len, unsigned long long number, int cr_ended);
/* Is a join under way? */
static inline int join_active(const struct join *j)
{
    return j->count > 0;
}
/* Does TEXT look like the start of a record of its own (see
 * join_continues)?  A blank line is not one. */
int join_record_start(const char *text, size_t len);
/* Notes a line matched on its own: it is added to the run (if PLAIN: its
 * matches made FINDINGS findings and nothing else; the run starts over
 * with it if its length is not the run's), or the run is dropped. */
void join_seam_note(struct join *j, const char *text, size_t len, unsigned long long number, int cr_ended, int plain,
                    size_t findings);
/* Forgets the run and the longest line (a new input). */
void join_seam_reset(struct join *j);
/* The REACH bytes each side of the seam between the run's last line and TEXT,
 * written into OUT (2 * REACH bytes); 0 when no line is kept. *CUT is
 * where TEXT's part begins in OUT. */
size_t join_seam_window(const struct join *j, const char *text, size_t len, size_t reach, char *out, size_t *cut);
/* Did the run's lines make no findings (as the first parts of a cut line
 * would not)? */
static inline int join_run_told_nothing(const struct join *j)
{
    for (size_t i = 0; i < j->run_count; i++)
        if (j->run[i].findings > 0)
            return 0;
    return 1;
}
/* The length of the run's last line (the seam), 0 when none is kept. */
static inline size_t join_seam_last(const struct join *j)
{
    return j->seam_len > 0 ? j->run[j->run_count - 1].len : 0;
}
/* Starts a join with the run's lines first (already matched on their own)
 * and TEXT after them, SKIP and FIRST_SKIP as join_add takes them (the
 * prefixes TEXT shares with the run's last line: the join then starts with
 * that line alone).  0, or -1 when no line is kept or it does not fit. */
int join_start_at_seam(struct join *j, const char *text, size_t len, size_t skip, size_t first_skip,
                       unsigned long long number, int cr_ended);
/* Could TEXT continue the held message?  Not when no room is left, when it
 * is a second blank line in a row (one is let through: pastes that double
 * their line ends put a blank line at every break), or when it looks like
 * the start of a record of its own: a time
 * stamp or date, a bracketed prefix ("[rank1]:", "[2026-01-01 ..."), a
 * leading "Name: " label, a header that ends in ':'; but the look does not
 * count where a wrap at a fixed width cut (join_wrap_cut). */
int join_continues(const struct join *j, const char *text, size_t len);
/* Does TEXT look like the rest of the last held line, cut by a wrap at a
 * fixed width?  The held lines are all as long as the longest line so far,
 * and the break cuts a word in two: letters on both sides ("... max al" /
 * "lowed: 18.13 GB)", "CUDA_ERR" / "OR_OUT"), not a lower-case letter before
 * a capital.  A wrap cuts anywhere, so then a label or a literal at TEXT's
 * start does not make it a record of its own. */
int join_wrap_cut(const struct join *j, const char *text, size_t len);
/* Adds TEXT as the next line (join_continues must have said yes, on TEXT
 * less its first SKIP bytes).  SKIP: the line prefixes TEXT shares with the
 * first line (whose first FIRST_SKIP bytes they are), which readings leave
 * out and widths do not count; both 0 when none. */
void join_add(struct join *j, const char *text, size_t len, size_t skip, size_t first_skip, unsigned long long number,
              int cr_ended);
/* Does the glued reading hold for all the held lines? */
static inline int join_glued_holds(const struct join *j)
{
    return j->glued_lines == j->count;
}
/* Writes into OUT (JOIN_MAX_BYTES + JOIN_MAX_LINES bytes) the reading of
 * the first K held lines (GLUED or spaced); returns its length. */
size_t join_reading(const struct join *j, size_t k, int glued, char *out);
/* Empties the join. */
void join_clear(struct join *j);

#endif
