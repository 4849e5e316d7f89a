/* What the CI formats (github, markdown, junit) share: a job's label and
 * counts, a growable text buffer, and the Markdown report, which the
 * GitHub format also appends to the step summary. */
#ifndef OOMDIAG_RENDER_CI_H
#define OOMDIAG_RENDER_CI_H

#include <stdio.h>

#include "render.h"

/* A job's name in CI reports: its single input's path, else the inputs'
 * common directory and their count ("logs/ (4 files)"), else "N inputs". */
void ci_job_label(const struct od_report *rep, char *buf, size_t bufsize);

/* A string built with stdio calls (open_memstream); ci_text_end closes
 * the stream and returns the malloc'd text (the caller frees it), or NULL
 * after an error. */
struct ci_text {
    FILE *f;
    char *buf;
    size_t len;
};
int ci_text_begin(struct ci_text *t);
char *ci_text_end(struct ci_text *t, size_t *len);

/* Markdown for one job, and the closing lines, to OUT, under CAP: a job
 * that would take the report past CAP's limit is left out whole and
 * counted, and the footer says how many were.  0 or -1. */
int markdown_write_job(FILE *out, const struct od_renderer *r, struct md_cap *cap, const struct od_report *rep);
int markdown_write_footer(FILE *out, const struct od_renderer *r, const struct md_cap *cap);

#endif
