#include "session.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "wire.h"

int session_init(struct session *s, const struct session_opts *o)
{
    memset(s, 0, sizeof *s);
    s->o = *o;
    s->rend = od_renderer_create(o->out, &o->render);
    if (s->rend == NULL)
        return -1;
    od_renderer_set_compact(s->rend, o->compact);
    return 0;
}

static void pause_output(const struct session *s)
{
    if (s->o.pause != NULL)
        s->o.pause(s->o.pause_ctx);
}

static void resume_output(const struct session *s)
{
    if (s->o.flush_each)
        fflush(s->o.out);
    if (s->o.resume != NULL)
        s->o.resume(s->o.pause_ctx);
}

static int render(struct session *s, const struct od_report *rep)
{
    pause_output(s);
    if (s->o.mark && !s->marked) {
        fputs(OD_REPORT_BEGIN "\n", s->o.out);
        s->marked = 1;
    }
    int rc = od_render_job(s->rend, rep);
    if (rc != 0) {
        s->out_errno = errno;
        s->trouble = s->write_failed = 1;
    }
    resume_output(s);
    s->rendered = 1;
    return rc;
}

/* Was root cause D of REP rendered before?  If not, it is remembered.
 * -1 when out of memory. */
static int seen_before(struct session *s, const struct od_diagnosis *d)
{
    char key[512];
    snprintf(key, sizeof key, "%s|%lu|%s", d->cause, d->evidence_count ? d->evidence[0].line : 0UL,
             d->evidence_count ? d->evidence[0].path : "");
    for (size_t i = 0; i < s->reported_count; i++)
        if (strcmp(s->reported[i], key) == 0)
            return 1;
    char **grown = realloc(s->reported, (s->reported_count + 1) * sizeof *grown);
    if (grown == NULL)
        return -1;
    s->reported = grown;
    if ((s->reported[s->reported_count] = strdup(key)) == NULL)
        return -1;
    s->reported_count++;
    return 0;
}

/* Renders root diagnosis ROOT of REP with its consequences, as one job. */
static int render_root(struct session *s, const struct od_report *rep, size_t root)
{
    struct od_diagnosis *d = malloc(rep->count * sizeof *d);
    if (d == NULL)
        return -1;
    size_t n = 0;
    d[n] = rep->diagnoses[root];
    d[n++].consequence_of = -1;
    for (size_t i = 0; i < rep->count; i++)
        if (i != root && rep->diagnoses[i].role != OD_ROLE_ROOT && rep->diagnoses[i].consequence_of == (int)root) {
            d[n] = rep->diagnoses[i];
            d[n++].consequence_of = 0;
        }
    struct od_report one = *rep; /* its inputs, with this diagnosis alone */
    one.diagnoses = d;
    one.count = n;
    int rc = render(s, &one);
    free(d);
    return rc;
}

/* --follow: the root causes of REP not rendered before, one job each. */
static int new_roots(struct session *s, const struct od_report *rep)
{
    for (size_t i = 0; i < rep->count; i++) {
        const struct od_diagnosis *d = &rep->diagnoses[i];
        if (d->role != OD_ROLE_ROOT)
            continue;
        int seen = seen_before(s, d);
        if (seen < 0)
            return -1;
        if (seen)
            continue;
        s->diagnosed |= fail_on_counts(s->o.fail_on, d);
        if (!s->o.quiet && render_root(s, rep, i) != 0)
            return -1;
    }
    return 0;
}

static int shown(const struct session *s, const struct od_report *rep, unsigned flags)
{
    if (s->o.quiet)
        return 0;
    if (rep->count == 0 && (flags & SESSION_QUIET_IF_NONE) && s->o.render.format == OD_FMT_TEXT && !s->o.render.trace)
        return 0;
    return rep->input_count > 0 || rep->count > 0 || (flags & SESSION_SHOW_EMPTY);
}

long session_report(struct session *s, const struct od_report *rep, unsigned flags)
{
    long count = (long)rep->count;
    int rc = 0;
    if (flags & SESSION_NEW_ROOTS) {
        rc = new_roots(s, rep);
    } else {
        for (size_t i = 0; i < rep->count; i++)
            s->diagnosed |= fail_on_counts(s->o.fail_on, &rep->diagnoses[i]);
        if (shown(s, rep, flags))
            rc = render(s, rep);
    }
    if (rc != 0)
        s->trouble = 1;
    return rc != 0 ? -1 : count;
}

long session_job(struct session *s, const struct od_job *job, const char *name, unsigned flags)
{
    struct od_report *rep = od_classify_in(job, s->o.render.words);
    if (rep == NULL) {
        s->trouble = 1;
        return -1;
    }
    rep->name = name;
    long count = session_report(s, rep, flags);
    od_report_free(rep);
    return count;
}

int session_save(const struct session *s, const struct od_job *job, const char *name, FILE *to)
{
    struct od_report *rep = od_classify_in(job, s->o.render.words);
    if (rep == NULL)
        return -1;
    rep->name = name;
    int rc = wire_write(to, rep);
    od_report_free(rep);
    return rc;
}

int session_finish(struct session *s)
{
    if (s->o.quiet)
        return 0;
    if (od_renderer_finish(s->rend) != 0) {
        s->out_errno = errno;
        s->trouble = s->write_failed = 1;
        return -1;
    }
    if (s->marked)
        fputs(OD_REPORT_END "\n", s->o.out);
    return 0;
}

int session_status(const struct session *s)
{
    if (s->o.quiet && s->diagnosed)
        return OD_EXIT_DIAGNOSED;
    if (s->trouble || s->write_failed)
        return OD_EXIT_TROUBLE;
    return s->diagnosed ? OD_EXIT_DIAGNOSED : OD_EXIT_NONE;
}

void session_free(struct session *s)
{
    od_renderer_free(s->rend);
    for (size_t i = 0; i < s->reported_count; i++)
        free(s->reported[i]);
    free(s->reported);
    s->rend = NULL;
    s->reported = NULL;
    s->reported_count = 0;
}
