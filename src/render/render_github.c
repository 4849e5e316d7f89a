/* GitHub Actions workflow commands: an ::error annotation per root cause,
 * a ::warning per consequence, at most ten of each (the runner's cap per
 * step) and a closing ::notice counting the rest.  Text from logs is
 * escaped as the runner requires and never begins a line, so it cannot be
 * read as a command of its own.  With a
 * step summary file, the Markdown report is appended there as well. */
#include <stdlib.h>
#include <string.h>

#include "render_markdown.h"

enum { GH_MAX_ERRORS = 10, GH_MAX_WARNINGS = 10 };

/* The format's state: what was shown and left out, and the step summary's
 * Markdown budget. */
struct gh_state {
    unsigned errors_emitted, warnings_emitted, errors_dropped, warnings_dropped;
    struct md_cap summary;
};

/* Where text goes: a command's message, a property value (file=, title=),
 * or a plain log line beside the commands. */
enum gh_mode { GH_DATA, GH_PROPERTY, GH_PLAIN };

static const char gh_zwsp[] = "\xe2\x80\x8b"; /* U+200B ZERO WIDTH SPACE */

/* Writes the N bytes at S escaped for MODE: in data and properties '%',
 * CR and LF are percent-encoded ('%' first, so "%0A" in a log stays
 * text), in properties ':' and ',' too; other control characters are
 * dropped; "##[" gets a zero-width space inside, as the runner finds that
 * legacy marker anywhere.  It reads "::" commands only at a line's start, and
 * text from a log never starts one here (it follows "::", "title=" or
 * "oomdiag: ", its newlines encoded), so "::" inside it stays as it is:
 * c10::DistBackendError copied from an annotation still matches. */
static void gh_put(FILE *out, const char *s, size_t n, enum gh_mode mode)
{
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '\r' || c == '\n') {
            fputs(mode == GH_PLAIN ? " " : c == '\r' ? "%0D" : "%0A", out);
        } else if (c == '\t') {
            fputc(' ', out);
        } else if (c < 0x20 || c == 0x7f) {
            continue;
        } else if (c == '%' && mode != GH_PLAIN) {
            fputs("%25", out);
        } else if (mode == GH_PROPERTY && (c == ':' || c == ',')) {
            fputs(c == ':' ? "%3A" : "%2C", out);
        } else if (c == '#' && i + 2 < n && s[i + 1] == '#' && s[i + 2] == '[') {
            fputc('#', out);
            fputs(gh_zwsp, out); /* the runner finds the legacy "##[" anywhere in a line */
        } else {
            fputc(c, out);
        }
    }
}

static void gh_puts(FILE *out, const char *s, enum gh_mode mode)
{
    gh_put(out, s, strlen(s), mode);
}

/* The message: summary, what to do first, the first evidence line. */
static void gh_message(FILE *m, const struct od_report *rep, const struct od_diagnosis *d)
{
    fputs(d->summary ? d->summary : d->title, m);
    render_confidence(m, d, NULL);
    fputc('\n', m);
    if (d->role == OD_ROLE_RECOVERED) {
        fputs("Recovered: the program went on after it, so this did not end the job.\n", m);
    } else if (d->role != OD_ROLE_ROOT && d->consequence_of >= 0 && (size_t)d->consequence_of < rep->count) {
        fprintf(m, "Follows from %s: fix that first.\n", rep->diagnoses[d->consequence_of].cause);
    } else if (d->step_count > 0) {
        fprintf(m, "Try first: %s", d->steps[0].action);
        if (d->steps[0].detail)
            fprintf(m, " \xe2\x80\x94 %s", d->steps[0].detail);
        fputc('\n', m);
    }
    if (d->evidence_count > 0) {
        fprintf(m, "Evidence: %s:%lu: ", d->evidence[0].path, d->evidence[0].line);
        render_put_cut(m, d->evidence[0].text, RENDER_EVIDENCE_WIDTH);
        if (d->match_count > 1)
            fprintf(m, " (%llu matching lines in all)", d->match_count);
    }
}

static int gh_annotation(struct od_renderer *r, const struct od_report *rep, const struct od_diagnosis *d)
{
    struct gh_state *st = r->state;
    int root = d->role == OD_ROLE_ROOT;
    if (root ? st->errors_emitted >= GH_MAX_ERRORS : st->warnings_emitted >= GH_MAX_WARNINGS) {
        if (root)
            st->errors_dropped++;
        else
            st->warnings_dropped++;
        return 0;
    }
    struct render_mem t, m;
    size_t tlen = 0, mlen = 0;
    char *title = NULL, *msg = NULL;
    if (render_mem_begin(&t) == 0) {
        render_headline(t.f, d, r->opts.words);
        title = render_mem_end(&t, &tlen);
    }
    if (render_mem_begin(&m) == 0) {
        gh_message(m.f, rep, d);
        msg = render_mem_end(&m, &mlen);
    }
    if (title == NULL || msg == NULL) {
        free(title);
        free(msg);
        return -1;
    }
    FILE *out = r->out;
    /* A recovered failure is a notice: it must not read as the job's failure. */
    fputs(root ? "::error " : d->role == OD_ROLE_RECOVERED ? "::notice " : "::warning ", out);
    if (d->evidence_count > 0 && strcmp(d->evidence[0].path, "-") != 0) {
        fputs("file=", out);
        gh_puts(out, d->evidence[0].path, GH_PROPERTY);
        fprintf(out, ",line=%lu,", d->evidence[0].line);
    }
    fputs("title=", out);
    gh_put(out, title, tlen, GH_PROPERTY);
    fputs("::", out);
    gh_put(out, msg, mlen, GH_DATA);
    fputc('\n', out);
    free(title);
    free(msg);
    if (root)
        st->errors_emitted++;
    else
        st->warnings_emitted++;
    return 0;
}

/* The step summary's budget starts with what earlier steps wrote there. */
static void *gh_create(const struct od_renderer *r)
{
    struct gh_state *st = calloc(1, sizeof *st);
    if (st == NULL)
        return NULL;
    st->summary = (struct md_cap){MD_SUMMARY_LIMIT, 0, 0, 0};
    FILE *f = r->opts.step_summary;
    if (f != NULL && fseek(f, 0, SEEK_END) == 0) {
        long at = ftell(f);
        if (at > 0)
            st->summary.used = (size_t)at;
    }
    return st;
}

static int gh_job(struct od_renderer *r, const struct od_report *rep)
{
    struct gh_state *st = r->state;
    char label[512];
    int rc = 0;
    render_job_label(rep, label, sizeof label, NULL, 1);
    fputs("oomdiag: ", r->out);
    gh_puts(r->out, label, GH_PLAIN);
    fputs(": ", r->out);
    render_job_summary(r->out, rep, "no failure diagnosed");
    fputc('\n', r->out);
    for (size_t i = 0; i < rep->input_count; i++) {
        const struct od_input_info *in = &rep->inputs[i];
        if (in->error_kind == NULL)
            continue;
        /* Unreadable inputs fail the step's reading; empty or binary ones warn. */
        fputs(in->error ? "::error " : "::warning ", r->out);
        if (strcmp(in->path, "-") != 0) {
            fputs("file=", r->out);
            gh_puts(r->out, in->path, GH_PROPERTY);
            fputc(',', r->out);
        }
        fputs("title=", r->out);
        gh_puts(r->out, "oomdiag: input not read", GH_PROPERTY);
        fputs("::", r->out);
        gh_puts(r->out, in->path, GH_DATA);
        fputs(": ", r->out);
        gh_puts(r->out, in->error_message ? in->error_message : in->error_kind, GH_DATA);
        fprintf(r->out, " (%s)\n", in->error_kind);
    }
    for (size_t i = 0; i < rep->count && rc == 0; i++)
        rc = gh_annotation(r, rep, &rep->diagnoses[i]);
    /* Errors writing the summary file are the caller's to find (ferror). */
    if (r->opts.step_summary != NULL)
        (void)markdown_write_job(r->opts.step_summary, r, &st->summary, rep);
    return rc;
}

static int gh_finish(struct od_renderer *r)
{
    const struct gh_state *st = r->state;
    if (st->errors_dropped > 0 || st->warnings_dropped > 0)
        fprintf(r->out,
                "::notice::oomdiag: %u more root cause%s and %u more consequence%s left out (at most %d errors and "
                "%d warnings are shown per step); %s\n",
                st->errors_dropped, st->errors_dropped == 1 ? "" : "s", st->warnings_dropped,
                st->warnings_dropped == 1 ? "" : "s", GH_MAX_ERRORS, GH_MAX_WARNINGS,
                r->opts.step_summary ? "the step summary has them all" : "run oomdiag --format text to see them all");
    if (r->opts.step_summary != NULL)
        (void)markdown_write_footer(r->opts.step_summary, r, &st->summary);
    return ferror(r->out) ? -1 : 0;
}

const struct render_format render_github_format = {"github", OD_FMT_GITHUB, gh_create, gh_job, gh_finish, NULL};
