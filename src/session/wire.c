#include "wire.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ---- writing ---- */

static void put_u(FILE *out, uint64_t v)
{
    fwrite(&v, sizeof v, 1, out);
}

static void put_i(FILE *out, long long v)
{
    put_u(out, (uint64_t)v);
}

/* A string as its length and bytes; NULL as the length UINT64_MAX. */
static void put_s(FILE *out, const char *s)
{
    if (s == NULL) {
        put_u(out, UINT64_MAX);
        return;
    }
    size_t n = strlen(s);
    put_u(out, n);
    fwrite(s, 1, n, out);
}

static void put_fields(FILE *out, const struct od_fields *f)
{
    put_u(out, f->count);
    for (size_t i = 0; i < f->count; i++) {
        put_s(out, f->items[i].name);
        put_u(out, (uint64_t)f->items[i].type);
        put_i(out, f->items[i].num);
        put_s(out, f->items[i].str);
    }
}

static void put_evidence(FILE *out, const struct od_evidence *e)
{
    put_s(out, e->path);
    put_u(out, e->line);
    put_s(out, e->rule);
    put_s(out, e->text);
    put_i(out, e->rank);
    put_u(out, e->fields != NULL);
    if (e->fields != NULL)
        put_fields(out, e->fields);
}

static void put_diagnosis(FILE *out, const struct od_diagnosis *d)
{
    put_s(out, d->cause);
    put_s(out, d->variant);
    put_u(out, (uint64_t)d->role);
    put_s(out, d->title);
    put_s(out, d->explanation);
    put_s(out, d->summary);
    put_u(out, (uint64_t)d->confidence);
    put_s(out, d->framework);
    put_u(out, d->evidence_count);
    for (size_t i = 0; i < d->evidence_count; i++)
        put_evidence(out, &d->evidence[i]);
    put_u(out, d->match_count);
    put_u(out, d->step_count);
    for (size_t i = 0; i < d->step_count; i++) {
        put_s(out, d->steps[i].id);
        put_s(out, d->steps[i].action);
        put_s(out, d->steps[i].detail);
    }
    put_u(out, d->rank_count);
    for (size_t i = 0; i < d->rank_count; i++)
        put_i(out, d->ranks[i]);
    put_i(out, d->last_step);
    put_i(out, d->consequence_of);
    put_i(out, d->decision);
    put_u(out, d->series_count);
    if (d->series_count > 0)
        fwrite(d->series, sizeof *d->series, d->series_count, out);
    put_i(out, d->series_percent);
    put_fields(out, &d->fields);
    put_u(out, d->trace_count);
    for (size_t i = 0; i < d->trace_count; i++)
        put_s(out, d->trace[i]);
}

static void put_misses(FILE *out, const struct od_near_miss *m, size_t n)
{
    put_u(out, n);
    for (size_t i = 0; i < n; i++) {
        put_s(out, m[i].rule);
        put_s(out, m[i].cause);
        put_s(out, m[i].path);
        put_u(out, m[i].line);
        put_u(out, m[i].count);
        put_s(out, m[i].text);
    }
}

int wire_write(FILE *out, const struct od_report *rep)
{
    put_s(out, rep->name);
    put_u(out, rep->input_count);
    for (size_t i = 0; i < rep->input_count; i++) {
        const struct od_input_info *in = &rep->inputs[i];
        put_s(out, in->path);
        put_u(out, in->lines);
        put_u(out, in->bytes);
        put_i(out, in->rank);
        put_i(out, in->error);
        put_s(out, in->error_kind);
        put_s(out, in->error_message);
    }
    put_u(out, rep->count);
    for (size_t i = 0; i < rep->count; i++)
        put_diagnosis(out, &rep->diagnoses[i]);
    put_s(out, rep->last_error.path);
    put_u(out, rep->last_error.line);
    put_s(out, rep->last_error.text);
    put_misses(out, rep->near_misses, rep->near_miss_count);
    put_misses(out, rep->limit_hits, rep->limit_hit_count);
    return ferror(out) ? -1 : 0;
}

/* ---- reading ---- */

struct wire_block {
    struct wire_block *next;
    max_align_t data[];
};

struct rd {
    const unsigned char *p, *end;
    int bad;
    struct wire_block **blocks;
};

/* N zeroed objects of SIZE bytes, freed with the report; NULL when N is 0
 * or memory ran out (then RD is bad). */
static void *take(struct rd *rd, uint64_t n, size_t size)
{
    if (n == 0 || rd->bad)
        return NULL;
    if (n > (uint64_t)(rd->end - rd->p) + 1 || n > SIZE_MAX / size - 64) {
        rd->bad = 1; /* more objects than bytes left: cut or corrupt */
        return NULL;
    }
    struct wire_block *b = calloc(1, sizeof *b + (size_t)n * size);
    if (b == NULL) {
        rd->bad = 1;
        return NULL;
    }
    b->next = *rd->blocks;
    *rd->blocks = b;
    return b->data;
}

static uint64_t get_u(struct rd *rd)
{
    uint64_t v = 0;
    if (rd->bad || (size_t)(rd->end - rd->p) < sizeof v) {
        rd->bad = 1;
        return 0;
    }
    memcpy(&v, rd->p, sizeof v);
    rd->p += sizeof v;
    return v;
}

static long long get_i(struct rd *rd)
{
    return (long long)get_u(rd);
}

static char *get_s(struct rd *rd)
{
    uint64_t n = get_u(rd);
    if (n == UINT64_MAX || rd->bad)
        return NULL;
    if (n > (uint64_t)(rd->end - rd->p)) {
        rd->bad = 1;
        return NULL;
    }
    char *s = take(rd, n + 1, 1);
    if (s != NULL) {
        memcpy(s, rd->p, (size_t)n);
        rd->p += n;
    }
    return s;
}

static void get_fields(struct rd *rd, struct od_fields *f)
{
    f->count = f->cap = (size_t)get_u(rd);
    f->items = take(rd, f->count, sizeof *f->items);
    for (size_t i = 0; i < f->count && !rd->bad; i++) {
        f->items[i].name = get_s(rd);
        f->items[i].type = (enum od_field_type)get_u(rd);
        f->items[i].num = get_i(rd);
        f->items[i].str = get_s(rd);
    }
}

static void get_evidence(struct rd *rd, struct od_evidence *e)
{
    e->path = get_s(rd);
    e->line = (unsigned long)get_u(rd);
    e->rule = get_s(rd);
    e->text = get_s(rd);
    e->rank = (int)get_i(rd);
    if (get_u(rd)) {
        struct od_fields *f = take(rd, 1, sizeof *f);
        if (f != NULL)
            get_fields(rd, f);
        e->fields = f;
    }
}

static void get_steps(struct rd *rd, struct od_diagnosis *d)
{
    d->step_count = (size_t)get_u(rd);
    d->steps = take(rd, d->step_count, sizeof *d->steps);
    for (size_t i = 0; i < d->step_count && !rd->bad; i++) {
        d->steps[i].id = get_s(rd);
        d->steps[i].action = get_s(rd);
        d->steps[i].detail = get_s(rd);
    }
}

static void get_diagnosis(struct rd *rd, struct od_diagnosis *d)
{
    d->cause = get_s(rd);
    d->variant = get_s(rd);
    d->role = (enum od_role)get_u(rd);
    d->title = get_s(rd);
    d->explanation = get_s(rd);
    d->summary = get_s(rd);
    d->confidence = (enum od_confidence)get_u(rd);
    d->framework = get_s(rd);
    d->evidence_count = (size_t)get_u(rd);
    d->evidence = take(rd, d->evidence_count, sizeof *d->evidence);
    for (size_t i = 0; i < d->evidence_count && !rd->bad; i++)
        get_evidence(rd, &d->evidence[i]);
    d->match_count = get_u(rd);
    get_steps(rd, d);
    d->rank_count = (size_t)get_u(rd);
    d->ranks = take(rd, d->rank_count, sizeof *d->ranks);
    for (size_t i = 0; i < d->rank_count && !rd->bad; i++)
        d->ranks[i] = (int)get_i(rd);
    d->last_step = get_i(rd);
    d->consequence_of = (int)get_i(rd);
    d->decision = (int)get_i(rd);
    d->series_count = (size_t)get_u(rd);
    d->series = take(rd, d->series_count, sizeof *d->series);
    if (d->series != NULL && (size_t)(rd->end - rd->p) / sizeof *d->series >= d->series_count) {
        memcpy(d->series, rd->p, d->series_count * sizeof *d->series);
        rd->p += d->series_count * sizeof *d->series;
    } else if (d->series_count > 0) {
        rd->bad = 1;
    }
    d->series_percent = (int)get_i(rd);
    get_fields(rd, &d->fields);
    d->trace_count = (size_t)get_u(rd);
    d->trace = take(rd, d->trace_count, sizeof *d->trace);
    for (size_t i = 0; i < d->trace_count && !rd->bad; i++)
        d->trace[i] = get_s(rd);
}

static struct od_near_miss *get_misses(struct rd *rd, size_t *n)
{
    *n = (size_t)get_u(rd);
    struct od_near_miss *m = take(rd, *n, sizeof *m);
    for (size_t i = 0; i < *n && !rd->bad; i++) {
        m[i].rule = get_s(rd);
        m[i].cause = get_s(rd);
        m[i].path = get_s(rd);
        m[i].line = get_u(rd);
        m[i].count = get_u(rd);
        m[i].text = get_s(rd);
    }
    return m;
}

static void get_inputs(struct rd *rd, struct od_report *rep)
{
    rep->input_count = (size_t)get_u(rd);
    rep->inputs = take(rd, rep->input_count, sizeof *rep->inputs);
    for (size_t i = 0; i < rep->input_count && !rd->bad; i++) {
        struct od_input_info *in = &rep->inputs[i];
        in->path = get_s(rd);
        in->lines = get_u(rd);
        in->bytes = get_u(rd);
        in->rank = (int)get_i(rd);
        in->error = (int)get_i(rd);
        in->error_kind = get_s(rd);
        in->error_message = get_s(rd);
    }
}

int wire_read(const void *data, size_t n, struct wire_report *w)
{
    memset(w, 0, sizeof *w);
    struct rd rd = {data, (const unsigned char *)data + n, 0, &w->blocks};
    struct od_report *rep = &w->rep;
    rep->name = get_s(&rd);
    get_inputs(&rd, rep);
    rep->count = (size_t)get_u(&rd);
    rep->diagnoses = take(&rd, rep->count, sizeof *rep->diagnoses);
    for (size_t i = 0; i < rep->count && !rd.bad; i++)
        get_diagnosis(&rd, &rep->diagnoses[i]);
    rep->last_error.path = get_s(&rd);
    rep->last_error.line = get_u(&rd);
    rep->last_error.text = get_s(&rd);
    rep->near_misses = get_misses(&rd, &rep->near_miss_count);
    rep->limit_hits = get_misses(&rd, &rep->limit_hit_count);
    if (rd.bad || rd.p != rd.end) {
        wire_free(w);
        return -1;
    }
    return 0;
}

void wire_free(struct wire_report *w)
{
    while (w->blocks != NULL) {
        struct wire_block *next = w->blocks->next;
        free(w->blocks);
        w->blocks = next;
    }
    memset(&w->rep, 0, sizeof w->rep);
}
