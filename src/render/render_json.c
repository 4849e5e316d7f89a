/* JSON and NDJSON: the document of schema_version 1 (docs/oomdiag.schema.json),
 * written as it goes (no tree is built), byte for byte as cJSON's printer
 * lays it out (tests/unit/test_render.c checks that); NDJSON records
 * written whole, one per job.  The JSON format's state is the text of the
 * document's jobs array, written out at the end; NDJSON's is the buffer it
 * builds each record in. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "render_util.h"

/* The most text one record, or the JSON document's jobs, may take; past
 * it the job fails as a write error would. */
enum { JSON_MAX_TEXT = 1024 * 1024 * 1024, JSON_MAX_DEPTH = 16 };

/* A writer of JSON text into a buffer, as cJSON prints it: formatted, an
 * object's members one a line indented with tabs ("key":<TAB>value), an
 * array's elements on one line separated by ", "; else no space at all.
 * Strings escape '"', '\\' and control characters, nothing else. */
struct jw {
    struct buf *out;
    int format;
    unsigned depth;                      /* open containers */
    unsigned char count[JSON_MAX_DEPTH]; /* count[d]: container d has members (saturating) */
    char kind[JSON_MAX_DEPTH];           /* '{' or '[' */
    int failed;
};

static void jw_raw(struct jw *w, const char *s, size_t n)
{
    if (!w->failed && buf_add(w->out, s, n) != 0)
        w->failed = 1;
}

static void jw_tabs(struct jw *w, unsigned n)
{
    static const char tabs[] = "\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t";
    jw_raw(w, tabs, n < sizeof tabs - 1 ? n : sizeof tabs - 1);
}

/* The bytes a JSON string cannot hold as they are: controls, '"', '\\'
 * (and the NUL that ends the text). */
#define JW_1X8 1, 1, 1, 1, 1, 1, 1, 1
static const unsigned char jw_special[256] = {JW_1X8, JW_1X8, JW_1X8, JW_1X8, ['"'] = 1, ['\\'] = 1};
#undef JW_1X8

static void jw_string(struct jw *w, const char *s)
{
    jw_raw(w, "\"", 1);
    const unsigned char *p = (const unsigned char *)s;
    for (;;) {
        const unsigned char *run = p;
        while (!jw_special[*p])
            p++;
        jw_raw(w, (const char *)run, (size_t)(p - run));
        unsigned char c = *p;
        if (c == '\0')
            break;
        char esc[8] = {'\\', (char)c};
        size_t n = 2;
        switch (c) {
        case '"':
        case '\\': break;
        case '\b': esc[1] = 'b'; break;
        case '\f': esc[1] = 'f'; break;
        case '\n': esc[1] = 'n'; break;
        case '\r': esc[1] = 'r'; break;
        case '\t': esc[1] = 't'; break;
        default: n = (size_t)snprintf(esc, sizeof esc, "\\u%04x", c); break;
        }
        jw_raw(w, esc, n);
        p++;
    }
    jw_raw(w, "\"", 1);
}

/* Starts the next member: KEY (in an object) or an element (KEY NULL). */
static void jw_next(struct jw *w, const char *key)
{
    unsigned d = w->depth;
    if (d == 0)
        return;
    int object = w->kind[d - 1] == '{';
    if (w->count[d - 1] && !w->format)
        jw_raw(w, ",", 1);
    else if (w->count[d - 1])
        jw_raw(w, object ? ",\n" : ", ", 2);
    w->count[d - 1] = 1;
    if (!object)
        return;
    if (w->format)
        jw_tabs(w, d);
    jw_string(w, key);
    jw_raw(w, ":\t", w->format ? 2 : 1);
}

static void jw_open(struct jw *w, const char *key, char kind)
{
    jw_next(w, key);
    if (w->depth >= JSON_MAX_DEPTH) {
        w->failed = 1;
        return;
    }
    w->kind[w->depth] = kind;
    w->count[w->depth++] = 0;
    jw_raw(w, kind == '{' ? "{\n" : "[", kind == '{' && w->format ? 2 : 1);
}

static void jw_close(struct jw *w)
{
    if (w->depth == 0)
        return;
    unsigned d = w->depth--;
    if (w->kind[d - 1] == '[') {
        jw_raw(w, "]", 1);
        return;
    }
    if (w->format) {
        if (w->count[d - 1])
            jw_raw(w, "\n", 1);
        jw_tabs(w, d - 1);
    }
    jw_raw(w, "}", 1);
}

/* A member whose value is the string S; none where S is NULL (as cJSON
 * leaves out a string it cannot copy). */
static void jw_str(struct jw *w, const char *key, const char *s)
{
    if (s == NULL)
        return;
    jw_next(w, key);
    jw_string(w, s);
}

/* Integers are written exactly, for every 64-bit value. */
static void jw_int(struct jw *w, const char *key, long long v)
{
    char num[24], *p = num + sizeof num;
    unsigned long long u = v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v;
    do
        *--p = (char)('0' + u % 10);
    while ((u /= 10) > 0);
    if (v < 0)
        *--p = '-';
    jw_next(w, key);
    jw_raw(w, p, (size_t)(num + sizeof num - p));
}

static void jw_null(struct jw *w, const char *key)
{
    jw_next(w, key);
    jw_raw(w, "null", 4);
}

static void fields_json(struct jw *w, const char *key, const struct od_fields *f)
{
    jw_open(w, key, '{');
    for (size_t i = 0; i < f->count; i++) {
        const struct od_field *fd = &f->items[i];
        if (fd->type == OD_FIELD_STRING)
            jw_str(w, fd->name, fd->str);
        else
            jw_int(w, fd->name, fd->num);
    }
    jw_close(w);
}

/* A compact record's evidence text: cut at OD_COMPACT_TEXT bytes on a
 * character boundary, with an ellipsis. */
static void jw_text_cut(struct jw *w, const char *key, const char *s)
{
    size_t n = s ? strlen(s) : 0;
    if (n <= OD_COMPACT_TEXT) {
        jw_str(w, key, s);
        return;
    }
    char buf[OD_COMPACT_TEXT + 4];
    n = OD_COMPACT_TEXT;
    while (n > 0 && ((unsigned char)s[n] & 0xc0) == 0x80)
        n--;
    memcpy(buf, s, n);
    memcpy(buf + n, "\xe2\x80\xa6", 4);
    jw_str(w, key, buf);
}

static void evidence_json(struct jw *w, const struct od_diagnosis *d, int compact)
{
    static const struct od_fields none = {0};
    jw_open(w, "evidence", '[');
    for (size_t i = 0; i < d->evidence_count && (!compact || i < OD_COMPACT_EVIDENCE); i++) {
        const struct od_evidence *e = &d->evidence[i];
        jw_open(w, NULL, '{');
        jw_str(w, "path", e->path);
        jw_int(w, "line", (long long)e->line);
        jw_str(w, "rule", e->rule);
        if (e->rank >= 0)
            jw_int(w, "rank", e->rank);
        if (compact)
            jw_text_cut(w, "text", e->text);
        else
            jw_str(w, "text", e->text);
        fields_json(w, "fields", compact ? &none : e->fields);
        jw_close(w);
    }
    jw_close(w);
}

static void diagnosis_json(struct jw *w, const struct od_diagnosis *d, int with_trace, int compact)
{
    jw_open(w, NULL, '{');
    jw_str(w, "cause", d->cause);
    if (d->variant)
        jw_str(w, "variant", d->variant);
    else
        jw_null(w, "variant");
    jw_str(w, "role", od_role_name(d->role));
    jw_str(w, "title", d->title);
    jw_str(w, "summary", d->summary ? d->summary : d->title);
    jw_str(w, "confidence", od_confidence_name(d->confidence));
    if (d->decision != OD_DECISION_NONE)
        jw_str(w, "decision", od_decision_name(d->decision));
    if (d->framework)
        jw_str(w, "framework", d->framework);
    else
        jw_null(w, "framework");
    jw_open(w, "ranks", '[');
    for (size_t i = 0; i < d->rank_count; i++)
        jw_int(w, NULL, d->ranks[i]);
    jw_close(w);
    if (d->last_step >= 0)
        jw_int(w, "last_step", d->last_step);
    else
        jw_null(w, "last_step");
    if (d->consequence_of >= 0)
        jw_int(w, "consequence_of", d->consequence_of);
    jw_int(w, "match_count", (long long)d->match_count);
    fields_json(w, "fields", &d->fields);
    evidence_json(w, d, compact);
    jw_open(w, "remediation", '[');
    for (size_t i = 0; i < d->step_count && (!compact || i < 1); i++) {
        jw_open(w, NULL, '{');
        jw_int(w, "rank", (long long)(i + 1));
        jw_str(w, "id", d->steps[i].id);
        jw_str(w, "action", d->steps[i].action);
        if (d->steps[i].detail && !compact)
            jw_str(w, "detail", d->steps[i].detail);
        else
            jw_null(w, "detail");
        jw_close(w);
    }
    jw_close(w);
    if (with_trace) {
        jw_open(w, "trace", '[');
        for (size_t i = 0; i < d->trace_count; i++)
            jw_str(w, NULL, d->trace[i]);
        jw_close(w);
    }
    jw_close(w);
}

/* Writes REP's job object, its members but the closing brace (NDJSON adds
 * two more). */
static void job_json_open(struct jw *w, const struct od_report *rep, int with_trace, int compact)
{
    jw_open(w, NULL, '{');
    if (rep->name != NULL)
        jw_str(w, "name", rep->name);
    jw_open(w, "inputs", '[');
    for (size_t i = 0; i < rep->input_count; i++) {
        const struct od_input_info *in = &rep->inputs[i];
        jw_open(w, NULL, '{');
        jw_str(w, "path", in->path);
        jw_int(w, "lines", (long long)in->lines);
        jw_int(w, "bytes", (long long)in->bytes);
        if (in->rank >= 0)
            jw_int(w, "rank", in->rank);
        if (in->error_kind != NULL) {
            jw_open(w, "error", '{');
            jw_str(w, "kind", in->error_kind);
            jw_str(w, "message", in->error_message ? in->error_message : "");
            jw_close(w);
        }
        jw_close(w);
    }
    jw_close(w);
    jw_open(w, "diagnoses", '[');
    for (size_t i = 0; i < rep->count; i++)
        diagnosis_json(w, &rep->diagnoses[i], with_trace, compact);
    jw_close(w);
    if (with_trace && rep->count == 0 && rep->near_miss_count > 0) {
        jw_open(w, "near_misses", '[');
        for (size_t i = 0; i < rep->near_miss_count; i++) {
            const struct od_near_miss *nm = &rep->near_misses[i];
            jw_open(w, NULL, '{');
            jw_str(w, "rule", nm->rule);
            jw_str(w, "cause", nm->cause ? nm->cause : "");
            jw_str(w, "path", nm->path);
            jw_int(w, "line", (long long)nm->line);
            jw_int(w, "count", (long long)nm->count);
            jw_str(w, "text", nm->text);
            jw_close(w);
        }
        jw_close(w);
    }
    if (rep->limit_hit_count > 0) {
        jw_open(w, "limit_hits", '[');
        for (size_t i = 0; i < rep->limit_hit_count; i++) {
            const struct od_near_miss *lh = &rep->limit_hits[i];
            jw_open(w, NULL, '{');
            jw_str(w, "rule", lh->rule);
            jw_str(w, "path", lh->path);
            jw_int(w, "line", (long long)lh->line);
            jw_int(w, "count", (long long)lh->count);
            jw_close(w);
        }
        jw_close(w);
    }
    if (rep->count == 0 && rep->last_error.path != NULL) {
        jw_open(w, "last_error", '{');
        jw_str(w, "path", rep->last_error.path);
        jw_int(w, "line", (long long)rep->last_error.line);
        jw_str(w, "text", rep->last_error.text);
        jw_close(w);
    }
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

static void *ndjson_create(const struct od_renderer *r)
{
    (void)r;
    struct buf *b = malloc(sizeof *b);
    if (b != NULL)
        buf_init(b, JSON_MAX_TEXT);
    return b;
}

static void buf_state_free(void *state)
{
    if (state != NULL)
        buf_free(state);
    free(state);
}

static int ndjson_job(struct od_renderer *r, const struct od_report *rep)
{
    struct buf *b = r->state;
    struct jw w = {b, 0, 0, {0}, {0}, 0};
    b->len = 0; /* the record before is written: its room is reused */
    job_json_open(&w, rep, r->opts.trace, r->compact);
    jw_int(&w, "schema_version", 1);
    jw_str(&w, "lang", r->opts.lang ? r->opts.lang : "en");
    jw_close(&w);
    jw_raw(&w, "\n", 1);
    if (w.failed)
        return -1;
    return write_whole(r->out, b->data, b->len);
}

/* The JSON format's state: the jobs array's text so far, written as the
 * array's elements at depth 2 of the document. */
struct json_state {
    struct buf jobs;
    size_t count;
};

static void *json_create(const struct od_renderer *r)
{
    (void)r;
    struct json_state *st = calloc(1, sizeof *st);
    if (st != NULL)
        buf_init(&st->jobs, JSON_MAX_TEXT);
    return st;
}

static void json_free(void *state)
{
    struct json_state *st = state;
    if (st != NULL)
        buf_free(&st->jobs);
    free(st);
}

static int json_job(struct od_renderer *r, const struct od_report *rep)
{
    struct json_state *st = r->state;
    /* Inside the document's object and its "jobs" array. */
    struct jw w = {&st->jobs, 1, 2, {1, st->count > 0}, {'{', '['}, 0};
    size_t len = st->jobs.len;
    job_json_open(&w, rep, r->opts.trace, r->compact);
    jw_close(&w);
    if (w.failed) {
        st->jobs.len = len; /* drop the part written */
        if (st->jobs.data != NULL)
            st->jobs.data[len] = '\0';
        return -1;
    }
    st->count++;
    return 0;
}

static int json_finish(struct od_renderer *r)
{
    struct json_state *st = r->state;
    struct buf head;
    buf_init(&head, JSON_MAX_TEXT);
    struct jw w = {&head, 1, 0, {0}, {0}, 0};
    jw_open(&w, NULL, '{');
    jw_int(&w, "schema_version", 1);
    jw_open(&w, "tool", '{');
    jw_str(&w, "name", "oomdiag");
    jw_str(&w, "version", od_version());
    if (r->opts.rules_version)
        jw_str(&w, "rules_version", r->opts.rules_version);
    jw_close(&w);
    jw_str(&w, "lang", r->opts.lang ? r->opts.lang : "en");
    jw_open(&w, "jobs", '[');
    int rc = w.failed ? -1 : 0;
    if (rc == 0) {
        fwrite(head.data, 1, head.len, r->out);
        if (st->jobs.len > 0)
            fwrite(st->jobs.data, 1, st->jobs.len, r->out);
        fputs("]\n}\n", r->out);
        rc = ferror(r->out) ? -1 : 0;
    }
    buf_free(&head);
    return rc;
}

const struct render_format render_json_format = {"json", OD_FMT_JSON, json_create, json_job, json_finish, json_free};
const struct render_format render_ndjson_format = {"ndjson",   OD_FMT_NDJSON, ndjson_create,
                                                   ndjson_job, NULL,          buf_state_free};
