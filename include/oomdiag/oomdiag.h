/* oomdiag: the public API of the diagnosis engine.
 *
 * Ownership: each od_X_create has its od_X_free, which the caller calls
 * once; od_classify's report is freed with od_report_free, and what it
 * reaches (diagnoses, evidence, fields) lives until then.  A job borrows
 * its ruleset and a renderer its FILE, options and words: they must
 * outlive it.  The library writes only the reports it is asked to render,
 * to the caller's FILE; problems go to the od_msg_fn the caller gives. */
#ifndef OOMDIAG_OOMDIAG_H
#define OOMDIAG_OOMDIAG_H

#include <stddef.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Exit statuses, as grep's. */
enum od_exit {
    OD_EXIT_DIAGNOSED = 0, /* at least one failure was diagnosed */
    OD_EXIT_NONE = 1,      /* the input was read, nothing was diagnosed */
    OD_EXIT_TROUBLE = 2    /* bad usage, unreadable input, bad rules, write error */
};

enum od_severity { OD_SEV_NOTE, OD_SEV_WARNING, OD_SEV_ERROR };

/* One diagnostic about oomdiag's own input (a rule file, a log file). */
struct od_message {
    enum od_severity severity;
    const char *file;   /* may be NULL */
    unsigned long line; /* 1-based, 0 = none */
    unsigned long col;  /* 1-based, 0 = none */
    const char *text;   /* one line, no newline */
    const char *source; /* the offending source line or pattern, or NULL */
    size_t caret;       /* 0-based column of the caret under source */
};
typedef void (*od_msg_fn)(void *ctx, const struct od_message *m);

/* ---- evidence fields ---------------------------------------------------- */
enum od_field_type { OD_FIELD_INT, OD_FIELD_BYTES, OD_FIELD_STRING };
struct od_field {
    char *name;
    enum od_field_type type;
    long long num; /* OD_FIELD_INT and OD_FIELD_BYTES */
    char *str;     /* OD_FIELD_STRING */
};
struct od_fields {
    size_t count, cap;
    struct od_field *items;
};

enum od_role {
    OD_ROLE_ROOT,
    OD_ROLE_CONSEQUENCE,
    OD_ROLE_CONFIRMATION,
    OD_ROLE_HINT,
    OD_ROLE_PROGRESS,
    OD_ROLE_CONTEXT,  /* sets the rank of the lines that follow */
    OD_ROLE_RETRY,    /* signature: the program caught a failure of its cause and tries again */
    OD_ROLE_ERROR,    /* signature: an error line of no known cause, shown when nothing is diagnosed */
    OD_ROLE_RECOVERED /* diagnosis: a failure the program survived (retried, then went on) */
};
enum od_confidence { OD_CONF_LOW, OD_CONF_MEDIUM, OD_CONF_HIGH };
/* What a scheduler should do after a root cause (rules' "decision"). */
enum od_decision {
    OD_DECISION_NONE = -1,       /* not a root, or no rule says */
    OD_DECISION_RETRY,           /* transient: the same job may pass */
    OD_DECISION_RETRY_ELSEWHERE, /* this node or GPU is at fault */
    OD_DECISION_CHANGE_AND_RETRY, /* it fails the same way until a setting changes */
    OD_DECISION_STOP             /* a bug in the program */
};

/* ---- rules ------------------------------------------------------------- */
struct od_ruleset;
struct od_ruleset *od_ruleset_create(od_msg_fn fn, void *ctx);
/* Whether to keep the rules' sample lines (for --check-rules); kept unless
 * told otherwise. Leaving them out makes loading faster. Call before adding. */
void od_ruleset_keep_samples(struct od_ruleset *rs, int keep);
/* Adds the embedded rules/ files. Returns 0, or -1 after reporting errors. */
int od_ruleset_add_builtin(struct od_ruleset *rs);
/* The embedded rules beside rule files being checked: their causes and
 * ids count, their samples are not loaded, and an embedded file identical
 * to one already loaded (--check-rules rules/) is left out.  0 or -1. */
int od_ruleset_add_builtin_context(struct od_ruleset *rs);
/* The embedded lexicon alone (the shared fragments of the embedded files
 * marked "lexicon": true), before rule files checked beside the embedded
 * rules, so that their patterns see it.  0 or -1. */
int od_ruleset_add_builtin_lexicon(struct od_ruleset *rs);
/* Adds a rule file, or every *.json in a directory (sorted). 0 or -1. */
int od_ruleset_add_path(struct od_ruleset *rs, const char *path);
/* Adds rules from memory (name is used in messages). 0 or -1. */
int od_ruleset_add_buffer(struct od_ruleset *rs, const char *name, const char *text, size_t len);
/* Resolves references, checks them, prepares matching. 0 or -1. */
int od_ruleset_finish(struct od_ruleset *rs);
/* After finish: *WORDS, LANG's words (NULL for English; the caller
 * frees them): the renderers' words and the causes' texts in LANG, an
 * overlay that od_classify_in and --explain read; the ruleset does not
 * change.  0, or -1 on no memory. */
struct od_words;
int od_ruleset_translate(struct od_ruleset *rs, const char *lang, struct od_words **words);
void od_ruleset_free(struct od_ruleset *rs);
const char *od_ruleset_version(const struct od_ruleset *rs);

/* ---- scanning ---------------------------------------------------------- */
struct od_scan_opts {
    int binary_as_text; /* scan files with NUL bytes in their first block */
    int no_messages;    /* -s: suppress per-file error messages */
    int trace;          /* --trace: note the lines that came close (a signature's literal without its pattern),
                           and why each diagnosis ranked so (od_diagnosis.trace) */
};
struct od_job;
struct od_job *od_job_create(const struct od_ruleset *rs, const struct od_scan_opts *opts, od_msg_fn fn, void *ctx);
/* Scans a file, a directory (recursively, sorted) or "-" into the job.
 * Returns 0, or -1 if some input could not be read (reported; the scan of
 * the other inputs goes on). */
int od_job_add_path(struct od_job *job, const char *path);
/* Calls FN for every file PATH names (itself, or each file under a
 * directory, as od_job_add_path reads them), and for PATH itself when it
 * cannot be walked, so that every input becomes a job.  Returns 0, or the
 * first non-zero result of FN. */
int od_each_file(const char *path, int (*fn)(void *ctx, const char *path), void *ctx);
/* Scans an open descriptor under the given display path. */
int od_job_add_fd(struct od_job *job, int fd, const char *path);
/* Scans LEN bytes of TEXT as an input named NAME, its lines read as a
 * file's (oomdiag run's facts). 0, or -1 when out of memory. */
int od_job_add_text(struct od_job *job, const char *name, const char *text, size_t len);
/* An input that arrives in pieces (a file that grows): its own line
 * splitter; its lines are read as a file's.  od_feed_close ends the input
 * and frees the feed.  Functions returning int: 0, or -1 when out of memory. */
struct od_feed;
struct od_feed *od_feed_open(struct od_job *job, const char *name);
int od_feed_push(struct od_feed *f, const char *p, size_t n);
/* Records the input's size so far (a report is about to be made). */
void od_feed_counts(struct od_feed *f);
int od_feed_close(struct od_feed *f);
/* The last progress step read so far: of F's input, or of any of JOB's
 * inputs; -1 when none. */
long long od_feed_last_step(const struct od_feed *f);
long long od_job_last_step(const struct od_job *job);
/* Settles the lines held back in case their rest follows (the inputs went
 * quiet). */
int od_job_settle(struct od_job *job);
/* Matching lines recorded so far. */
size_t od_job_finding_count(const struct od_job *job);
/* Forgets every input and finding but keeps the buffers, so that one job
 * object can scan many small jobs one after another. */
void od_job_reset(struct od_job *job);
void od_job_free(struct od_job *job);

/* ---- diagnoses ----------------------------------------------------------- */
struct od_input_info {
    const char *path;
    unsigned long long lines, bytes;
    int rank;                  /* -1 unknown */
    int error;                 /* it could not be read (trouble) */
    const char *error_kind;    /* why it gave no text: "not-found", "permission", "unreadable",
                                  "empty-directory", "empty", "binary"; or NULL */
    const char *error_message; /* a sentence, or NULL */
};
struct od_evidence {
    const char *path;
    unsigned long line;
    const char *rule;
    const char *text; /* safe text: no control characters, valid UTF-8 */
    int rank;         /* -1 unknown */
    const struct od_fields *fields;
};
struct od_step {
    const char *id;
    char *action;
    char *detail; /* may be NULL */
};
struct od_diagnosis {
    const char *cause;
    const char *variant; /* may be NULL */
    enum od_role role;   /* OD_ROLE_ROOT, OD_ROLE_CONSEQUENCE or OD_ROLE_RECOVERED */
    const char *title;
    const char *explanation;
    char *summary;
    enum od_confidence confidence;
    const char *framework; /* may be NULL */
    struct od_evidence *evidence;
    size_t evidence_count;
    unsigned long long match_count; /* all matching lines, shown or not */
    struct od_step *steps;
    size_t step_count;
    int *ranks;
    size_t rank_count;
    long long last_step;     /* -1 unknown */
    int consequence_of;      /* index of the root diagnosis, or -1 */
    int decision;            /* enum od_decision: set on roots only */
    double *series;          /* memory readings before it (bytes, or percentages), oldest first; or NULL */
    size_t series_count;
    int series_percent;      /* the readings are percentages */
    struct od_fields fields; /* merged evidence fields */
    char **trace;            /* why it was ranked so; only for a job scanned with trace on */
    size_t trace_count;
};
/* The last line of a job that a signature of role "error" matched. */
struct od_last_error {
    const char *path; /* NULL: none */
    unsigned long long line;
    const char *text;
};
/* --trace, when nothing was diagnosed: a signature whose literal some
 * lines held although its pattern matched none of them. */
struct od_near_miss {
    const char *rule, *cause;
    const char *path; /* of the first such line */
    unsigned long long line, count;
    const char *text;
};
struct od_report {
    struct od_input_info *inputs;
    size_t input_count;
    struct od_diagnosis *diagnoses;
    size_t count;
    struct od_last_error last_error;
    struct od_near_miss *near_misses; /* --trace only */
    size_t near_miss_count;
    /* The job's name, set by the caller after od_classify (borrowed): the
     * path named on the command line for it (a file, a directory), "-" for
     * standard input, the command for `run`; NULL: unnamed. */
    const char *name;
    /* Signatures that hit PCRE2's match limit (a line not searched to its
     * end), the first line of each; text is NULL. */
    struct od_near_miss *limit_hits;
    size_t limit_hit_count;
};
/* Classifies everything the job saw. The report borrows from the job and
 * the ruleset: free it before them. */
struct od_report *od_classify(const struct od_job *job);
/* ... with the causes' texts in WORDS's language (od_ruleset_translate;
 * NULL: English, as od_classify). */
struct od_report *od_classify_in(const struct od_job *job, const struct od_words *words);
void od_report_free(struct od_report *rep);

/* ---- output ------------------------------------------------------------ */
enum od_format { OD_FMT_TEXT, OD_FMT_JSON, OD_FMT_NDJSON, OD_FMT_GITHUB, OD_FMT_MARKDOWN, OD_FMT_JUNIT };
/* Evidence lines per diagnosis in text when max_evidence is 0 (--max-evidence's default). */
enum { OD_MAX_EVIDENCE_DEFAULT = 5 };
struct od_render_opts {
    enum od_format format;
    int color;
    int trace;
    int max_evidence;             /* evidence lines shown per diagnosis in text */
    const char *rules_version;    /* shown in JSON, may be NULL */
    const char *lang;             /* "en" (NULL too) or "zh-Hans": recorded in JSON */
    const struct od_words *words; /* the renderers' words in LANG; NULL: English */
    int width;                    /* text: a terminal's columns for the concise report; 0: the full one */
    FILE *step_summary;           /* github: the Markdown report is appended here too; borrowed, may be NULL */
};
struct od_renderer;
struct od_words;
struct od_renderer *od_renderer_create(FILE *out, const struct od_render_opts *opts);
/* Renders one job's report. Returns 0 or -1 on a write error. */
int od_render_job(struct od_renderer *r, const struct od_report *rep);
/* Finishes the document (closing brackets, summaries). 0 or -1. */
int od_renderer_finish(struct od_renderer *r);
void od_renderer_free(struct od_renderer *r);
/* JSON and NDJSON: compact records (--compact): at most
 * OD_COMPACT_EVIDENCE evidence items per diagnosis, their text cut at
 * OD_COMPACT_TEXT bytes and their fields left to the diagnosis's, and
 * only the first remediation step, without its detail (every step and
 * explanation: --explain CAUSE).  The document's shape is unchanged. */
enum { OD_COMPACT_EVIDENCE = 3, OD_COMPACT_TEXT = 240 };
void od_renderer_set_compact(struct od_renderer *r, int compact);
/* The output formats: the I-th one's name (the first is the default), or
 * NULL past the last; and the format named NAME (0, *ID set; -1: none). */
const char *od_format_name(size_t i);
int od_format_named(const char *name, enum od_format *id);

/* The lines a report written beside a job's output (`oomdiag run`,
 * --tee: stderr, text, Markdown or GitHub) starts and ends with; reading
 * skips from one to the other (docs/CONTRACT.md). */
#define OD_REPORT_BEGIN "----- oomdiag report begin -----"
#define OD_REPORT_END "----- oomdiag report end -----"

const char *od_role_name(enum od_role role);
const char *od_confidence_name(enum od_confidence c);
/* "retry", ...; NULL for OD_DECISION_NONE. */
const char *od_decision_name(int decision);
const char *od_version(void);

#ifdef __cplusplus
}
#endif
#endif
