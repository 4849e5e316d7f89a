/* The renderer: the table of formats, and the calls every format goes
 * through (create, one job at a time, finish, free). */
#include "render.h"

#include <stdlib.h>
#include <string.h>

#include "render_util.h"

const struct render_format *const render_formats[] = {
    &render_text_format,
    &render_json_format,
    &render_ndjson_format,
    &render_github_format,
    &render_markdown_format,
    &render_junit_format,
    NULL,
};

const struct render_format *render_format_named(const char *name)
{
    for (size_t i = 0; render_formats[i] != NULL; i++)
        if (strcmp(render_formats[i]->name, name) == 0)
            return render_formats[i];
    return NULL;
}

const char *od_format_name(size_t i)
{
    for (size_t k = 0; render_formats[k] != NULL; k++)
        if (k == i)
            return render_formats[k]->name;
    return NULL;
}

int od_format_named(const char *name, enum od_format *id)
{
    const struct render_format *f = render_format_named(name);
    if (f == NULL)
        return -1;
    *id = f->id;
    return 0;
}

static const struct render_format *format_of(enum od_format id)
{
    for (size_t i = 0; render_formats[i] != NULL; i++)
        if (render_formats[i]->id == id)
            return render_formats[i];
    return NULL;
}

void od_renderer_set_compact(struct od_renderer *r, int compact)
{
    r->compact = compact;
}

struct od_renderer *od_renderer_create(FILE *out, const struct od_render_opts *opts)
{
    const struct render_format *format = format_of(opts->format);
    struct od_renderer *r = format ? calloc(1, sizeof *r) : NULL;
    if (r == NULL)
        return NULL;
    r->out = out;
    r->opts = *opts;
    r->format = format;
    if (r->opts.max_evidence <= 0)
        r->opts.max_evidence = RENDER_MAX_EVIDENCE;
    if (format->create != NULL && (r->state = format->create(r)) == NULL) {
        free(r);
        return NULL;
    }
    return r;
}

int od_render_job(struct od_renderer *r, const struct od_report *rep)
{
    int rc = r->format->job(r, rep);
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
    int rc = r->format->finish ? r->format->finish(r) : 0;
    if (fflush(r->out) != 0 || ferror(r->out))
        rc = -1;
    return rc;
}

void od_renderer_free(struct od_renderer *r)
{
    if (r == NULL)
        return;
    if (r->format->free != NULL)
        r->format->free(r->state);
    else
        free(r->state);
    free(r);
}
