/* The Markdown report as a piece the GitHub format writes too (to the
 * step summary), each writer under its own size budget.  The writers
 * borrow everything they are given; the caller owns the md_cap. */
#ifndef OOMDIAG_RENDER_MARKDOWN_H
#define OOMDIAG_RENDER_MARKDOWN_H

#include <stdio.h>

#include "render_util.h"

/* A size budget for a Markdown report.  GitHub drops a step summary over
 * 1 MiB whole and refuses a comment over 65,536 characters. */
enum { MD_SUMMARY_LIMIT = 1024 * 1024 - 4096, MD_COMMENT_LIMIT = 65536, MD_FOOTER_ROOM = 1024 };
struct md_cap {
    size_t limit; /* 0: none */
    int in_chars; /* counted in characters (else bytes) */
    size_t used, jobs_left_out;
};

/* Markdown for one job, and the closing lines, to OUT, under CAP: a job
 * that would take the report past CAP's limit is left out whole and
 * counted, and the footer says how many were.  0 or -1. */
int markdown_write_job(FILE *out, const struct od_renderer *r, struct md_cap *cap, const struct od_report *rep);
int markdown_write_footer(FILE *out, const struct od_renderer *r, const struct md_cap *cap);

#endif
