/* The pieces more than one format writes: headline, confidence, counts,
 * labels, cut text, text built in memory. */
#include "render_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "size.h"
#include "textsafe.h"
#include "words.h"

void render_put_cut(FILE *out, const char *s, size_t width)
{
    size_t n = strlen(s);
    size_t fit = textsafe_fit_columns(s, n, width, NULL);
    fwrite(s, 1, fit, out);
    if (fit < n)
        fputs("\xe2\x80\xa6", out);
}

void render_headline(FILE *out, const struct od_diagnosis *d, const struct od_words *words)
{
    fputs(d->cause, out);
    if (d->variant)
        fprintf(out, " (%s)", d->variant);
    fprintf(out, ": %s", d->title);
    if (d->rank_count == 0)
        return;
    char ranks[256], count[32];
    size_t len = 0;
    for (size_t i = 0; i < d->rank_count && len < sizeof ranks - 16; i++)
        len += (size_t)snprintf(ranks + len, sizeof ranks - len, i ? ", %d" : "%d", d->ranks[i]);
    snprintf(count, sizeof count, "%zu", d->rank_count);
    const char *args[] = {count, ranks};
    words_put(out, words, W_ON_RANKS, 2, args);
}

void render_confidence(FILE *out, const struct od_diagnosis *d, const struct od_words *words)
{
    enum od_word w = d->confidence == OD_CONF_HIGH     ? W_CONF_HIGH
                     : d->confidence == OD_CONF_MEDIUM ? W_CONF_MEDIUM
                                                       : W_CONF_LOW;
    const char *level = words_get(words, w);
    fputs(" [", out);
    words_put(out, words, W_CONFIDENCE, 1, &level);
    if (d->framework)
        fprintf(out, ", %s", d->framework);
    fputc(']', out);
}

unsigned long long render_job_lines(const struct od_report *rep)
{
    unsigned long long lines = 0;
    for (size_t i = 0; i < rep->input_count; i++)
        lines += rep->inputs[i].lines;
    return lines;
}

static size_t count_role(const struct od_report *rep, enum od_role role)
{
    size_t n = 0;
    for (size_t i = 0; i < rep->count; i++)
        n += rep->diagnoses[i].role == role;
    return n;
}

size_t render_job_roots(const struct od_report *rep)
{
    return count_role(rep, OD_ROLE_ROOT);
}

size_t render_job_recovered(const struct od_report *rep)
{
    return count_role(rep, OD_ROLE_RECOVERED);
}

size_t render_evidence_shown(const struct od_diagnosis *d, int max)
{
    size_t shown = d->evidence_count < (size_t)max ? d->evidence_count : (size_t)max;
    if (d->role != OD_ROLE_ROOT && shown > RENDER_CONSEQUENCE_EVIDENCE)
        shown = RENDER_CONSEQUENCE_EVIDENCE;
    return shown;
}

void render_counts(FILE *out, size_t roots, size_t consequences, size_t recovered)
{
    fprintf(out, "%zu root cause%s, %zu consequence%s", roots, roots == 1 ? "" : "s", consequences,
            consequences == 1 ? "" : "s");
    if (recovered > 0)
        fprintf(out, ", %zu recovered", recovered);
}

void render_job_headline(FILE *out, const struct od_report *rep, const char *label, const struct od_words *words)
{
    char nlines[32], nroots[32], ncons[32], nrec[32];
    size_t roots = render_job_roots(rep), rec = render_job_recovered(rep);
    snprintf(nlines, sizeof nlines, "%llu", render_job_lines(rep));
    snprintf(nroots, sizeof nroots, "%zu", roots);
    snprintf(ncons, sizeof ncons, "%zu", rep->count - roots - rec);
    snprintf(nrec, sizeof nrec, "%zu", rec);
    if (rep->count == 0) {
        const char *args[] = {label, nlines};
        words_put(out, words, W_NOTHING_FOUND, 2, args);
    } else if (rec > 0) {
        const char *args[] = {label, nroots, ncons, nrec, nlines};
        words_put(out, words, W_JOB_HEADLINE_RECOVERED, 5, args);
    } else {
        const char *args[] = {label, nroots, ncons, nlines};
        words_put(out, words, W_JOB_HEADLINE, 4, args);
    }
}

void render_job_summary(FILE *out, const struct od_report *rep, const char *none)
{
    unsigned long long lines = render_job_lines(rep);
    size_t roots = render_job_roots(rep), rec = render_job_recovered(rep);
    if (rep->count == 0)
        fputs(none, out);
    else
        render_counts(out, roots, rep->count - roots - rec, rec);
    fprintf(out, " (%llu line%s read)", lines, lines == 1 ? "" : "s");
}

/* Length of the directory part ("a/b/") that every input path shares. */
static size_t common_dir(const struct od_report *rep)
{
    const char *first = rep->inputs[0].path;
    size_t n = strlen(first);
    for (size_t i = 1; i < rep->input_count; i++) {
        const char *p = rep->inputs[i].path;
        size_t k = 0;
        while (k < n && p[k] == first[k])
            k++;
        n = k;
    }
    while (n > 0 && first[n - 1] != '/')
        n--;
    return n;
}

void render_job_label(const struct od_report *rep, char *buf, size_t bufsize, const struct od_words *words, int by_dir)
{
    if (rep->input_count == 1) {
        snprintf(buf, bufsize, "%s", rep->inputs[0].path);
        return;
    }
    size_t dir = by_dir && rep->input_count > 1 ? common_dir(rep) : 0;
    if (dir > 0) {
        snprintf(buf, bufsize, "%.*s (%zu files)", (int)dir, rep->inputs[0].path, rep->input_count);
        return;
    }
    char count[32];
    snprintf(count, sizeof count, "%zu", rep->input_count);
    const char *arg = count;
    FILE *f = fmemopen(buf, bufsize, "w");
    if (f == NULL) {
        snprintf(buf, bufsize, "%s", count);
        return;
    }
    words_put(f, words, W_N_INPUTS, 1, &arg);
    fclose(f);
}

int render_mem_begin(struct render_mem *m)
{
    m->buf = NULL;
    m->len = 0;
    m->f = open_memstream(&m->buf, &m->len);
    return m->f ? 0 : -1;
}

char *render_mem_end(struct render_mem *m, size_t *len)
{
    int bad = ferror(m->f);
    if (fclose(m->f) != 0 || bad) {
        free(m->buf);
        return NULL;
    }
    if (len)
        *len = m->len;
    return m->buf;
}

/* Why an input gave no text: the scan's English message, or in another
 * language the word for its kind (the message's own words would mix
 * English into the annotation). */
const char *render_input_message(const struct od_renderer *r, const struct od_input_info *in)
{
    static const struct {
        const char *kind;
        enum od_word word;
    } kinds[] = {
        {"empty", W_KIND_EMPTY},         {"binary", W_KIND_BINARY},         {"empty-directory", W_KIND_EMPTY_DIRECTORY},
        {"not-found", W_KIND_NOT_FOUND}, {"permission", W_KIND_PERMISSION}, {"unreadable", W_KIND_UNREADABLE}};
    const char *english = in->error_message ? in->error_message : in->error_kind;
    if (r->opts.words == NULL)
        return english;
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        if (strcmp(in->error_kind, kinds[i].kind) == 0)
            return words_get(r->opts.words, kinds[i].word);
    return english;
}

static void reading_text(const struct od_diagnosis *d, double v, char *buf, size_t size)
{
    if (d->series_percent)
        snprintf(buf, size, "%.1f%%", v);
    else
        size_format((long long)(v + 0.5), buf, size);
}

int render_sparkline(const struct od_diagnosis *d, size_t cols, char *buf, size_t size, char *first, char *last,
                     size_t vsize)
{
    static const char *const bars[] = {"\u2581", "\u2582", "\u2583", "\u2584", "\u2585", "\u2586", "\u2587", "\u2588"};
    size_t n = d->series_count;
    if (n < 2 || cols == 0 || size < 4)
        return -1;
    double lo = d->series[0], hi = d->series[0];
    for (size_t i = 1; i < n; i++) {
        lo = d->series[i] < lo ? d->series[i] : lo;
        hi = d->series[i] > hi ? d->series[i] : hi;
    }
    if (lo > hi * 0.9)
        lo = hi * 0.9; /* a flat series stays flat: a 1% wobble is no sawtooth */
    size_t shown = n < cols ? n : cols, o = 0;
    for (size_t c = 0; c < shown && o + 4 <= size; c++) {
        double v = d->series[c * (n - 1) / (shown > 1 ? shown - 1 : 1)]; /* the first and the last always */
        size_t k = hi > lo ? (size_t)((v - lo) / (hi - lo) * 7.0 + 0.5) : 0;
        memcpy(buf + o, bars[k], 3);
        o += 3;
    }
    buf[o] = '\0';
    reading_text(d, d->series[0], first, vsize);
    reading_text(d, d->series[n - 1], last, vsize);
    return 0;
}
