/* JUnit XML, as GitLab, Jenkins, Buildkite and CircleCI read it: one
 * testcase per job, failing with a <failure> per root cause whose text
 * holds the evidence, the remediation and the consequences.  The totals
 * come first in the document, so the testcases are kept in memory until
 * the end.  Everything is XML-escaped; characters XML 1.0 does not allow
 * are dropped and bytes that are not UTF-8 become U+FFFD. */
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "render_util.h"
#include "textsafe.h"

/* The testcases are held to this size (a JUnit report of a gigabyte
 * helps no CI), past it a job fails as a write error would. */
enum { JU_MAX_XML = 1024 * 1024 * 1024 };

/* The format's state: the counts and the testcases so far. */
struct ju_state {
    size_t tests, failures, errors;
    struct buf xml;
};

/* Writes S XML-escaped; ATTR: for an attribute value (tabs and line
 * breaks as character references, which attribute normalisation keeps). */
static void ju_put(FILE *out, const char *s, int attr)
{
    const char *p = s, *end = s + strlen(s);
    while (p < end) {
        unsigned long cp = 0;
        size_t n = textsafe_utf8_decode(p, (size_t)(end - p), &cp);
        if (n == 0) {
            fputs("\xef\xbf\xbd", out);
            p++;
            continue;
        }
        switch (cp) {
        case '&': fputs("&amp;", out); break;
        case '<': fputs("&lt;", out); break;
        case '>': fputs("&gt;", out); break;
        case '"': fputs("&quot;", out); break;
        case '\'': fputs("&apos;", out); break;
        case '\r': fputs("&#13;", out); break;
        case '\t': fputs(attr ? "&#9;" : "\t", out); break;
        case '\n': fputs(attr ? "&#10;" : "\n", out); break;
        default:
            /* Not XML 1.0 characters (C0 controls, U+FFFE, U+FFFF), and
             * DEL and the C1 controls, which it merely discourages. */
            if (cp >= 0x20 && !(cp >= 0x7f && cp <= 0x9f) && cp != 0xfffe && cp != 0xffff)
                fwrite(p, 1, n, out);
            break;
        }
        p += n;
    }
}

/* "cause (variant): title on ranks 1, 2 [high confidence, pytorch]" */
static void ju_headline(FILE *t, const struct od_diagnosis *d)
{
    render_headline(t, d, NULL);
    render_confidence(t, d, NULL);
    fputc('\n', t);
}

/* Closes T and writes its text as an element's content: XML-escaped,
 * without its trailing line breaks.  0 or -1. */
static int ju_put_mem(FILE *out, struct render_mem *t)
{
    size_t len = 0;
    char *text = render_mem_end(t, &len);
    if (text == NULL)
        return -1;
    while (len > 0 && text[len - 1] == '\n')
        text[--len] = '\0';
    ju_put(out, text, 0);
    free(text);
    return 0;
}

static void ju_evidence(FILE *t, const struct od_diagnosis *d, size_t limit, const char *indent)
{
    size_t shown = d->evidence_count < limit ? d->evidence_count : limit;
    for (size_t i = 0; i < shown; i++) {
        fprintf(t, "%s%s:%lu: ", indent, d->evidence[i].path, d->evidence[i].line);
        render_put_cut(t, d->evidence[i].text, RENDER_EVIDENCE_WIDTH);
        fputc('\n', t);
    }
    if (d->match_count > shown)
        fprintf(t, "%s(%llu matching lines in all)\n", indent, d->match_count);
}

/* Is diagnosis I a consequence listed under root ROOT? Consequences of
 * no known root go under the first root. */
static int ju_belongs(const struct od_report *rep, size_t i, size_t root, size_t first_root)
{
    const struct od_diagnosis *d = &rep->diagnoses[i];
    if (d->role == OD_ROLE_ROOT || d->role == OD_ROLE_RECOVERED)
        return 0;
    if (d->consequence_of >= 0 && (size_t)d->consequence_of < rep->count &&
        rep->diagnoses[d->consequence_of].role == OD_ROLE_ROOT)
        return (size_t)d->consequence_of == root;
    return root == first_root;
}

/* The failure's text: the diagnosis as the text format shows it, and the
 * consequences that follow from it. */
static void ju_details(FILE *t, const struct od_renderer *r, const struct od_report *rep, size_t index,
                       size_t first_root)
{
    const struct od_diagnosis *d = &rep->diagnoses[index];
    ju_headline(t, d);
    fprintf(t, "%s\n", d->summary ? d->summary : d->title);
    if (d->last_step >= 0)
        fprintf(t, "Last step reached: %lld\n", d->last_step);
    if (d->evidence_count > 0) {
        fputs("\nEvidence:\n", t);
        ju_evidence(t, d, (size_t)r->opts.max_evidence, "  ");
    }
    if (d->step_count > 0)
        fputs("\nWhat to do:\n", t);
    for (size_t i = 0; i < d->step_count; i++) {
        fprintf(t, "  %zu. %s\n", i + 1, d->steps[i].action);
        if (d->steps[i].detail)
            fprintf(t, "     %s\n", d->steps[i].detail);
    }
    if (d->role != OD_ROLE_ROOT)
        return;
    int heading = 0;
    for (size_t i = 0; i < rep->count; i++) {
        if (!ju_belongs(rep, i, index, first_root))
            continue;
        if (!heading)
            fputs("\nConsequences:\n", t);
        heading = 1;
        fputs("  ", t);
        ju_headline(t, &rep->diagnoses[i]);
        ju_evidence(t, &rep->diagnoses[i], RENDER_CONSEQUENCE_EVIDENCE, "    ");
    }
}

/* Writes `      <TAG message="WHAT: WHY" type="TYPE"`, the start of a
 * test case's failure or error element (the caller closes it). */
static void ju_problem(FILE *out, const char *tag, const char *what, const char *why, const char *type)
{
    fprintf(out, "      <%s message=\"", tag);
    ju_put(out, what, 1);
    fputs(": ", out);
    ju_put(out, why, 1);
    fputs("\" type=\"", out);
    ju_put(out, type, 1);
    fputs("\"", out);
}

static int ju_failure(FILE *out, const struct od_renderer *r, const struct od_report *rep, size_t index,
                      size_t first_root)
{
    const struct od_diagnosis *d = &rep->diagnoses[index];
    struct render_mem t;
    if (render_mem_begin(&t) != 0)
        return -1;
    ju_details(t.f, r, rep, index, first_root);
    ju_problem(out, "failure", d->cause, d->summary ? d->summary : d->title, d->cause);
    fputs(">", out);
    if (ju_put_mem(out, &t) != 0)
        return -1;
    fputs("</failure>\n", out);
    return 0;
}

/* Failures the program survived: in the testcase's output, never as a
 * failure, so that a job that recovered passes. */
static int ju_recovered(FILE *out, const struct od_renderer *r, const struct od_report *rep)
{
    struct render_mem t;
    if (render_job_recovered(rep) == 0)
        return 0;
    if (render_mem_begin(&t) != 0)
        return -1;
    for (size_t i = 0; i < rep->count; i++) {
        const struct od_diagnosis *d = &rep->diagnoses[i];
        if (d->role != OD_ROLE_RECOVERED)
            continue;
        fputs("Recovered (the program went on after it): ", t.f);
        ju_headline(t.f, d);
        fprintf(t.f, "%s\n", d->summary ? d->summary : d->title);
        ju_evidence(t.f, d,
                    (size_t)r->opts.max_evidence < RENDER_CONSEQUENCE_EVIDENCE ? (size_t)r->opts.max_evidence
                                                                               : RENDER_CONSEQUENCE_EVIDENCE,
                    "  ");
    }
    fputs("      <system-out>", out);
    if (ju_put_mem(out, &t) != 0)
        return -1;
    fputs("</system-out>\n", out);
    return 0;
}

/* One testcase; FAILED tells whether it has a failure, ERRORS how many
 * of its inputs gave no text. */
static int ju_testcase(FILE *out, const struct od_renderer *r, const struct od_report *rep, int *failed, size_t *errors)
{
    char label[512];
    size_t first_root = rep->count;
    render_job_label(rep, label, sizeof label, NULL, 1);
    for (size_t i = rep->count; i-- > 0;)
        if (rep->diagnoses[i].role == OD_ROLE_ROOT)
            first_root = i;
    fputs("    <testcase classname=\"oomdiag\" name=\"", out);
    ju_put(out, label, 1);
    *failed = rep->count > render_job_recovered(rep);
    *errors = 0;
    for (size_t i = 0; i < rep->input_count; i++)
        *errors += rep->inputs[i].error_kind != NULL;
    if (rep->count == 0 && *errors == 0) {
        fputs("\"/>\n", out);
        return 0;
    }
    fputs("\">\n", out);
    /* An input that gave no text is an error of the test, not a pass. */
    for (size_t i = 0; i < rep->input_count; i++) {
        const struct od_input_info *in = &rep->inputs[i];
        if (in->error_kind == NULL)
            continue;
        ju_problem(out, "error", in->path, in->error_message ? in->error_message : in->error_kind, in->error_kind);
        fputs("/>\n", out);
    }
    for (size_t i = 0; i < rep->count; i++) {
        /* With no root at all, each consequence fails the job itself. */
        int own = (first_root == rep->count && rep->diagnoses[i].role != OD_ROLE_RECOVERED) ||
                  rep->diagnoses[i].role == OD_ROLE_ROOT;
        if (own && ju_failure(out, r, rep, i, first_root) != 0)
            return -1;
    }
    if (ju_recovered(out, r, rep) != 0)
        return -1;
    fputs("    </testcase>\n", out);
    return 0;
}

static void *ju_create(const struct od_renderer *r)
{
    (void)r;
    struct ju_state *st = calloc(1, sizeof *st);
    if (st != NULL)
        buf_init(&st->xml, JU_MAX_XML);
    return st;
}

static void ju_free(void *state)
{
    struct ju_state *st = state;
    if (st != NULL)
        buf_free(&st->xml);
    free(st);
}

static int ju_job(struct od_renderer *r, const struct od_report *rep)
{
    struct render_mem t;
    size_t len = 0;
    int failed = 0;
    size_t errors = 0;
    if (render_mem_begin(&t) != 0)
        return -1;
    int rc = ju_testcase(t.f, r, rep, &failed, &errors);
    char *xml = render_mem_end(&t, &len);
    struct ju_state *st = r->state;
    if (xml == NULL || rc != 0 || buf_add(&st->xml, xml, len) != 0) {
        free(xml);
        return -1;
    }
    free(xml);
    st->tests++;
    st->failures += failed != 0;
    st->errors += errors != 0;
    return 0;
}

static int ju_finish(struct od_renderer *r)
{
    const struct ju_state *st = r->state;
    size_t tests = st->tests, failures = st->failures, errors = st->errors;
    FILE *out = r->out;
    fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", out);
    fprintf(out, "<testsuites name=\"oomdiag\" tests=\"%zu\" failures=\"%zu\" errors=\"%zu\">\n", tests, failures,
            errors);
    fprintf(out, "  <testsuite name=\"oomdiag\" tests=\"%zu\" failures=\"%zu\" errors=\"%zu\" skipped=\"0\">\n", tests,
            failures, errors);
    if (st->xml.len > 0)
        fwrite(st->xml.data, 1, st->xml.len, out);
    fputs("  </testsuite>\n</testsuites>\n", out);
    return ferror(out) ? -1 : 0;
}

const struct render_format render_junit_format = {"junit", OD_FMT_JUNIT, ju_create, ju_job, ju_finish, ju_free};
