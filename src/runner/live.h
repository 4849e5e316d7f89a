/* The live ways of running oomdiag: `oomdiag run -- CMD` (the job as a
 * child, its output passed through and scanned, the parent's facts added)
 * and `--tee` (standard input copied to stdout and scanned).  Each returns
 * the process's exit status; messages go to FN; reports are in LANG with
 * WORDS (from translate.h); the caller owns RS and WORDS. */
#ifndef OOMDIAG_LIVE_H
#define OOMDIAG_LIVE_H

#include "fail_on.h"
#include "oomdiag/oomdiag.h"

/* What a live mode is asked to do (the command line's part of it). */
struct live_spec {
    char **command;                   /* run: CMD and its arguments, NULL-terminated; NULL for --tee */
    const char *report, *log, *facts; /* run: --report, --log, --facts FILE, or NULL */
    int always;                       /* run: the diagnosis also when the job succeeded */
    int quiet, no_messages, binary_as_text, trace, max_evidence;
    enum od_format format;
    int color;            /* colour a text report on stderr */
    int compact;          /* JSON and NDJSON: compact records */
    int no_nvml;          /* run: no GPU sampling */
    double stall_s;       /* run: --stall DURATION in seconds, 0 off */
    int stall_signal;     /* run: --stall-signal, 0 none */
    int exit_by_decision; /* run: a failed job's status tells the root cause's decision */
};

/* Returns the job's exit status (128 + N for signal N; 126 or 127 when it
 * could not be started; 2 when oomdiag could not get going). */
int live_run(const struct live_spec *o, const struct od_ruleset *rs, const char *lang, const struct od_words *words,
             const struct fail_on *fail_on, od_msg_fn fn, void *ctx);
/* Returns the usual status: 0 diagnosed (a diagnosis FAIL_ON counts; NULL:
 * any root cause), 1 none, 2 trouble. */
int live_tee(const struct live_spec *o, const struct od_ruleset *rs, const char *lang, const struct od_words *words,
             const struct fail_on *fail_on, od_msg_fn fn, void *ctx);

/* Classifies JOB and renders it to OUT in O's format (COLOR for text).
 * *DIAGNOSED is set to 1 when a diagnosis LW's fail_on counts was found.  If it is -1 on
 * entry, a text report with nothing in it is not rendered (*DIAGNOSED
 * becomes 0 and the caller says so).  0, or -1 on a write or memory error. */
struct live_words {
    const char *lang;              /* "en" or "zh-Hans" */
    const struct od_words *words;  /* NULL: English */
    const struct fail_on *fail_on; /* --fail-on; NULL: every root cause counts */
};
int live_report(struct od_job *job, const struct live_spec *o, const struct od_ruleset *rs, const struct live_words *lw,
                FILE *out, int color, int *diagnosed);

#endif
