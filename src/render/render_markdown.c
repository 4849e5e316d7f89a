/* The report as Markdown, for a pull-request comment or a CI job summary:
 * a heading per job, per diagnosis its cause, confidence, summary, the
 * evidence in a fenced block and numbered remediation.  Text from logs
 * and rules is escaped so that it cannot make links, HTML or structure. */
#include <stdlib.h>
#include <string.h>

#include "render_markdown.h"
#include "textsafe.h"

static int md_is_alnum(unsigned char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c >= 0x80;
}

/* The backtick run at S: its length, and in *CLOSE the offset of the run
 * of the same length that closes the code span it opens (0: none). */
static size_t md_code_span(const unsigned char *s, size_t *close)
{
    size_t run = 0;
    while (s[run] == '`')
        run++;
    *close = 0;
    for (size_t i = run; s[i];) {
        size_t n = 0;
        while (s[i + n] == '`')
            n++;
        if (n == run) {
            *close = i;
            return run;
        }
        i += n ? n : 1;
    }
    return run;
}

/* Writes S as inline Markdown text: punctuation that could start
 * emphasis, headings, links, HTML, tables or strike-through is escaped
 * with a backslash ('_' only at a word's edge), control characters
 * become spaces.  Code spans (`...`) are kept; a backtick that closes
 * none is escaped.  AT_START: S begins a block, so a leading
 * '-', '+', '=' or "1." is escaped too, and a leading ':' (a CI runner
 * could read "::" there as a command). */
static void md_text(FILE *out, const char *s, int at_start)
{
    const unsigned char *p = (const unsigned char *)s;
    if (at_start) {
        while (*p == ' ')
            p++;
        if (*p == '-' || *p == '+' || *p == '=' || *p == ':')
            fputc('\\', out);
        size_t digits = strspn((const char *)p, "0123456789");
        int marker = digits > 0 && (p[digits] == '.' || p[digits] == ')');
        if (marker && (p[digits + 1] == ' ' || p[digits + 1] == '\t' || p[digits + 1] == '\0')) {
            fwrite(p, 1, digits, out);
            fputc('\\', out);
            p += digits;
        }
    }
    for (const unsigned char *q = p; *q; q++) {
        unsigned char c = *q;
        if (c < 0x20 || c == 0x7f) {
            fputc(' ', out);
            continue;
        }
        if (c == '`') {
            size_t close = 0, run = md_code_span(q, &close);
            if (close > 0) {
                /* Rules write code as `code`: keep it, as a code span shows
                 * its content literally. */
                for (size_t i = 0; i < close + run; i++)
                    fputc(q[i] < 0x20 || q[i] == 0x7f ? ' ' : q[i], out);
                q += close + run - 1;
                continue;
            }
            for (size_t i = 0; i < run; i++)
                fputs("\\`", out);
            q += run - 1;
            continue;
        }
        int esc = strchr("\\*[]<>&|~#", c) != NULL;
        if (c == '_')
            esc = q == p || !md_is_alnum(q[-1]) || !md_is_alnum(q[1]);
        if (esc)
            fputc('\\', out);
        fputc(c, out);
    }
}

/* Writes S for a fenced code block: control characters dropped, cut at
 * about WIDTH bytes on a UTF-8 boundary (0: no limit). */
static void md_code(FILE *out, const char *s, size_t width)
{
    size_t n = strlen(s), cut = width > 0 && n > width;
    if (cut)
        n = textsafe_utf8_cut(s, n, width);
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '\t')
            fputc(' ', out);
        else if (c >= 0x20 && c != 0x7f)
            fputc(c, out);
    }
    if (cut)
        fputs("\xe2\x80\xa6", out);
}

/* The longest run of backticks in S. */
static size_t md_backtick_run(const char *s)
{
    size_t best = 0, run = 0;
    for (; *s; s++) {
        run = *s == '`' ? run + 1 : 0;
        if (run > best)
            best = run;
    }
    return best;
}

static void md_fence(FILE *out, size_t len)
{
    for (size_t i = 0; i < len; i++)
        fputc('`', out);
}

static void md_evidence(FILE *out, const struct od_renderer *r, const struct od_diagnosis *d)
{
    size_t shown = render_evidence_shown(d, r->opts.max_evidence), fence = 2;
    if (shown == 0)
        return;
    for (size_t i = 0; i < shown; i++) {
        size_t a = md_backtick_run(d->evidence[i].path), b = md_backtick_run(d->evidence[i].text);
        fence = a > fence ? a : fence;
        fence = b > fence ? b : fence;
    }
    fence++;
    fputs("Evidence:\n\n", out);
    md_fence(out, fence);
    fputs("text\n", out);
    for (size_t i = 0; i < shown; i++) {
        const struct od_evidence *e = &d->evidence[i];
        md_code(out, e->path, 0);
        fprintf(out, ":%lu: ", e->line);
        md_code(out, e->text, RENDER_EVIDENCE_WIDTH);
        fputc('\n', out);
    }
    md_fence(out, fence);
    fputs("\n\n", out);
    if (d->match_count > shown)
        fprintf(out, "%llu matching lines in all.\n\n", d->match_count);
}

static void md_diagnosis(FILE *out, const struct od_renderer *r, const struct od_report *rep, size_t index)
{
    const struct od_diagnosis *d = &rep->diagnoses[index];
    int root = d->role == OD_ROLE_ROOT;

    fputs(root ? "### Root cause: " : d->role == OD_ROLE_RECOVERED ? "### Recovered: " : "### Consequence: ", out);
    md_text(out, d->cause, 0);
    if (d->variant) {
        fputs(" (", out);
        md_text(out, d->variant, 0);
        fputc(')', out);
    }
    fputs("\n\n**", out);
    md_text(out, d->title, 0);
    fprintf(out, "** \xc2\xb7 %s confidence", od_confidence_name(d->confidence));
    if (d->framework) {
        fputs(" \xc2\xb7 ", out);
        md_text(out, d->framework, 0);
    }
    for (size_t i = 0; i < d->rank_count; i++)
        fprintf(out, i ? ", %d" : d->rank_count == 1 ? " \xc2\xb7 rank %d" : " \xc2\xb7 ranks %d", d->ranks[i]);
    if (d->last_step >= 0)
        fprintf(out, " \xc2\xb7 last step reached: %lld", d->last_step);
    if (!root && d->consequence_of >= 0 && (size_t)d->consequence_of < rep->count) {
        fputs(" \xc2\xb7 follows from ", out);
        md_text(out, rep->diagnoses[d->consequence_of].cause, 0);
    }
    fputs("\n\n", out);
    md_text(out, d->summary ? d->summary : d->title, 1);
    fputs("\n\n", out);
    if (d->role == OD_ROLE_RECOVERED)
        fputs("The program went on after it: this did not end the job.\n\n", out);
    md_evidence(out, r, d);
    if (d->step_count > 0 && d->role != OD_ROLE_RECOVERED) {
        fputs("What to do:\n\n", out);
        for (size_t i = 0; i < d->step_count; i++) {
            fprintf(out, "%zu. ", i + 1);
            md_text(out, d->steps[i].action, 1);
            if (d->steps[i].detail) {
                fputs(" \xe2\x80\x94 ", out);
                md_text(out, d->steps[i].detail, 0);
            }
            fputc('\n', out);
        }
        fputc('\n', out);
    }
}

static int markdown_job_text(FILE *out, const struct od_renderer *r, const struct od_report *rep)
{
    char label[512];
    render_job_label(rep, label, sizeof label, NULL, 1);
    fputs("## oomdiag: ", out);
    md_text(out, label, 0);
    fputs("\n\n", out);
    for (size_t i = 0; i < rep->input_count; i++) {
        const struct od_input_info *in = &rep->inputs[i];
        if (in->error_kind == NULL)
            continue;
        fputs(in->error ? "**Not read:** " : "**Nothing to read:** ", out);
        md_text(out, in->path, 0);
        fputs(": ", out);
        md_text(out, in->error_message ? in->error_message : in->error_kind, 0);
        fprintf(out, " (`%s`).\n\n", in->error_kind);
    }
    render_job_summary(out, rep, "No failure diagnosed");
    fputs(".\n\n", out);
    for (size_t i = 0; i < rep->count; i++)
        md_diagnosis(out, r, rep, i);
    return ferror(out) ? -1 : 0;
}

/* Characters (code points) of the N bytes at S. */
static size_t md_chars(const char *s, size_t n)
{
    size_t c = 0;
    for (size_t i = 0; i < n; i++)
        c += ((unsigned char)s[i] & 0xc0) != 0x80;
    return c;
}

int markdown_write_job(FILE *out, const struct od_renderer *r, struct md_cap *cap, const struct od_report *rep)
{
    struct render_mem t;
    size_t len = 0;
    if (render_mem_begin(&t) != 0)
        return -1;
    (void)markdown_job_text(t.f, r, rep);
    char *text = render_mem_end(&t, &len);
    if (text == NULL)
        return -1;
    size_t size = cap->in_chars ? md_chars(text, len) : len;
    int rc = 0;
    if (cap->limit > 0 && cap->used + size + MD_FOOTER_ROOM > cap->limit) {
        cap->jobs_left_out++; /* whole jobs or nothing: a cut report misleads */
    } else {
        rc = fwrite(text, 1, len, out) == len ? 0 : -1;
        cap->used += size;
    }
    free(text);
    return rc;
}

int markdown_write_footer(FILE *out, const struct od_renderer *r, const struct md_cap *cap)
{
    if (cap->jobs_left_out > 0)
        fprintf(out,
                "**%zu more job%s left out:** this report stays under %zu %s, the most %s shows; "
                "`oomdiag --format text` or `--format ndjson` gives them all.\n\n",
                cap->jobs_left_out, cap->jobs_left_out == 1 ? "" : "s", cap->limit,
                cap->in_chars ? "characters" : "bytes", cap->in_chars ? "a comment" : "a step summary");
    size_t cons = r->diagnoses_total - r->roots_total - r->recovered_total;
    fprintf(out, "*oomdiag %s", od_version());
    if (r->opts.rules_version) {
        fputs(", rules ", out);
        md_text(out, r->opts.rules_version, 0);
    }
    fprintf(out, ": %zu job%s, ", r->job_index, r->job_index == 1 ? "" : "s");
    render_counts(out, r->roots_total, cons, r->recovered_total);
    fputs(".*\n", out);
    return ferror(out) ? -1 : 0;
}

/* The format's state: its budget on the output (a comment's). */
static void *md_create(const struct od_renderer *r)
{
    (void)r;
    struct md_cap *cap = malloc(sizeof *cap);
    if (cap != NULL)
        *cap = (struct md_cap){MD_COMMENT_LIMIT, 1, 0, 0};
    return cap;
}

static int md_job(struct od_renderer *r, const struct od_report *rep)
{
    return markdown_write_job(r->out, r, r->state, rep);
}

static int md_finish(struct od_renderer *r)
{
    return markdown_write_footer(r->out, r, r->state);
}

const struct render_format render_markdown_format = {"markdown", OD_FMT_MARKDOWN, md_create, md_job, md_finish, NULL};
