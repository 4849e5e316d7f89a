/* What the formats share: the renderer every format is handed, and the
 * pieces more than one format writes (a diagnosis's headline and
 * confidence, a job's label and counts, text cut to a width, text built
 * in memory).  Each piece is written here once; a format calls these and
 * never render.c.  Everything here borrows its arguments; the one thing
 * handed over is render_mem_end's text, which the caller frees. */
#ifndef OOMDIAG_RENDER_UTIL_H
#define OOMDIAG_RENDER_UTIL_H

#include <stdio.h>

#include "oomdiag/oomdiag.h"
#include "render.h"

/* A renderer borrows OUT (and opts' FILE and strings); STATE is its
 * format's own (render_format.create). */
struct od_renderer {
    FILE *out;
    struct od_render_opts opts;
    const struct render_format *format;
    void *state;
    size_t job_index; /* jobs rendered so far */
    size_t roots_total, diagnoses_total, recovered_total;
    int compact; /* od_renderer_set_compact */
};

/* Writes S, cut to WIDTH display columns (a wide character counts two) on
 * a character boundary, with an ellipsis where it was cut. */
void render_put_cut(FILE *out, const char *s, size_t width);

/* Why input IN gave no text, in the report's language: the scan's English
 * message, or the word for its kind. */
const char *render_input_message(const struct od_renderer *r, const struct od_input_info *in);

/* Writes "cause (variant): title on ranks 1, 2", the headline every human
 * format shows for a diagnosis. */
void render_headline(FILE *out, const struct od_diagnosis *d, const struct od_words *words);

/* Writes " [high confidence, FRAMEWORK]": D's confidence in WORDS' language
 * (NULL: English) and its framework when it has one. */
void render_confidence(FILE *out, const struct od_diagnosis *d, const struct od_words *words);

/* Lines read over all of a job's inputs, its root diagnoses, and its
 * recovered ones (failures the program survived: shown, never failing). */
/* D's memory readings as a sparkline of at most COLS block characters
 * (U+2581 to U+2588, the lowest reading to the highest) in BUF, and the
 * first and last readings as text ("10.0 GiB", "97.5%") in FIRST and LAST.
 * 0, or -1 when D has fewer than two readings. */
int render_sparkline(const struct od_diagnosis *d, size_t cols, char *buf, size_t size, char *first, char *last,
                     size_t vsize);
unsigned long long render_job_lines(const struct od_report *rep);
size_t render_job_roots(const struct od_report *rep);
size_t render_job_recovered(const struct od_report *rep);

/* Evidence lines to show for D: at most MAX, at most
 * RENDER_CONSEQUENCE_EVIDENCE unless D is a root cause. */
size_t render_evidence_shown(const struct od_diagnosis *d, int max);

/* Writes "N root causes, M consequences", and ", K recovered" when K > 0. */
void render_counts(FILE *out, size_t roots, size_t consequences, size_t recovered);
/* Writes REP's counts, or NONE when it has no diagnosis, then
 * " (L lines read)". */
void render_job_summary(FILE *out, const struct od_report *rep, const char *none);
/* "LABEL: N root causes, M consequences (K lines read)", or that nothing
 * was diagnosed, in WORDS' language (the text report's job line). */
void render_job_headline(FILE *out, const struct od_report *rep, const char *label, const struct od_words *words);

/* The display label of a job: its single input's path, else with BY_DIR
 * the inputs' common directory and their count ("logs/ (4 files)"), else
 * "N inputs" in WORDS' language. */
void render_job_label(const struct od_report *rep, char *buf, size_t bufsize, const struct od_words *words, int by_dir);

/* Text built with stdio calls (open_memstream): render_mem_end closes the
 * stream and returns the malloc'd text (the caller frees it) and its
 * length, or NULL after an error. */
struct render_mem {
    FILE *f;
    char *buf;
    size_t len;
};
int render_mem_begin(struct render_mem *m);
char *render_mem_end(struct render_mem *m, size_t *len);

#endif
