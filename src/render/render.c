#include "render.h"

#include "textsafe.h"
#include "words.h"

#include <stdlib.h>
#include <string.h>

struct od_renderer *od_renderer_create(FILE *out, const struct od_render_opts *opts)
{
    struct od_renderer *r = calloc(1, sizeof *r);
    if (r == NULL)
        return NULL;
    r->out = out;
    r->opts = *opts;
    if (r->opts.max_evidence <= 0)
        r->opts.max_evidence = 5;
    r->md_out = (struct md_cap){MD_COMMENT_LIMIT, 1, 0, 0};
    r->md_summary = (struct md_cap){MD_SUMMARY_LIMIT, 0, 0, 0};
    return r;
}

int od_render_job(struct od_renderer *r, const struct od_report *rep)
{
    int rc = 0;
    switch (r->opts.format) {
    case OD_FMT_TEXT: rc = render_text_job(r, rep); break;
    case OD_FMT_JSON:
        if (r->jobs == NULL && (r->jobs = cJSON_CreateArray()) == NULL)
            return -1;
        {
            cJSON *job = render_json_job(rep, r->opts.trace);
            if (job == NULL)
                return -1;
            cJSON_AddItemToArray(r->jobs, job);
        }
        break;
    case OD_FMT_NDJSON: rc = render_json_job_line(r, rep); break;
    case OD_FMT_GITHUB: rc = render_github_job(r, rep); break;
    case OD_FMT_MARKDOWN: rc = render_markdown_job(r, rep); break;
    case OD_FMT_JUNIT: rc = render_junit_job(r, rep); break;
    }
    r->job_index++;
    r->roots_total += render_job_roots(rep);
    r->diagnoses_total += rep->count;
    r->recovered_total += render_job_recovered(rep);
    if (rc == 0 && ferror(r->out))
        rc = -1;
    return rc;
}

int od_renderer_finish(struct od_renderer *r)
{
    int rc = 0;
    switch (r->opts.format) {
    case OD_FMT_JSON: rc = render_json_finish(r); break;
    case OD_FMT_GITHUB: rc = render_github_finish(r); break;
    case OD_FMT_MARKDOWN: rc = render_markdown_finish(r); break;
    case OD_FMT_JUNIT: rc = render_junit_finish(r); break;
    default: break;
    }
    if (fflush(r->out) != 0 || ferror(r->out))
        rc = -1;
    return rc;
}

void od_renderer_free(struct od_renderer *r)
{
    if (r == NULL)
        return;
    cJSON_Delete(r->jobs);
    free(r->format_state);
    free(r);
}

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

unsigned long long render_job_lines(const struct od_report *rep)
{
    unsigned long long lines = 0;
    for (size_t i = 0; i < rep->input_count; i++)
        lines += rep->inputs[i].lines;
    return lines;
}

size_t render_job_roots(const struct od_report *rep)
{
    size_t roots = 0;
    for (size_t i = 0; i < rep->count; i++)
        roots += rep->diagnoses[i].role == OD_ROLE_ROOT;
    return roots;
}

size_t render_job_recovered(const struct od_report *rep)
{
    size_t n = 0;
    for (size_t i = 0; i < rep->count; i++)
        n += rep->diagnoses[i].role == OD_ROLE_RECOVERED;
    return n;
}

void render_job_counts(FILE *out, const struct od_report *rep)
{
    size_t roots = render_job_roots(rep), rec = render_job_recovered(rep), cons = rep->count - roots - rec;
    fprintf(out, "%zu root cause%s, %zu consequence%s", roots, roots == 1 ? "" : "s", cons, cons == 1 ? "" : "s");
    if (rec > 0)
        fprintf(out, ", %zu recovered", rec);
}

void render_job_label(const struct od_report *rep, char *buf, size_t bufsize, const struct od_words *words)
{
    if (rep->input_count == 1) {
        snprintf(buf, bufsize, "%s", rep->inputs[0].path);
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

const char *od_version(void)
{
    return OOMDIAG_VERSION;
}
