/* One job's scan results: its inputs and the findings (matched lines with
 * their fields), capped so that memory stays bounded however many lines
 * match; counts are always kept.  The job owns inputs and findings;
 * od_job_free releases them.  scan.c fills it, classify.c reads it. */
#ifndef OOMDIAG_JOB_H
#define OOMDIAG_JOB_H

#include <sys/types.h>

#include "join.h"
#include "matcher.h"
#include "msg.h"
#include "oomdiag/oomdiag.h"
#include "reader.h"
#include "ruleset.h"

/* Findings kept per signature per input, and per job in all. */
enum {
    JOB_NEAR_MAX = 16,
    JOB_KEEP_PER_SIG_INPUT = 8,
    JOB_KEEP_TOTAL = 20000,
    JOB_TEXT_MAX = 2048,
    JOB_PENDING_MAX = 4096
};

struct finding {
    const struct sig *sig;
    size_t input;
    unsigned long long line;
    char *text; /* safe display text */
    struct od_fields fields;
    int rank;          /* -1 unknown */
    long long step_at; /* last progress step seen in this input before it, or -1 */
    unsigned long long seq;
};

/* What one input shows of one cause: where its last retry line and its
 * last failure line after a retry were, and what came after its last line
 * of any role but hint; kept for every matching line, capped or not, so
 * the classifier can tell a failure the program survived (a retry, then
 * progress, no failure after; or progress that goes on after it) from one
 * it died of. */
struct retry_mark {
    const struct cause *cause;
    unsigned long long retry_line;   /* last retry line, or 0 */
    unsigned long long fail_line;    /* last root or confirmation line after the first retry, or 0 */
    unsigned long long progress_at;  /* progress lines seen up to the last retry */
    int retry_goes_on;               /* the last retry line itself says the program went on */
    unsigned long long last_line;    /* last line of the cause (any role but hint) */
    unsigned long long went_on;      /* progress lines after it, until another cause's line */
    unsigned long long cut_line;     /* the line of another cause that stopped the count, or 0 */
    long long step_first, step_last; /* steps of the progress lines counted, or -1 */
    int rank;                        /* LAST_LINE's rank, or -1 */
    int finished;                    /* a progress line that shows by itself the program went on was counted */
};
enum { JOB_RETRY_MARKS = 16 };

/* A reading of a memory series (a signature's "series" capture): bytes,
 * or a percentage when PERCENT; the step it came at (-1: none) and its
 * line.  memseries.c keeps the last JOB_SERIES_MAX of an input, and its
 * last JOB_BOUNDARY_MAX boundary lines (an evaluation, a checkpoint). */
struct series_point {
    double value;
    long long step;
    unsigned long long line;
};
struct boundary_mark {
    const char *name; /* the signature's "boundary" (borrowed from the ruleset) */
    unsigned long long line;
};
enum { JOB_SERIES_MAX = 64, JOB_BOUNDARY_MAX = 8 };
struct series_log {
    struct series_point *points; /* a ring of JOB_SERIES_MAX, or NULL: none yet; owned */
    size_t count;                /* readings seen in all (the ring holds the last ones) */
    int percent;                 /* the first reading's kind: the others must match it */
    /* a ring of the last boundaries, BOUNDARY_COUNT seen in all */
    struct boundary_mark boundaries[JOB_BOUNDARY_MAX];
    size_t boundary_count;
};

struct input {
    char *path;
    unsigned long long lines, bytes;
    int rank;
    int error;              /* it could not be read: trouble */
    const char *error_kind; /* why it gave no text (static), or NULL */
    char *error_message;    /* owned */
    long long last_step;    /* last progress step seen */
    int context_rank;       /* rank set by the last context line, or -1 */
    unsigned long long progress_lines;
    unsigned in_report; /* selfreport_skip's state: inside oomdiag's own report */
    struct retry_mark *marks; /* causes seen in this input, at most JOB_RETRY_MARKS; owned */
    size_t mark_count, mark_cap;
    struct series_log series; /* memory readings and boundaries (memseries.h) */
};

struct od_job {
    const struct od_ruleset *rs;
    struct od_scan_opts opts;
    struct msg_sink msgs;
    struct matcher *matcher;
    struct input *inputs;
    size_t input_count, input_cap;
    struct finding *findings;
    size_t finding_count, finding_cap;
    unsigned long long *sig_counts; /* matches per signature, all inputs */
    unsigned *kept_here;            /* findings kept per signature, this input */
    unsigned long long seq;
    char *line_buf;        /* scratch for escape stripping */
    struct reader *reader; /* reused for every input */
    char *pending;         /* the last "\r" update that looked like progress */
    size_t pending_len;
    struct join join;                           /* lines held while a broken message may be rejoined */
    size_t join_input;                          /* the input whose lines it holds (fed inputs take turns) */
    struct matcher_want want[MATCHER_WANT_MAX]; /* what the join's first line lacks */
    size_t want_count;
    size_t join_score, join_best_k; /* the best reading so far: its fields, lines */
    int join_best_glued;
    /* The line prefixes the join's first line starts with (matcher_prefix),
     * found when a second line comes: a continuation that carries the same
     * ones in the same order is held without them. */
    const struct line_prefix *join_shapes[JOIN_PREFIX_MAX];
    size_t join_shape_end[JOIN_PREFIX_MAX]; /* where the first line's rest starts after each */
    size_t join_shape_count;
    int join_shapes_known;
    int had_error;
    struct {
        size_t input;
        unsigned long long line;
        char *text; /* NULL: none yet */
    } last_error;   /* the last line a signature of role "error" matched */
    struct near_miss {
        const struct sig *sig;
        size_t input;
        unsigned long long line, count;
        char *text;
    } near[JOB_NEAR_MAX]; /* signatures whose literal a line held but not their pattern: the first line of each */
    size_t near_count;
    struct near_miss limit[JOB_NEAR_MAX]; /* signatures that hit PCRE2's match limit: the first line of each (no text) */
    size_t limit_count;
};

/* Adds an input record; returns its index or -1. */
long job_add_input(struct od_job *job, const char *path);
/* Takes back the last N findings (and their counts): the findings of a
 * line that a joined reading now stands for. */
void job_unrecord(struct od_job *job, size_t n);
/* Marks input IDX (or a new record for PATH when IDX < 0) as one that gave
 * no text, for KIND ("not-found", "permission", "unreadable",
 * "empty-directory": trouble; "empty", "binary": not) with MESSAGE.
 * Returns the index, or -1 when out of memory. */
long job_input_error(struct od_job *job, long idx, const char *path, const char *kind, const char *message);
/* Notes a progress line of INPUT with STEP (-1: none) and RANK (-1:
 * unknown) for the causes whose last line came before it; GOES_ON: the
 * line by itself shows the program went on (a phase finished). */
void job_progress_after(struct od_job *job, size_t input, long long step, int rank, int goes_on);
/* Whether a progress line's rank can matter: some open mark has a rank. */
int job_progress_wants_rank(const struct od_job *job, size_t input);
/* Records a match (copies FIELDS when the finding is kept). 0 or -1. */
int job_record(struct od_job *job, size_t input, const struct sig *sig, const struct od_fields *fields,
               const char *text, size_t len, unsigned long long line, int rank);
/* A "\r" progress update kept aside was counted only now, after the
 * findings of LINE: marks of that line count it as before them. */
void job_progress_before(struct od_job *job, size_t input, unsigned long long line);
/* INPUT's mark for cause C, or NULL. */
const struct retry_mark *job_retry_mark(const struct input *in, const struct cause *c);

#endif
