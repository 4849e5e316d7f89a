/* The one pipeline every mode shares, from a scanned job to the exit
 * status: classify, --fail-on, render (or not, under -q), and the status
 * the run ends with.  File mode, standard input, --each and -j hand it a
 * job per input (or one job); --tee and `oomdiag run` their one job;
 * --follow its job again and again, asking for the root causes not shown
 * yet.  A session owns its renderer and what it reported; the caller owns
 * the job, the output stream and the --fail-on list. */
#ifndef OOMDIAG_SESSION_H
#define OOMDIAG_SESSION_H

#include <stdio.h>

#include "fail_on.h"
#include "oomdiag/oomdiag.h"

struct session_opts {
    FILE *out;                     /* where reports go (stdout; stderr for --tee and run) */
    struct od_render_opts render;  /* the format and its options */
    const struct fail_on *fail_on; /* NULL: every root cause counts */
    int quiet;                     /* -q: nothing rendered, the status tells */
    /* Called around every write (the progress line steps aside); may be NULL. */
    void (*pause)(void *ctx);
    void (*resume)(void *ctx);
    void *pause_ctx;
    int flush_each; /* flush OUT after each report (a progress line, --follow) */
    int compact;    /* JSON and NDJSON: compact records (od_renderer_set_compact) */
    int mark;       /* the report between OD_REPORT_BEGIN and OD_REPORT_END lines */
};

/* How session_job treats a report. */
enum {
    SESSION_SHOW_EMPTY = 1,    /* render a job with no input and no diagnosis too */
    SESSION_NEW_ROOTS = 2,     /* render only the root causes not rendered before, one job each (--follow) */
    SESSION_QUIET_IF_NONE = 4, /* a text report with no diagnosis is not rendered: the caller says so */
};

struct session {
    struct session_opts o;
    struct od_renderer *rend;
    int diagnosed;    /* a diagnosis --fail-on counts was found */
    int trouble;      /* an input or a write failed, or memory ran out */
    int write_failed; /* writing a report failed (errno in out_errno) */
    int out_errno;
    int rendered;    /* a report was rendered */
    int marked;      /* the begin marker was written */
    char **reported; /* SESSION_NEW_ROOTS: the root causes rendered so far */
    size_t reported_count;
};

/* 0, or -1 when out of memory. */
int session_init(struct session *s, const struct session_opts *o);
/* Classifies JOB (named NAME, borrowed), counts its diagnoses for the exit
 * status and renders it as FLAGS say.  Returns the number of diagnoses
 * the report held, or -1 when out of memory or a write failed. */
long session_job(struct session *s, const struct od_job *job, const char *name, unsigned flags);
/* session_job for a report already classified (REP borrowed; -j's
 * parent hands it the reports its workers saved). */
long session_report(struct session *s, const struct od_report *rep, unsigned flags);
/* -j's worker: classifies JOB (named NAME) in S's language and writes its report to TO
 * (wire.h) for the parent to render.  0, or -1 when out of memory or the
 * write failed. */
int session_save(const struct session *s, const struct od_job *job, const char *name, FILE *to);
/* Closes the document (not under -q). 0, or -1 when the write failed. */
int session_finish(struct session *s);
/* The exit status: 0 diagnosed, 1 none, 2 trouble (under -q a diagnosis
 * wins over trouble, as grep -q's match does). */
int session_status(const struct session *s);
void session_free(struct session *s);

#endif
