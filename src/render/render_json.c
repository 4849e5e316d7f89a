/* JSON and NDJSON: the document of schema_version 1 (docs/oomdiag.schema.json),
 * built with cJSON; NDJSON records written whole, one per job.  The JSON
 * format's state is the document's jobs array, printed at the end. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "render_util.h"

/* Integers are written as raw JSON text: exact for every 64-bit value, and
 * much cheaper than cJSON's double printing with its round-trip check. */
static void add_int(cJSON *o, const char *name, long long v)
{
    char buf[24];
    snprintf(buf, sizeof buf, "%lld", v);
    cJSON_AddRawToObject(o, name, buf);
}

static cJSON *int_item(long long v)
{
    char buf[24];
    snprintf(buf, sizeof buf, "%lld", v);
    return cJSON_CreateRaw(buf);
}

static cJSON *fields_json(const struct od_fields *f)
{
    cJSON *o = cJSON_CreateObject();
    for (size_t i = 0; o && i < f->count; i++) {
        const struct od_field *fd = &f->items[i];
        if (fd->type == OD_FIELD_STRING)
            cJSON_AddStringToObject(o, fd->name, fd->str);
        else
            add_int(o, fd->name, fd->num);
    }
    return o;
}

static cJSON *diagnosis_json(const struct od_diagnosis *d, int with_trace)
{
    cJSON *o = cJSON_CreateObject();
    if (o == NULL)
        return NULL;
    cJSON_AddStringToObject(o, "cause", d->cause);
    if (d->variant)
        cJSON_AddStringToObject(o, "variant", d->variant);
    else
        cJSON_AddNullToObject(o, "variant");
    cJSON_AddStringToObject(o, "role", od_role_name(d->role));
    cJSON_AddStringToObject(o, "title", d->title);
    cJSON_AddStringToObject(o, "summary", d->summary ? d->summary : d->title);
    cJSON_AddStringToObject(o, "confidence", od_confidence_name(d->confidence));
    if (d->framework)
        cJSON_AddStringToObject(o, "framework", d->framework);
    else
        cJSON_AddNullToObject(o, "framework");
    cJSON *ranks = cJSON_AddArrayToObject(o, "ranks");
    for (size_t i = 0; ranks && i < d->rank_count; i++)
        cJSON_AddItemToArray(ranks, int_item(d->ranks[i]));
    if (d->last_step >= 0)
        add_int(o, "last_step", d->last_step);
    else
        cJSON_AddNullToObject(o, "last_step");
    if (d->consequence_of >= 0)
        add_int(o, "consequence_of", d->consequence_of);
    add_int(o, "match_count", (long long)d->match_count);
    cJSON_AddItemToObject(o, "fields", fields_json(&d->fields));
    cJSON *ev = cJSON_AddArrayToObject(o, "evidence");
    for (size_t i = 0; ev && i < d->evidence_count; i++) {
        const struct od_evidence *e = &d->evidence[i];
        cJSON *x = cJSON_CreateObject();
        if (x == NULL)
            break;
        cJSON_AddStringToObject(x, "path", e->path);
        add_int(x, "line", (long long)e->line);
        cJSON_AddStringToObject(x, "rule", e->rule);
        if (e->rank >= 0)
            add_int(x, "rank", e->rank);
        cJSON_AddStringToObject(x, "text", e->text);
        cJSON_AddItemToObject(x, "fields", fields_json(e->fields));
        cJSON_AddItemToArray(ev, x);
    }
    cJSON *rem = cJSON_AddArrayToObject(o, "remediation");
    for (size_t i = 0; rem && i < d->step_count; i++) {
        cJSON *x = cJSON_CreateObject();
        if (x == NULL)
            break;
        add_int(x, "rank", (long long)(i + 1));
        cJSON_AddStringToObject(x, "id", d->steps[i].id);
        cJSON_AddStringToObject(x, "action", d->steps[i].action);
        if (d->steps[i].detail)
            cJSON_AddStringToObject(x, "detail", d->steps[i].detail);
        else
            cJSON_AddNullToObject(x, "detail");
        cJSON_AddItemToArray(rem, x);
    }
    if (with_trace) {
        cJSON *tr = cJSON_AddArrayToObject(o, "trace");
        for (size_t i = 0; tr && i < d->trace_count; i++)
            cJSON_AddItemToArray(tr, cJSON_CreateString(d->trace[i]));
    }
    return o;
}

static cJSON *job_json(const struct od_report *rep, int with_trace)
{
    cJSON *job = cJSON_CreateObject();
    if (job == NULL)
        return NULL;
    cJSON *inputs = cJSON_AddArrayToObject(job, "inputs");
    for (size_t i = 0; inputs && i < rep->input_count; i++) {
        cJSON *x = cJSON_CreateObject();
        if (x == NULL)
            break;
        cJSON_AddStringToObject(x, "path", rep->inputs[i].path);
        add_int(x, "lines", (long long)rep->inputs[i].lines);
        add_int(x, "bytes", (long long)rep->inputs[i].bytes);
        if (rep->inputs[i].rank >= 0)
            add_int(x, "rank", rep->inputs[i].rank);
        if (rep->inputs[i].error_kind != NULL) {
            cJSON *e = cJSON_AddObjectToObject(x, "error");
            cJSON_AddStringToObject(e, "kind", rep->inputs[i].error_kind);
            cJSON_AddStringToObject(e, "message", rep->inputs[i].error_message ? rep->inputs[i].error_message : "");
        }
        cJSON_AddItemToArray(inputs, x);
    }
    cJSON *diags = cJSON_AddArrayToObject(job, "diagnoses");
    for (size_t i = 0; diags && i < rep->count; i++)
        cJSON_AddItemToArray(diags, diagnosis_json(&rep->diagnoses[i], with_trace));
    if (with_trace && rep->count == 0 && rep->near_miss_count > 0) {
        cJSON *arr = cJSON_AddArrayToObject(job, "near_misses");
        for (size_t i = 0; arr && i < rep->near_miss_count; i++) {
            const struct od_near_miss *nm = &rep->near_misses[i];
            cJSON *x = cJSON_CreateObject();
            if (x == NULL)
                break;
            cJSON_AddStringToObject(x, "rule", nm->rule);
            cJSON_AddStringToObject(x, "cause", nm->cause ? nm->cause : "");
            cJSON_AddStringToObject(x, "path", nm->path);
            add_int(x, "line", (long long)nm->line);
            add_int(x, "count", (long long)nm->count);
            cJSON_AddStringToObject(x, "text", nm->text);
            cJSON_AddItemToArray(arr, x);
        }
    }
    if (rep->count == 0 && rep->last_error.path != NULL) {
        cJSON *e = cJSON_AddObjectToObject(job, "last_error");
        cJSON_AddStringToObject(e, "path", rep->last_error.path);
        add_int(e, "line", (long long)rep->last_error.line);
        cJSON_AddStringToObject(e, "text", rep->last_error.text);
    }
    return job;
}

static int print_json(FILE *out, cJSON *item, int formatted)
{
    char *text = formatted ? cJSON_Print(item) : cJSON_PrintUnformatted(item);
    if (text == NULL)
        return -1;
    int rc = fputs(text, out) < 0 || fputc('\n', out) == EOF ? -1 : 0;
    cJSON_free(text);
    return rc;
}

/* Holds (LOCK) or releases a POSIX record lock on all of FD, waiting for
 * it.  Record locks belong to a process, so other oomdiag processes that
 * share the same pipe or file (xargs -P, GNU parallel) wait their turn.
 * Where FD cannot be locked (a terminal, an old NFS), the write goes on
 * unlocked. */
static void lock_whole(int fd, int lock)
{
    struct flock fl = {0};
    fl.l_type = lock ? F_WRLCK : F_UNLCK;
    fl.l_whence = SEEK_SET;
    while (fcntl(fd, F_SETLKW, &fl) != 0 && errno == EINTR)
        continue;
}

/* Writes the N bytes of TEXT to OUT at once, after what OUT holds
 * already, under a lock: a record stays whole when several writers share
 * a pipe or a file (a pipe keeps only writes up to PIPE_BUF, 4 KiB, whole
 * by itself), and a reader such as `head -n1` gets it at once. */
static int write_whole(FILE *out, const char *text, size_t n)
{
    int fd = fileno(out), rc = 0;
    if (fd < 0)
        return fwrite(text, 1, n, out) == n ? 0 : -1;
    if (fflush(out) != 0)
        return -1;
    lock_whole(fd, 1);
    while (n > 0) {
        ssize_t w = write(fd, text, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            rc = -1;
            break;
        }
        text += w;
        n -= (size_t)w;
    }
    int saved = errno;
    lock_whole(fd, 0);
    errno = saved;
    return rc;
}

static int ndjson_job(struct od_renderer *r, const struct od_report *rep)
{
    cJSON *job = job_json(rep, r->opts.trace);
    if (job == NULL)
        return -1;
    add_int(job, "schema_version", 1);
    cJSON_AddStringToObject(job, "lang", r->opts.lang ? r->opts.lang : "en");
    char *text = cJSON_PrintUnformatted(job);
    cJSON_Delete(job);
    if (text == NULL)
        return -1;
    size_t n = strlen(text);
    char *line = realloc(text, n + 2);
    if (line == NULL) {
        cJSON_free(text);
        return -1;
    }
    line[n] = '\n';
    line[n + 1] = '\0';
    int rc = write_whole(r->out, line, n + 1);
    free(line);
    return rc;
}

static void *json_create(const struct od_renderer *r)
{
    (void)r;
    return cJSON_CreateArray();
}

static int json_job(struct od_renderer *r, const struct od_report *rep)
{
    cJSON *job = job_json(rep, r->opts.trace);
    if (job == NULL)
        return -1;
    cJSON_AddItemToArray(r->state, job);
    return 0;
}

static int json_finish(struct od_renderer *r)
{
    cJSON *doc = cJSON_CreateObject();
    if (doc == NULL)
        return -1;
    add_int(doc, "schema_version", 1);
    cJSON *tool = cJSON_AddObjectToObject(doc, "tool");
    cJSON_AddStringToObject(tool, "name", "oomdiag");
    cJSON_AddStringToObject(tool, "version", od_version());
    if (r->opts.rules_version)
        cJSON_AddStringToObject(tool, "rules_version", r->opts.rules_version);
    cJSON_AddStringToObject(doc, "lang", r->opts.lang ? r->opts.lang : "en");
    cJSON_AddItemToObject(doc, "jobs", r->state);
    r->state = NULL; /* the document owns it now */
    int rc = print_json(r->out, doc, 1);
    cJSON_Delete(doc);
    return rc;
}

static void json_free(void *state)
{
    cJSON_Delete(state);
}

const struct render_format render_json_format = {"json", OD_FMT_JSON, json_create, json_job, json_finish, json_free};
const struct render_format render_ndjson_format = {"ndjson", OD_FMT_NDJSON, NULL, ndjson_job, NULL, NULL};
