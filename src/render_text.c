/* The report for people: a headline per diagnosis with its numbers, the
 * evidence as path:line: text, then numbered steps. */
#include <string.h>

#include "render.h"

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

static void diagnosis_text(struct od_renderer *r, const struct od_report *rep, size_t index)
{
    const struct od_diagnosis *d = &rep->diagnoses[index];
    struct style st = style_for(r->opts.color);
    FILE *out = r->out;
    int root = d->role == OD_ROLE_ROOT, rec = d->role == OD_ROLE_RECOVERED;

    fprintf(out, "%s%s%s %s",
            root  ? st.red
            : rec ? st.green
                  : st.yellow,
            root  ? "ROOT CAUSE"
            : rec ? "RECOVERED"
                  : "CONSEQUENCE",
            st.off, st.bold);
    render_headline(out, d);
    fprintf(out, "%s [%s confidence", st.off, od_confidence_name(d->confidence));
    if (d->framework)
        fprintf(out, ", %s", d->framework);
    fputs("]\n", out);
    if (!root && d->consequence_of >= 0 && (size_t)d->consequence_of < rep->count)
        fprintf(out, "  follows from: %s\n", rep->diagnoses[d->consequence_of].cause);
    if (rec)
        fputs("  the program retried and went on: not what ended the job\n", out);
    fprintf(out, "  %s\n", d->summary ? d->summary : d->title);
    if (d->last_step >= 0)
        fprintf(out, "  last step reached: %lld\n", d->last_step);

    size_t shown = d->evidence_count < (size_t)r->opts.max_evidence ? d->evidence_count : (size_t)r->opts.max_evidence;
    if (!root)
        shown = shown < 3 ? shown : 3;
    fputs("  evidence:\n", out);
    for (size_t i = 0; i < shown; i++) {
        const struct od_evidence *e = &d->evidence[i];
        fprintf(out, "    %s%s:%lu:%s ", st.dim, e->path, e->line, st.off);
        render_put_cut(out, e->text, TEXT_EVIDENCE_WIDTH);
        fputc('\n', out);
    }
    if (d->match_count > shown)
        fprintf(out, "    %s(%llu matching lines in all)%s\n", st.dim, d->match_count, st.off);
    if (root && d->step_count > 0) {
        size_t steps = d->step_count < TEXT_MAX_STEPS ? d->step_count : TEXT_MAX_STEPS;
        fputs("  what to do:\n", out);
        for (size_t i = 0; i < steps; i++) {
            fprintf(out, "    %s%zu. %s%s\n", st.green, i + 1, d->steps[i].action, st.off);
            if (d->steps[i].detail)
                fprintf(out, "       %s\n", d->steps[i].detail);
        }
        if (d->step_count > steps)
            fprintf(out, "    %s(%zu more step%s in --format json; all of them: oomdiag --explain %s)%s\n", st.dim,
                    d->step_count - steps, d->step_count - steps == 1 ? "" : "s", d->cause, st.off);
    }
    if (r->opts.trace && d->trace_count > 0) {
        fputs("  trace:\n", out);
        for (size_t i = 0; i < d->trace_count; i++)
            fprintf(out, "    - %s\n", d->trace[i]);
    }
}

int render_text_job(struct od_renderer *r, const struct od_report *rep)
{
    char label[512];
    unsigned long long lines = render_job_lines(rep);
    struct style st = style_for(r->opts.color);
    render_job_label(rep, label, sizeof label);
    if (r->job_index > 0)
        fputc('\n', r->out);
    if (rep->count == 0) {
        fprintf(r->out, "%s%s%s: no failure diagnosed (%llu line%s read)\n", st.bold, label, st.off, lines,
                lines == 1 ? "" : "s");
        return 0;
    }
    fprintf(r->out, "%s%s%s: ", st.bold, label, st.off);
    render_job_counts(r->out, rep);
    fprintf(r->out, " (%llu line%s read)\n\n", lines, lines == 1 ? "" : "s");
    for (size_t i = 0; i < rep->count; i++) {
        if (i > 0)
            fputc('\n', r->out);
        diagnosis_text(r, rep, i);
    }
    return 0;
}
