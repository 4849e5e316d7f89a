/* Renderers share this state; each format's file supplies the functions
 * declared here.  A renderer borrows the FILE and writes reports as they
 * come; it owns only what a format must hold until the end (the JSON
 * document's job list, the CI formats' counters). */
#ifndef OOMDIAG_RENDER_H
#define OOMDIAG_RENDER_H

#include <cjson/cJSON.h>
#include <stdio.h>

#include "oomdiag/oomdiag.h"

struct od_renderer {
    FILE *out;
    struct od_render_opts opts;
    cJSON *jobs;      /* json: the jobs array, printed at the end */
    size_t job_index; /* jobs rendered so far */
    unsigned errors_emitted, warnings_emitted, errors_dropped, warnings_dropped;
    size_t roots_total, diagnoses_total;
    void *format_state; /* a format's own state (one block: freed with free()) */
    FILE *summary;      /* github: Markdown also appended here ($GITHUB_STEP_SUMMARY); borrowed, may be NULL */
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

/* Lines read over all of a job's inputs, and its root diagnoses. */
unsigned long long render_job_lines(const struct od_report *rep);
size_t render_job_roots(const struct od_report *rep);

/* The display label of a job: its single input's path, or "N inputs". */
void render_job_label(const struct od_report *rep, char *buf, size_t bufsize, const struct od_words *words);

#endif
