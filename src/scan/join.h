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
    size_t off, len; /* in the glued text */
    unsigned long long number;
    int cr_ended;
};

struct join {
    int first_done; /* line 1 was already matched on its own (a seam join) */
    size_t undo;    /* its findings, which a reading that stands for it replaces */
    /* The last line, kept while it may be the first part of a line that a
     * wrap at a fixed width cut in two: as long as the longest line so far,
     * not ended by a lone "\r", and with no match but findings. */
    char *seam;
    size_t seam_len, max_len;
    size_t seam_findings; /* findings its own matches made (undone if the join stands for it) */
    unsigned long long seam_number;
    char *glued; /* the held lines back to back: also their store */
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
/* Notes a line matched on its own: it is kept as a possible seam (if
 * PLAIN: its matches made FINDINGS findings and nothing else), or the seam
 * is dropped. */
void join_seam_note(struct join *j, const char *text, size_t len, unsigned long long number, int cr_ended, int plain,
                    size_t findings);
/* Forgets the seam and the longest line (a new input). */
void join_seam_reset(struct join *j);
/* The REACH bytes each side of the seam between the kept line and TEXT,
 * written into OUT (2 * REACH bytes); 0 when no line is kept. *CUT is
 * where TEXT's part begins in OUT. */
size_t join_seam_window(const struct join *j, const char *text, size_t len, size_t reach, char *out, size_t *cut);
/* Starts a join with the kept line as line 1 (already matched on its own)
 * and TEXT as line 2.  0, or -1 when no line is kept. */
int join_start_at_seam(struct join *j, const char *text, size_t len, unsigned long long number, int cr_ended);
/* Could TEXT continue the held message?  Not when no room is left, when it
 * is a second blank line in a row (one is let through: pastes that double
 * their line ends put a blank line at every break), or when it looks like
 * the start of a record of its own: a time
 * stamp or date, a bracketed prefix ("[rank1]:", "[2026-01-01 ..."), a
 * leading "Name: " label, a header that ends in ':'. */
int join_continues(const struct join *j, const char *text, size_t len);
/* Adds TEXT as the next line (join_continues must have said yes). */
void join_add(struct join *j, const char *text, size_t len, unsigned long long number, int cr_ended);
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
