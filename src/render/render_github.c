/* GitHub Actions workflow commands: an ::error annotation per root cause,
 * a ::warning per consequence, at most ten of each (the runner's cap per
 * step) and a closing ::notice counting the rest.  Text from logs is
 * escaped as the runner requires and never begins a line, so it cannot be
 * read as a command of its own.  With a
 * step summary file, the Markdown report is appended there as well. */
#include <stdlib.h>
#include <string.h>

#include "render_markdown.h"
#include "words.h"

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

/* Writes the N bytes at S escaped for MODE: CR and LF are percent-encoded
 * everywhere (a path with a newline keeps it as "%0A"), in data and
 * properties '%' first (so "%0A" in a log stays text), in properties ':'
 * and ',' too; other control characters are
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
            fputs(c == '\r' ? "%0D" : "%0A", out);
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

/* "file=PATH," (and "line=N," when LINE > 0) for a file the runner can
 * show: not standard input, and not a name in parentheses, which the
 * engine gives what has no file (the output `oomdiag run` relays, its
 * facts). */
static void gh_file(FILE *out, const char *path, unsigned long line)
{
    if (strcmp(path, "-") == 0 || path[0] == '(')
        return;
    fputs("file=", out);
    gh_puts(out, path, GH_PROPERTY);
    if (line > 0)
        fprintf(out, ",line=%lu", line);
    fputc(',', out);
}

/* The message: summary, what to do first, the first evidence line. */
static void gh_message(FILE *m, const struct od_renderer *r, const struct od_report *rep, const struct od_diagnosis *d)
{
    const struct od_words *w = r->opts.words;
    fputs(d->summary ? d->summary : d->title, m);
    render_confidence(m, d, w);
    fputc('\n', m);
    if (d->role == OD_ROLE_RECOVERED) {
        words_put(m, w, W_RECOVERED_NOTE, 0, NULL);
        fputc('\n', m);
    } else if (d->role != OD_ROLE_ROOT && d->consequence_of >= 0 && (size_t)d->consequence_of < rep->count) {
        const char *of = rep->diagnoses[d->consequence_of].cause;
        words_put(m, w, W_FIX_THAT_FIRST, 1, &of);
        fputc('\n', m);
    } else if (d->step_count > 0) {
        words_put(m, w, W_TRY_FIRST, 0, NULL);
        fprintf(m, " %s", d->steps[0].action);
        if (d->steps[0].detail)
            fprintf(m, " \xe2\x80\x94 %s", d->steps[0].detail);
        fputc('\n', m);
    }
    if (d->evidence_count > 0) {
        words_put(m, w, W_EVIDENCE_AT, 0, NULL);
        fprintf(m, " %s:%lu: ", d->evidence[0].path, d->evidence[0].line);
        render_put_cut(m, d->evidence[0].text, RENDER_EVIDENCE_WIDTH);
        if (d->match_count > 1) {
            char count[32];
            const char *args[] = {count};
            snprintf(count, sizeof count, "%llu", d->match_count);
            fputc(' ', m);
            words_put(m, w, W_MATCHING_LINES, 1, args);
        }
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
        gh_message(m.f, r, rep, d);
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
    if (d->evidence_count > 0)
        gh_file(out, d->evidence[0].path, d->evidence[0].line);
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

/* Did any input of the job give text to read (an unread one has its own
 * annotation already)? */
static int read_any(const struct od_report *rep)
{
    for (size_t i = 0; i < rep->input_count; i++)
        if (rep->inputs[i].error_kind == NULL)
            return 1;
    return 0;
}

/* A job with no diagnosis still gets an annotation, so the run's page says
 * oomdiag looked: a notice at the last line that read like an error, when
 * there is one. */
static void gh_nothing_found(FILE *out, const struct od_renderer *r, const struct od_report *rep, const char *label)
{
    const struct od_last_error *le = &rep->last_error;
    char lines[32];
    snprintf(lines, sizeof lines, "%llu", render_job_lines(rep));
    const char *args[] = {label, lines};
    struct render_mem m;
    size_t len = 0;
    char *text = NULL;
    if (render_mem_begin(&m) == 0) {
        words_put(m.f, r->opts.words, W_NOTHING_FOUND, 2, args);
        if (le->path != NULL) {
            fputc('\n', m.f);
            words_put(m.f, r->opts.words, W_LAST_ERROR, 0, NULL);
            fprintf(m.f, " %s:%llu: %s", le->path, (unsigned long long)le->line, le->text);
        }
        text = render_mem_end(&m, &len);
    }
    fputs("::notice ", out);
    if (le->path != NULL)
        gh_file(out, le->path, (unsigned long)le->line);
    fputs("title=oomdiag::", out);
    if (text != NULL)
        gh_put(out, text, len, GH_DATA);
    fputc('\n', out);
    free(text);
}

static int gh_job(struct od_renderer *r, const struct od_report *rep)
{
    struct gh_state *st = r->state;
    char label[512];
    int rc = 0;
    render_job_label(rep, label, sizeof label, r->opts.words, 1);
    struct render_mem m;
    size_t len = 0;
    char *headline = NULL;
    if (render_mem_begin(&m) == 0) {
        render_job_headline(m.f, rep, label, r->opts.words);
        headline = render_mem_end(&m, &len);
    }
    fputs("oomdiag: ", r->out);
    if (headline != NULL)
        gh_put(r->out, headline, len, GH_PLAIN);
    fputc('\n', r->out);
    free(headline);
    for (size_t i = 0; i < rep->input_count; i++) {
        const struct od_input_info *in = &rep->inputs[i];
        if (in->error_kind == NULL)
            continue;
        /* Unreadable inputs fail the step's reading; empty or binary ones warn. */
        fputs(in->error ? "::error " : "::warning ", r->out);
        gh_file(r->out, in->path, 0);
        fputs("title=oomdiag::", r->out);
        const char *args[] = {in->path, render_input_message(r, in), in->error_kind};
        enum od_word w = !in->error ? W_INPUT_NOTHING : in->bytes > 0 ? W_INPUT_PARTIAL : W_INPUT_NOT_READ;
        if (render_mem_begin(&m) == 0) {
            words_put(m.f, r->opts.words, w, 3, args);
            char *text = render_mem_end(&m, &len);
            if (text != NULL)
                gh_put(r->out, text, len, GH_DATA);
            free(text);
        }
        fputc('\n', r->out);
    }
    for (size_t i = 0; i < rep->count && rc == 0; i++)
        rc = gh_annotation(r, rep, &rep->diagnoses[i]);
    if (rep->count == 0 && read_any(rep))
        gh_nothing_found(r->out, r, rep, label);
    /* Errors writing the summary file are the caller's to find (ferror). */
    if (r->opts.step_summary != NULL)
        (void)markdown_write_job(r->opts.step_summary, r, &st->summary, rep);
    return rc;
}

static int gh_finish(struct od_renderer *r)
{
    const struct gh_state *st = r->state;
    /* The step summary has them all only when it left no job out. */
    int summary_whole = r->opts.step_summary != NULL && st->summary.jobs_left_out == 0;
    if (st->errors_dropped > 0 || st->warnings_dropped > 0) {
        char e[16], wn[16], me[16], mw[16];
        snprintf(e, sizeof e, "%u", st->errors_dropped);
        snprintf(wn, sizeof wn, "%u", st->warnings_dropped);
        snprintf(me, sizeof me, "%d", GH_MAX_ERRORS);
        snprintf(mw, sizeof mw, "%d", GH_MAX_WARNINGS);
        const char *args[] = {e, wn, me, mw,
                              words_get(r->opts.words, summary_whole ? W_GH_SUMMARY_HAS_ALL : W_GH_RUN_TEXT)};
        fputs("::notice::", r->out);
        words_put(r->out, r->opts.words, W_GH_LEFT_OUT, 5, args);
        fputc('\n', r->out);
    }
    if (r->opts.step_summary != NULL)
        (void)markdown_write_footer(r->opts.step_summary, r, &st->summary);
    return ferror(r->out) ? -1 : 0;
}

const struct render_format render_github_format = {"github", OD_FMT_GITHUB, gh_create, gh_job, gh_finish, NULL};
