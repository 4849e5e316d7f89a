/* The report for people: a headline per diagnosis with its numbers, the
 * evidence as path:line: text, then numbered steps. */
#include <string.h>

#include "render.h"
#include "words.h"

enum { TEXT_EVIDENCE_WIDTH = 400, TEXT_MAX_STEPS = 6 };

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

static enum od_word confidence_word(enum od_confidence c)
{
    return c == OD_CONF_HIGH ? W_CONF_HIGH : c == OD_CONF_MEDIUM ? W_CONF_MEDIUM : W_CONF_LOW;
}

static void diagnosis_text(struct od_renderer *r, const struct od_report *rep, size_t index)
{
    char num[32], num2[32];
    const struct od_diagnosis *d = &rep->diagnoses[index];
    struct style st = style_for(r->opts.color);
    FILE *out = r->out;
    int root = d->role == OD_ROLE_ROOT, rec = d->role == OD_ROLE_RECOVERED;

    fputs(root ? st.red : rec ? st.green : st.yellow, out);
    say(r, root ? W_ROOT_CAUSE : rec ? W_RECOVERED : W_CONSEQUENCE, NULL, NULL);
    fprintf(out, "%s %s", st.off, st.bold);
    render_headline(out, d, r->opts.words);
    fprintf(out, "%s [", st.off);
    say(r, W_CONFIDENCE, words_get(r->opts.words, confidence_word(d->confidence)), NULL);
    if (d->framework)
        fprintf(out, ", %s", d->framework);
    fputs("]\n", out);
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

    size_t shown = d->evidence_count < (size_t)r->opts.max_evidence ? d->evidence_count : (size_t)r->opts.max_evidence;
    if (!root)
        shown = shown < 3 ? shown : 3;
    fputs("  ", out);
    say(r, W_EVIDENCE, NULL, NULL);
    fputc('\n', out);
    for (size_t i = 0; i < shown; i++) {
        const struct od_evidence *e = &d->evidence[i];
        fprintf(out, "    %s%s:%lu:%s ", st.dim, e->path, e->line, st.off);
        render_put_cut(out, e->text, TEXT_EVIDENCE_WIDTH);
        fputc('\n', out);
    }
    if (d->match_count > shown) {
        snprintf(num, sizeof num, "%llu", d->match_count);
        fprintf(out, "    %s", st.dim);
        say(r, W_MATCHING_LINES, num, NULL);
        fprintf(out, "%s\n", st.off);
    }
    if (root && d->step_count > 0) {
        size_t steps = d->step_count < TEXT_MAX_STEPS ? d->step_count : TEXT_MAX_STEPS;
        fputs("  ", out);
        say(r, W_WHAT_TO_DO, NULL, NULL);
        fputc('\n', out);
        for (size_t i = 0; i < steps; i++) {
            fprintf(out, "    %s%zu. %s%s\n", st.green, i + 1, d->steps[i].action, st.off);
            if (d->steps[i].detail)
                fprintf(out, "       %s\n", d->steps[i].detail);
        }
        if (d->step_count > steps) {
            snprintf(num2, sizeof num2, "%zu", d->step_count - steps);
            fprintf(out, "    %s", st.dim);
            say(r, W_MORE_STEPS, num2, d->cause);
            fprintf(out, "%s\n", st.off);
        }
    }
    if (r->opts.trace && d->trace_count > 0) {
        fputs("  ", out);
        say(r, W_TRACE, NULL, NULL);
        fputc('\n', out);
        for (size_t i = 0; i < d->trace_count; i++)
            fprintf(out, "    - %s\n", d->trace[i]);
    }
}

int render_text_job(struct od_renderer *r, const struct od_report *rep)
{
    char label[512], bold_label[540], nlines[32], nroots[32], ncons[32], nrec[32];
    unsigned long long lines = render_job_lines(rep);
    struct style st = style_for(r->opts.color);
    render_job_label(rep, label, sizeof label, r->opts.words);
    snprintf(nlines, sizeof nlines, "%llu", lines);
    snprintf(bold_label, sizeof bold_label, "%s%s%s", st.bold, label, st.off);
    if (r->job_index > 0)
        fputc('\n', r->out);
    size_t unread = 0;
    for (size_t i = 0; i < rep->input_count; i++) {
        const struct od_input_info *in = &rep->inputs[i];
        if (in->error_kind == NULL)
            continue;
        const char *args[] = {in->path, in->error_message ? in->error_message : in->error_kind, in->error_kind};
        fputs(in->error ? st.red : st.yellow, r->out);
        enum od_word w = !in->error ? W_INPUT_NOTHING : in->bytes > 0 ? W_INPUT_PARTIAL : W_INPUT_NOT_READ;
        words_put(r->out, r->opts.words, w, 3, args);
        fprintf(r->out, "%s\n", st.off);
        unread++;
    }
    if (rep->count == 0 && unread == rep->input_count && unread > 0)
        return 0; /* the lines above say it all */
    if (rep->count == 0) {
        const char *args[] = {bold_label, nlines};
        words_put(r->out, r->opts.words, W_NOTHING_FOUND, 2, args);
        fputc('\n', r->out);
        if (rep->last_error.path != NULL) {
            fputs("  ", r->out);
            words_put(r->out, r->opts.words, W_LAST_ERROR, 0, NULL);
            fprintf(r->out, "\n    %s%s:%llu:%s ", st.dim, rep->last_error.path, rep->last_error.line, st.off);
            render_put_cut(r->out, rep->last_error.text, TEXT_EVIDENCE_WIDTH);
            fputc('\n', r->out);
        }
        return 0;
    }
    size_t roots = render_job_roots(rep), rec = render_job_recovered(rep);
    snprintf(nroots, sizeof nroots, "%zu", roots);
    snprintf(ncons, sizeof ncons, "%zu", rep->count - roots - rec);
    snprintf(nrec, sizeof nrec, "%zu", rec);
    if (rec > 0) {
        const char *args[] = {bold_label, nroots, ncons, nrec, nlines};
        words_put(r->out, r->opts.words, W_JOB_HEADLINE_RECOVERED, 5, args);
    } else {
        const char *args[] = {bold_label, nroots, ncons, nlines};
        words_put(r->out, r->opts.words, W_JOB_HEADLINE, 4, args);
    }
    fputs("\n\n", r->out);
    for (size_t i = 0; i < rep->count; i++) {
        if (i > 0)
            fputc('\n', r->out);
        diagnosis_text(r, rep, i);
    }
    return 0;
}
