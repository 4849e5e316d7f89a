#include "ruleset.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "builtin_rules.h"
#include "grow.h"
#include "jsonloc.h"
#include "prefilter.h"
#include "rulefile.h"
#include "translate.h"

enum { MAX_RULE_FILE_BYTES = 16 * 1024 * 1024 };

struct od_ruleset *od_ruleset_create(od_msg_fn fn, void *ctx)
{
    struct od_ruleset *rs = calloc(1, sizeof *rs);
    if (rs == NULL)
        return NULL;
    rs->msgs.fn = fn;
    rs->msgs.ctx = ctx;
    return rs;
}

void od_ruleset_keep_samples(struct od_ruleset *rs, int keep)
{
    rs->skip_samples = !keep;
}

const char *ruleset_intern_file(struct od_ruleset *rs, const char *name)
{
    for (size_t i = 0; i < rs->file_count; i++)
        if (strcmp(rs->files[i], name) == 0)
            return rs->files[i];
    char **grown = grow(rs->files, &rs->file_cap, rs->file_count, sizeof *rs->files, 16);
    if (grown == NULL)
        return NULL;
    rs->files = grown;
    char *copy = strdup(name);
    if (copy != NULL)
        rs->files[rs->file_count++] = copy;
    return copy;
}

int ruleset_keep_text(struct od_ruleset *rs, char *text)
{
    char **grown = grow(rs->texts, &rs->text_cap, rs->text_count, sizeof *rs->texts, 16);
    if (grown == NULL)
        return -1;
    rs->texts = grown;
    rs->texts[rs->text_count++] = text;
    return 0;
}

void origin_locate(const struct origin *o, unsigned long *line, unsigned long *col)
{
    struct jsonloc loc;
    *line = 0;
    *col = 0;
    if (o->text == NULL || o->path == NULL || jsonloc_init(&loc, o->text, o->len) != 0)
        return;
    jsonloc_position(&loc, jsonloc_find(&loc, o->path), line, col);
    jsonloc_free(&loc);
}

void origin_report(struct msg_sink *sink, enum od_severity sev, const struct origin *o, const char *source,
                   size_t caret, const char *fmt, ...)
{
    char text[1024];
    unsigned long line, col;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    origin_locate(o, &line, &col);
    msg_report(sink, sev, o->file, line, col, source, caret, "%s", text);
}

static size_t id_hash(const char *s)
{
    size_t h = 2166136261u;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 16777619u;
    return h;
}

static void *index_get(const struct id_index *ix, const char *key)
{
    if (ix->cap == 0 || key == NULL)
        return NULL;
    for (size_t i = id_hash(key) & (ix->cap - 1);; i = (i + 1) & (ix->cap - 1)) {
        if (ix->keys[i] == NULL)
            return NULL;
        if (strcmp(ix->keys[i], key) == 0)
            return ix->values[i];
    }
}

/* Adds KEY (borrowed: it must outlive the index). 0 or -1. */
static int index_put(struct id_index *ix, const char *key, void *value)
{
    if (2 * (ix->count + 1) > ix->cap) {
        struct id_index big = {NULL, NULL, ix->cap ? ix->cap * 2 : 64, 0};
        big.keys = calloc(big.cap, sizeof *big.keys);
        big.values = calloc(big.cap, sizeof *big.values);
        if (big.keys == NULL || big.values == NULL) {
            free(big.keys);
            free(big.values);
            return -1;
        }
        for (size_t i = 0; i < ix->cap; i++)
            if (ix->keys[i] != NULL)
                index_put(&big, ix->keys[i], ix->values[i]);
        free(ix->keys);
        free(ix->values);
        *ix = big;
    }
    size_t i = id_hash(key) & (ix->cap - 1);
    while (ix->keys[i] != NULL)
        i = (i + 1) & (ix->cap - 1);
    ix->keys[i] = key;
    ix->values[i] = value;
    ix->count++;
    return 0;
}

static void index_free(struct id_index *ix)
{
    free(ix->keys);
    free(ix->values);
}

int ruleset_add_sig(struct od_ruleset *rs, struct sig *s)
{
    struct sig **grown = grow(rs->sigs, &rs->sig_cap, rs->sig_count, sizeof *rs->sigs, 16);
    if (grown == NULL)
        return -1;
    rs->sigs = grown;
    if (index_put(&rs->sig_ids, s->id, s) != 0)
        return -1;
    s->index = rs->sig_count;
    rs->sigs[rs->sig_count++] = s;
    return 0;
}

int ruleset_add_cause(struct od_ruleset *rs, struct cause *c)
{
    struct cause **grown = grow(rs->causes, &rs->cause_cap, rs->cause_count, sizeof *rs->causes, 16);
    if (grown == NULL)
        return -1;
    rs->causes = grown;
    if (index_put(&rs->cause_ids, c->id, c) != 0)
        return -1;
    rs->causes[rs->cause_count++] = c;
    return 0;
}

int ruleset_add_rank(struct od_ruleset *rs, struct rank_source *r)
{
    struct rank_source **grown = grow(rs->ranks, &rs->rank_cap, rs->rank_count, sizeof *rs->ranks, 16);
    if (grown == NULL)
        return -1;
    rs->ranks = grown;
    rs->ranks[rs->rank_count++] = r;
    return 0;
}

int ruleset_add_dtype(struct od_ruleset *rs, const char *name, long long size)
{
    for (size_t i = 0; i < rs->dtype_count; i++)
        if (strcmp(rs->dtypes[i].name, name) == 0) {
            rs->dtypes[i].size = size;
            return 0;
        }
    struct dtype *grown = grow(rs->dtypes, &rs->dtype_cap, rs->dtype_count, sizeof *rs->dtypes, 16);
    if (grown == NULL)
        return -1;
    rs->dtypes = grown;
    rs->dtypes[rs->dtype_count].name = strdup(name);
    if (rs->dtypes[rs->dtype_count].name == NULL)
        return -1;
    rs->dtypes[rs->dtype_count++].size = size;
    return 0;
}

const struct cause *ruleset_cause(const struct od_ruleset *rs, const char *id)
{
    return index_get(&rs->cause_ids, id);
}

const struct sig *ruleset_sig(const struct od_ruleset *rs, const char *id)
{
    return index_get(&rs->sig_ids, id);
}

long long ruleset_dtype_size(const struct od_ruleset *rs, const char *name)
{
    for (size_t i = 0; i < rs->dtype_count; i++)
        if (strcmp(rs->dtypes[i].name, name) == 0)
            return rs->dtypes[i].size;
    return -1;
}

int sig_compile(struct sig *s, struct msg_sink *sink)
{
    char err[256];
    size_t off = 0;
    if (s->rx != NULL)
        return 0;
    if (s->compile_failed)
        return -1;
    s->rx = rx_compile(s->pattern, s->caseless, err, sizeof err, &off);
    if (s->rx != NULL)
        return 0;
    s->compile_failed = 1;
    origin_report(sink, OD_SEV_ERROR, &s->pattern_at, s->pattern, off, "signature \"%s\": %s", s->id, err);
    return -1;
}

int od_ruleset_add_buffer(struct od_ruleset *rs, const char *name, const char *text, size_t len)
{
    char *copy = malloc(len + 1);
    if (copy == NULL) {
        msg_error(&rs->msgs, name, "out of memory");
        return -1;
    }
    memcpy(copy, text, len);
    copy[len] = '\0';
    if (ruleset_keep_text(rs, copy) != 0) {
        free(copy);
        msg_error(&rs->msgs, name, "out of memory");
        return -1;
    }
    return rulefile_load(rs, name, copy, len);
}

int od_ruleset_add_builtin(struct od_ruleset *rs)
{
    int rc = 0;
    rs->loading_builtin = 1;
    for (size_t i = 0; i < builtin_rule_count; i++) {
        const struct builtin_rule *b = &builtin_rules[i];
        /* Without samples the lean copy serves (its line numbers are not
         * the file's, but the embedded rules are checked as files). */
        const unsigned char *text = rs->skip_samples ? b->lean : b->data;
        size_t len = rs->skip_samples ? b->lean_len : b->len;
        if (rulefile_load(rs, b->name, (const char *)text, len) != 0)
            rc = -1;
    }
    rs->loading_builtin = 0;
    return rc;
}

/* Is TEXT (LEN bytes) one of the rule files' texts loaded already? */
static int loaded_already(const struct od_ruleset *rs, const unsigned char *text, size_t len)
{
    for (size_t i = 0; i < rs->text_count; i++)
        if (strlen(rs->texts[i]) == len && memcmp(rs->texts[i], text, len) == 0)
            return 1;
    return 0;
}

int od_ruleset_add_builtin_context(struct od_ruleset *rs)
{
    int rc = 0, keep = rs->skip_samples;
    rs->loading_builtin = 1;
    rs->builtin_context = 1;
    rs->skip_samples = 1;
    for (size_t i = 0; i < builtin_rule_count; i++) {
        const struct builtin_rule *b = &builtin_rules[i];
        if (loaded_already(rs, b->data, b->len))
            continue;
        if (rulefile_load(rs, b->name, (const char *)b->lean, b->lean_len) != 0)
            rc = -1;
    }
    rs->skip_samples = keep;
    rs->builtin_context = 0;
    rs->loading_builtin = 0;
    return rc;
}

static int add_file(struct od_ruleset *rs, const char *path)
{
    int fd = open(path, O_RDONLY);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) {
        msg_error(&rs->msgs, path, "cannot read rule file: %s", strerror(errno));
        if (fd >= 0)
            close(fd);
        return -1;
    }
    if (S_ISREG(st.st_mode) && st.st_size > MAX_RULE_FILE_BYTES) {
        msg_error(&rs->msgs, path, "rule file is larger than %d MiB", MAX_RULE_FILE_BYTES >> 20);
        close(fd);
        return -1;
    }
    /* Read to the end, not st_size bytes: a pipe (-r /dev/stdin, -r <(...))
     * has no size.  One byte past the limit tells one that is over it. */
    size_t cap = S_ISREG(st.st_mode) ? (size_t)st.st_size + 1 : 65536, got = 0;
    char *text = malloc(cap + 1);
    ssize_t n = 0;
    while (text != NULL && got <= MAX_RULE_FILE_BYTES) {
        if (got == cap) {
            size_t bigger = cap * 2 < MAX_RULE_FILE_BYTES + 1 ? cap * 2 : MAX_RULE_FILE_BYTES + 1;
            char *p = realloc(text, bigger + 1);
            if (p == NULL) {
                free(text);
                text = NULL;
                break;
            }
            text = p;
            cap = bigger;
        }
        n = read(fd, text + got, cap - got);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        got += (size_t)n;
    }
    if (text == NULL || n < 0 || got > MAX_RULE_FILE_BYTES) {
        if (text == NULL)
            msg_error(&rs->msgs, path, "out of memory");
        else if (n < 0)
            msg_error(&rs->msgs, path, "cannot read rule file: %s", strerror(errno));
        else
            msg_error(&rs->msgs, path, "rule file is larger than %d MiB", MAX_RULE_FILE_BYTES >> 20);
        free(text);
        close(fd);
        return -1;
    }
    close(fd);
    text[got] = '\0';
    int saved = rs->eager_compile;
    rs->eager_compile = 1;
    int rc = rulefile_load(rs, path, text, got);
    rs->eager_compile = saved;
    if (ruleset_keep_text(rs, text) != 0)
        free(text); /* messages then lose their line numbers, nothing else */
    return rc;
}

static int has_json_suffix(const char *name)
{
    size_t n = strlen(name);
    return n > 5 && strcmp(name + n - 5, ".json") == 0;
}

int od_ruleset_add_path(struct od_ruleset *rs, const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        msg_error(&rs->msgs, path, "cannot read rules: %s", strerror(errno));
        return -1;
    }
    if (!S_ISDIR(st.st_mode))
        return add_file(rs, path);
    struct dirent **names = NULL;
    int n = scandir(path, &names, NULL, alphasort), rc = 0, found = 0;
    if (n < 0) {
        msg_error(&rs->msgs, path, "cannot read rule directory: %s", strerror(errno));
        return -1;
    }
    for (int i = 0; i < n; i++) {
        if (has_json_suffix(names[i]->d_name)) {
            char full[4096];
            snprintf(full, sizeof full, "%s/%s", path, names[i]->d_name);
            found++;
            if (add_file(rs, full) != 0)
                rc = -1;
        }
        free(names[i]);
    }
    free(names);
    if (!found)
        msg_warn(&rs->msgs, path, "no *.json rule files in this directory");
    return rc;
}

/* The prefilter of every signature's literals (prefilter.c takes them as
 * a plain array, and knows nothing of signatures). */
static struct prefilter *build_prefilter(const struct od_ruleset *rs)
{
    size_t n = 0, k = 0;
    for (size_t i = 0; i < rs->sig_count; i++)
        n += rs->sigs[i]->literal_count;
    struct prefilter_literal *lits = malloc((n ? n : 1) * sizeof *lits);
    if (lits == NULL)
        return NULL;
    for (size_t i = 0; i < rs->sig_count; i++)
        for (size_t l = 0; l < rs->sigs[i]->literal_count; l++)
            lits[k++] = (struct prefilter_literal){(uint32_t)i, rs->sigs[i]->literals[l], rs->sigs[i]->caseless};
    struct prefilter *pf = prefilter_build(lits, n, rs->sig_count);
    free(lits);
    return pf;
}

int od_ruleset_finish(struct od_ruleset *rs)
{
    unsigned errors = rs->msgs.errors;
    for (size_t i = 0; i < rs->sig_count; i++) {
        struct sig *s = rs->sigs[i];
        if (s->cause_id == NULL)
            continue;
        s->cause = ruleset_cause(rs, s->cause_id);
        if (s->cause == NULL)
            origin_report(&rs->msgs, OD_SEV_ERROR, &s->at, NULL, 0,
                          "signature \"%s\": unknown cause \"%s\" (define it in a \"causes\" entry)", s->id,
                          s->cause_id);
    }
    if (rs->msgs.errors != errors)
        return -1;
    prefilter_free(rs->prefilter);
    rs->prefilter = build_prefilter(rs);
    if (rs->prefilter == NULL) {
        msg_error(&rs->msgs, NULL, "out of memory");
        return -1;
    }
    rs->finished = 1;
    return 0;
}

const char *od_ruleset_version(const struct od_ruleset *rs)
{
    return rs->version ? rs->version : "none";
}

static void free_samples(struct sample *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(s[i].at.path);
        free(s[i].line);
        cJSON_Delete(s[i].fields);
    }
    free(s);
}

void sig_free(struct sig *s)
{
    if (s == NULL)
        return;
    free(s->at.path);
    free(s->pattern_at.path);
    free(s->id);
    free(s->cause_id);
    free(s->framework);
    for (size_t i = 0; i < s->literal_count; i++)
        free(s->literals[i]);
    free(s->literals);
    free(s->pattern);
    rx_free(s->rx);
    free_samples(s->samples, s->sample_count);
    free_samples(s->no_match, s->no_match_count);
    free(s);
}

static void free_summaries(struct summary *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        expr_free(s[i].when);
        free(s[i].text);
        free(s[i].when_text);
        free(s[i].at.path);
    }
    free(s);
}

void cause_free(struct cause *c)
{
    if (c == NULL)
        return;
    free(c->at.path);
    free(c->id);
    free(c->title);
    free(c->explanation);
    free_summaries(c->summaries, c->summary_count);
    for (size_t i = 0; i < c->step_count; i++) {
        struct step *st = &c->steps[i];
        free(st->id);
        free(st->action);
        free(st->detail);
        expr_free(st->when);
        expr_free(st->first_when);
        free(st->when_text);
        free(st->first_when_text);
    }
    free(c->steps);
    for (size_t i = 0; i < c->variant_count; i++) {
        struct variant *v = &c->variants[i];
        free(v->id);
        free(v->title);
        expr_free(v->when);
        free(v->when_text);
        for (size_t k = 0; k < v->first_count; k++)
            free(v->first[k]);
        free(v->first);
        free_summaries(v->summaries, v->summary_count);
    }
    free(c->variants);
    free(c);
}

void rank_source_free(struct rank_source *r)
{
    if (r == NULL)
        return;
    free(r->at.path);
    free(r->id);
    free(r->pattern);
    rx_free(r->rx);
    free_samples(r->samples, r->sample_count);
    free(r);
}

void od_ruleset_free(struct od_ruleset *rs)
{
    if (rs == NULL)
        return;
    for (size_t i = 0; i < rs->sig_count; i++)
        sig_free(rs->sigs[i]);
    free(rs->sigs);
    index_free(&rs->sig_ids);
    index_free(&rs->cause_ids);
    for (size_t i = 0; i < rs->cause_count; i++)
        cause_free(rs->causes[i]);
    free(rs->causes);
    for (size_t i = 0; i < rs->rank_count; i++)
        rank_source_free(rs->ranks[i]);
    free(rs->ranks);
    for (size_t i = 0; i < rs->dtype_count; i++)
        free(rs->dtypes[i].name);
    free(rs->dtypes);
    for (size_t i = 0; i < rs->file_count; i++)
        free(rs->files[i]);
    free(rs->files);
    for (size_t i = 0; i < rs->text_count; i++)
        free(rs->texts[i]);
    free(rs->texts);
    free(rs->version);
    prefilter_free(rs->prefilter);
    translate_free(rs);
    free(rs);
}
