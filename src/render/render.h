/* Renderers share this state; each format's file supplies the functions
 * declared here.  A renderer borrows the FILE and writes reports as they
 * come; it owns only what a format must hold until the end (the JSON
 * document's job list, the CI formats' counters). */
#ifndef OOMDIAG_RENDER_H
#define OOMDIAG_RENDER_H

#include <cjson/cJSON.h>
#include <stdio.h>

#include "oomdiag/oomdiag.h"

/* A size budget for a Markdown report.  GitHub drops a step summary over
 * 1 MiB whole and refuses a comment over 65,536 characters. */
enum { MD_SUMMARY_LIMIT = 1024 * 1024 - 4096, MD_COMMENT_LIMIT = 65536, MD_FOOTER_ROOM = 1024 };
struct md_cap {
    size_t limit; /* 0: none */
    int in_chars; /* counted in characters (else bytes) */
    size_t used, jobs_left_out;
};

struct od_renderer {
    FILE *out;
    struct od_render_opts opts;
    cJSON *jobs;      /* json: the jobs array, printed at the end */
    size_t job_index; /* jobs rendered so far */
    unsigned errors_emitted, warnings_emitted, errors_dropped, warnings_dropped;
    size_t roots_total, diagnoses_total, recovered_total;
    void *format_state; /* a format's own state (one block: freed with free()) */
    FILE *summary;      /* github: Markdown also appended here ($GITHUB_STEP_SUMMARY); borrowed, may be NULL */
    struct md_cap md_out, md_summary; /* markdown's budget on out, github's on the summary file */
};

int render_text_job(struct od_renderer *r, const struct od_report *rep);

cJSON *render_json_job(const struct od_report *rep, int with_trace);
int render_json_job_line(struct od_renderer *r, const struct od_report *rep);
int render_json_finish(struct od_renderer *r);

int render_github_job(struct od_renderer *r, const struct od_report *rep);
int render_github_finish(struct od_renderer *r);
int render_markdown_job(struct od_renderer *r, const struct od_report *rep);
int render_markdown_finish(struct od_renderer *r);
int render_junit_job(struct od_renderer *r, const struct od_report *rep);
int render_junit_finish(struct od_renderer *r);

/* Writes S, cut to WIDTH display columns (a wide character counts two) on
 * a character boundary, with an ellipsis where it was cut. */
void render_put_cut(FILE *out, const char *s, size_t width);
/* Writes "cause (variant): title on ranks 1, 2", the headline every human
 * format shows for a diagnosis. */
void render_headline(FILE *out, const struct od_diagnosis *d, const struct od_words *words);

/* Lines read over all of a job's inputs, its root diagnoses, and its
 * recovered ones (failures the program survived: shown, never failing). */
unsigned long long render_job_lines(const struct od_report *rep);
size_t render_job_roots(const struct od_report *rep);
size_t render_job_recovered(const struct od_report *rep);
/* Writes "N root causes, M consequences" and ", K recovered" when K > 0. */
void render_job_counts(FILE *out, const struct od_report *rep);

/* The display label of a job: its single input's path, or "N inputs". */
void render_job_label(const struct od_report *rep, char *buf, size_t bufsize, const struct od_words *words);

#endif
