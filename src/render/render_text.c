/* The report for people: a headline per diagnosis with its numbers, the
 * evidence as path:line: text, then numbered steps.  On a terminal
 * (opts.width > 0) the concise form: each diagnosis's headline and summary
 * wrapped to the width with hanging indents, one evidence line and the
 * first three fixes, wrapped (a command is never cut). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render_util.h"
#include "textsafe.h"
#include "words.h"

enum { TEXT_MAX_STEPS = 6, TEXT_CONCISE_STEPS = 3, TEXT_SPARK_COLS = 32 };

struct style {
    const char *bold, *red, *yellow, *dim, *green, *off;
};

static struct style style_for(int color)
{
    if (!color)
        return (struct style){"", "", "", "", "", ""};
    return (struct style){"\033[1m", "\033[1;31m", "\033[1;33m", "\033[2m", "\033[32m", "\033[0m"};
}

/* Writes word W of R's language with up to two arguments. */
static void say(struct od_renderer *r, enum od_word w, const char *a, const char *b)
{
    const char *args[2] = {a, b};
    words_put(r->out, r->opts.words, w, b ? 2 : a ? 1 : 0, args);
}

/* Writes TEXT (LEN bytes) wrapped to WIDTH display columns: the first
 * line starts at column FIRST (already written), later ones are indented by
 * INDENT.  Lines break at a space, outside a `quoted command` when the line
 * has such a space, or between characters where a word (or a run of CJK
 * text, which has no spaces) is wider than a line. */
/* Where to break TEXT whose first FIT bytes fit a line: the last space
 * there outside backquotes, else the last space, else FIT. */
static size_t break_at(const char *text, size_t fit)
{
    size_t last = 0, outside = 0;
    int quoted = 0;
    for (size_t i = 0; i <= fit; i++) {
        if (text[i] == '`')
            quoted = !quoted;
        else if (text[i] == ' ' && i > 0) {
            last = i;
            if (!quoted)
                outside = i;
        }
    }
    return outside ? outside : last ? last : fit > 0 ? fit : 1;
}

static void put_wrapped(FILE *out, const char *text, size_t len, size_t first, size_t indent, size_t width)
{
    size_t room = width > first ? width - first : 1;
    while (len > 0) {
        size_t fit = textsafe_fit_columns(text, len, room, NULL);
        if (fit >= len) {
            fwrite(text, 1, len, out);
            break;
        }
        size_t cut = break_at(text, fit);
        fwrite(text, 1, cut, out);
        fprintf(out, "\n%*s", (int)indent, "");
        text += cut;
        len -= cut;
        while (len > 0 && *text == ' ') {
            text++;
            len--;
        }
        room = width > indent ? width - indent : 1;
    }
    fputc('\n', out);
}

/* A word of R's language, as a string (for wrapping). */
static char *word_text(struct od_renderer *r, enum od_word w, size_t n, const char *const *args)
{
    struct render_mem m;
    if (render_mem_begin(&m) != 0)
        return NULL;
    words_put(m.f, r->opts.words, w, n, args);
    return render_mem_end(&m, NULL);
}

/* Writes "  path:line: text" cut to the width.  The location takes at
 * most two thirds of the line, so that the text always shows: a longer
 * one keeps its end (the file name and line) after an ellipsis. */
static void put_evidence_line(struct od_renderer *r, const struct od_evidence *e, const struct style *st)
{
    static const char ellipsis[] = "\xe2\x80\xa6"; /* one column */
    char where[600];
    size_t width = (size_t)r->opts.width, room = width > 2 ? width - 2 : 1, budget = room * 2 / 3, cols = 0;
    int n = snprintf(where, sizeof where, "%s:%lu: ", e->path, e->line);
    size_t len = n < 0 ? 0 : (size_t)n < sizeof where ? (size_t)n : sizeof where - 1;
    const char *from = where, *lead = "";
    textsafe_fit_columns(where, len, (size_t)-1, &cols);
    if (cols > budget && budget > 1) {
        from = where + textsafe_fit_tail(where, len, budget - 1, &cols);
        lead = ellipsis;
        cols++;
    }
    fprintf(r->out, "  %s%s%s%s", st->dim, lead, from, st->off);
    size_t used = cols + 2;
    render_put_cut(r->out, e->text, width > used + 1 ? width - used - 1 : 1);
    fputc('\n', r->out);
}

/* Word W with its N ARGS as a line: wrapped to the width in the concise
 * form, as it is otherwise. */
static void put_word_line(struct od_renderer *r, enum od_word w, size_t n, const char *const *args, const char *end)
{
    char *t = r->opts.width > 0 ? word_text(r, w, n, args) : NULL;
    if (t == NULL) {
        words_put(r->out, r->opts.words, w, n, args);
        fprintf(r->out, "%s\n", end);
        return;
    }
    put_wrapped(r->out, t, strlen(t), 0, 2, (size_t)r->opts.width);
    fputs(end, r->out);
    free(t);
}

/* D's memory readings before it, as one line with a sparkline. */
static void put_series(struct od_renderer *r, const struct od_diagnosis *d)
{
    char spark[TEXT_SPARK_COLS * 3 + 1], first[32], last[32], count[32];
    if (render_sparkline(d, TEXT_SPARK_COLS, spark, sizeof spark, first, last, sizeof first) != 0)
        return;
    snprintf(count, sizeof count, "%zu", d->series_count);
    const char *args[] = {spark, first, last, count};
    char *t = word_text(r, W_MEMORY_SERIES, 4, args);
    if (t == NULL)
        return;
    fprintf(r->out, "  %s\n", t);
    free(t);
}

static void diagnosis_concise(struct od_renderer *r, const struct od_report *rep, size_t index)
{
    const struct od_diagnosis *d = &rep->diagnoses[index];
    struct style st = style_for(r->opts.color);
    FILE *out = r->out;
    size_t width = (size_t)r->opts.width;
    int root = d->role == OD_ROLE_ROOT, rec = d->role == OD_ROLE_RECOVERED;
    struct render_mem h;
    size_t used = 0;
    if (render_mem_begin(&h) != 0)
        return;
    render_headline(h.f, d, r->opts.words);
    render_confidence(h.f, d, r->opts.words);
    char *head = render_mem_end(&h, NULL);
    if (head == NULL)
        return;
    char *label = word_text(r, root ? W_ROOT_CAUSE : rec ? W_RECOVERED : W_CONSEQUENCE, 0, NULL);
    if (label == NULL) {
        free(head);
        return;
    }
    textsafe_fit_columns(label, strlen(label), width, &used);
    fprintf(out, "%s%s%s %s", root ? st.red : rec ? st.green : st.yellow, label, st.off, st.bold);
    put_wrapped(out, head, strlen(head), used + 1, 2, width);
    fputs(st.off, out);
    free(label);
    free(head);
    if (!root && d->consequence_of >= 0 && (size_t)d->consequence_of < rep->count) {
        const char *of = rep->diagnoses[d->consequence_of].cause;
        char *t = word_text(r, W_FOLLOWS_FROM, 1, &of);
        if (t != NULL) {
            fputs("  ", out);
            put_wrapped(out, t, strlen(t), 2, 2, width);
            free(t);
        }
        return; /* a consequence: its cause is the point */
    }
    const char *summary = d->summary ? d->summary : d->title;
    fputs("  ", out);
    put_wrapped(out, summary, strlen(summary), 2, 2, width);
    put_series(r, d);
    if (d->evidence_count > 0)
        put_evidence_line(r, &d->evidence[0], &st);
    if (!root || d->step_count == 0)
        return;
    size_t steps = d->step_count < TEXT_CONCISE_STEPS ? d->step_count : TEXT_CONCISE_STEPS;
    for (size_t i = 0; i < steps; i++) {
        /* A fix is wrapped, never cut: a command cut in the middle
         * (`ps -o pid,rss,cm…`) cannot be run. */
        fprintf(out, "  %s%zu.%s ", st.green, i + 1, st.off);
        put_wrapped(out, d->steps[i].action, strlen(d->steps[i].action), 5, 5, width);
    }
    char *more = word_text(r, W_CONCISE_MORE, 1, &d->cause);
    if (more != NULL) {
        fprintf(out, "  %s", st.dim);
        put_wrapped(out, more, strlen(more), 2, 2, width);
        fputs(st.off, out);
        free(more);
    }
}

/* --trace: why D stands where it does. */
static void put_trace(struct od_renderer *r, const struct od_diagnosis *d)
{
    fputs("  ", r->out);
    say(r, W_TRACE, NULL, NULL);
    fputc('\n', r->out);
    for (size_t i = 0; i < d->trace_count; i++)
        fprintf(r->out, "    - %s\n", d->trace[i]);
}

/* A root's fixes in full, at most TEXT_MAX_STEPS of them. */
static void put_steps(struct od_renderer *r, const struct od_diagnosis *d, const struct style *st)
{
    FILE *out = r->out;
    char num[32];
    size_t steps = d->step_count < TEXT_MAX_STEPS ? d->step_count : TEXT_MAX_STEPS;
    fputs("  ", out);
    say(r, W_WHAT_TO_DO, NULL, NULL);
    fputc('\n', out);
    for (size_t i = 0; i < steps; i++) {
        fprintf(out, "    %s%zu. %s%s\n", st->green, i + 1, d->steps[i].action, st->off);
        if (d->steps[i].detail)
            fprintf(out, "       %s\n", d->steps[i].detail);
    }
    if (d->step_count > steps) {
        snprintf(num, sizeof num, "%zu", d->step_count - steps);
        fprintf(out, "    %s", st->dim);
        say(r, W_MORE_STEPS, num, d->cause);
        fprintf(out, "%s\n", st->off);
    }
}

static void diagnosis_text(struct od_renderer *r, const struct od_report *rep, size_t index)
{
    if (r->opts.width > 0) {
        diagnosis_concise(r, rep, index);
        return;
    }
    char num[32];
    const struct od_diagnosis *d = &rep->diagnoses[index];
    struct style st = style_for(r->opts.color);
    FILE *out = r->out;
    int root = d->role == OD_ROLE_ROOT, rec = d->role == OD_ROLE_RECOVERED;

    fputs(root ? st.red : rec ? st.green : st.yellow, out);
    say(r, root ? W_ROOT_CAUSE : rec ? W_RECOVERED : W_CONSEQUENCE, NULL, NULL);
    fprintf(out, "%s %s", st.off, st.bold);
    render_headline(out, d, r->opts.words);
    fputs(st.off, out);
    render_confidence(out, d, r->opts.words);
    fputc('\n', out);
    if (!root && d->consequence_of >= 0 && (size_t)d->consequence_of < rep->count) {
        fputs("  ", out);
        say(r, W_FOLLOWS_FROM, rep->diagnoses[d->consequence_of].cause, NULL);
        fputc('\n', out);
    }
    if (rec) {
        fputs("  ", out);
        say(r, W_RECOVERED_NOTE, NULL, NULL);
        fputc('\n', out);
    }
    fprintf(out, "  %s\n", d->summary ? d->summary : d->title);
    if (d->last_step >= 0) {
        snprintf(num, sizeof num, "%lld", d->last_step);
        fputs("  ", out);
        say(r, W_LAST_STEP, num, NULL);
        fputc('\n', out);
    }
    put_series(r, d);

    size_t shown = render_evidence_shown(d, r->opts.max_evidence);
    fputs("  ", out);
    say(r, W_EVIDENCE, NULL, NULL);
    fputc('\n', out);
    for (size_t i = 0; i < shown; i++) {
        const struct od_evidence *e = &d->evidence[i];
        fprintf(out, "    %s%s:%lu:%s ", st.dim, e->path, e->line, st.off);
        render_put_cut(out, e->text, RENDER_EVIDENCE_WIDTH);
        fputc('\n', out);
    }
    if (d->match_count > shown) {
        snprintf(num, sizeof num, "%llu", d->match_count);
        fprintf(out, "    %s", st.dim);
        say(r, W_MATCHING_LINES, num, NULL);
        fprintf(out, "%s\n", st.off);
    }
    if (root && d->step_count > 0)
        put_steps(r, d, &st);
    if (r->opts.trace && d->trace_count > 0)
        put_trace(r, d);
}

/* A job with no diagnosis: its last error line, and with --trace the near misses. */
static void put_nothing_found(struct od_renderer *r, const struct od_report *rep, const struct style *sty)
{
    struct style st = *sty;
    if (rep->last_error.path != NULL) {
        fputs("  ", r->out);
        words_put(r->out, r->opts.words, W_LAST_ERROR, 0, NULL);
        fprintf(r->out, "\n    %s%s:%llu:%s ", st.dim, rep->last_error.path, rep->last_error.line, st.off);
        render_put_cut(r->out, rep->last_error.text,
                       r->opts.width > 0 ? (size_t)r->opts.width - 5 : RENDER_EVIDENCE_WIDTH);
        fputc('\n', r->out);
    }
    if (r->opts.trace && rep->near_miss_count > 0) {
        fputs("  ", r->out);
        say(r, W_NEAR_MISSES, NULL, NULL);
        fputc('\n', r->out);
        for (size_t i = 0; i < rep->near_miss_count; i++) {
            const struct od_near_miss *nm = &rep->near_misses[i];
            char count[32];
            snprintf(count, sizeof count, "%llu", nm->count);
            fprintf(r->out, "    - %s (%s): ", nm->rule, nm->cause ? nm->cause : "-");
            say(r, W_NEAR_MISS_LINES, count, NULL);
            fprintf(r->out, "\n      %s%s:%llu:%s ", st.dim, nm->path, nm->line, st.off);
            render_put_cut(r->out, nm->text, RENDER_EVIDENCE_WIDTH);
            fputc('\n', r->out);
        }
    }
}

static int text_job(struct od_renderer *r, const struct od_report *rep)
{
    char label[512], bold_label[540], nlines[32], nroots[32], ncons[32], nrec[32];
    unsigned long long lines = render_job_lines(rep);
    struct style st = style_for(r->opts.color);
    render_job_label(rep, label, sizeof label, r->opts.words, 0);
    snprintf(nlines, sizeof nlines, "%llu", lines);
    snprintf(bold_label, sizeof bold_label, "%s%s%s", st.bold, label, st.off);
    if (r->job_index > 0)
        fputc('\n', r->out);
    size_t unread = 0;
    for (size_t i = 0; i < rep->input_count; i++) {
        const struct od_input_info *in = &rep->inputs[i];
        if (in->error_kind == NULL)
            continue;
        const char *args[] = {in->path, render_input_message(r, in), in->error_kind};
        fputs(in->error ? st.red : st.yellow, r->out);
        enum od_word w = !in->error ? W_INPUT_NOTHING : in->bytes > 0 ? W_INPUT_PARTIAL : W_INPUT_NOT_READ;
        put_word_line(r, w, 3, args, st.off);
        unread++;
    }
    if (rep->count == 0 && unread == rep->input_count && unread > 0)
        return 0; /* the lines above say it all */
    if (r->opts.trace && rep->limit_hit_count > 0) {
        say(r, W_LIMIT_HITS, NULL, NULL);
        fputc('\n', r->out);
        for (size_t i = 0; i < rep->limit_hit_count; i++)
            fprintf(r->out, "  - %s%s:%llu:%s %s (%llu)\n", st.dim, rep->limit_hits[i].path, rep->limit_hits[i].line,
                    st.off, rep->limit_hits[i].rule, rep->limit_hits[i].count);
    }
    if (rep->count == 0) {
        const char *args[] = {bold_label, nlines};
        put_word_line(r, W_NOTHING_FOUND, 2, args, "");
        put_nothing_found(r, rep, &st);
        return 0;
    }
    size_t roots = render_job_roots(rep), rec = render_job_recovered(rep);
    snprintf(nroots, sizeof nroots, "%zu", roots);
    snprintf(ncons, sizeof ncons, "%zu", rep->count - roots - rec);
    snprintf(nrec, sizeof nrec, "%zu", rec);
    if (rec > 0) {
        const char *args[] = {bold_label, nroots, ncons, nrec, nlines};
        put_word_line(r, W_JOB_HEADLINE_RECOVERED, 5, args, "");
    } else {
        const char *args[] = {bold_label, nroots, ncons, nlines};
        put_word_line(r, W_JOB_HEADLINE, 4, args, "");
    }
    fputc('\n', r->out);
    for (size_t i = 0; i < rep->count; i++) {
        if (i > 0)
            fputc('\n', r->out);
        diagnosis_text(r, rep, i);
    }
    return 0;
}

const struct render_format render_text_format = {"text", OD_FMT_TEXT, NULL, text_job, NULL, NULL};
