#include "ruleset.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "prefilter.h"

#define SIG_NO_FLAG(key)
#define SIG_FLAG_ROW(name) {#name, offsetof(struct sig, name)},
const struct sig_flag sig_flags[] = {SIG_KEYS(SIG_NO_FLAG, SIG_FLAG_ROW)};
const size_t sig_flag_count = sizeof sig_flags / sizeof sig_flags[0];
_Static_assert(sizeof sig_flags / sizeof sig_flags[0] <= 32, "the image keeps a signature's flags in 32 bits");

unsigned sig_flag_bits(const struct sig *s)
{
    unsigned bits = 0;
    for (size_t i = 0; i < sig_flag_count; i++)
        if (*(const int *)((const char *)s + sig_flags[i].offset))
            bits |= 1u << i;
    return bits;
}

void sig_set_flag_bits(struct sig *s, unsigned bits)
{
    for (size_t i = 0; i < sig_flag_count; i++)
        *(int *)((char *)s + sig_flags[i].offset) = (bits >> i) & 1u;
}

struct od_ruleset *od_ruleset_create(od_msg_fn fn, void *ctx)
{
    struct od_ruleset *rs = calloc(1, sizeof *rs);
    if (rs == NULL)
        return NULL;
    rs->msgs.fn = fn;
    rs->msgs.ctx = ctx;
    return rs;
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

static int index_insert(struct id_index *ix, const char *key, void *value);

/* Rehashes IX into CAP slots (a power of two, above its count). 0 or -1. */
static int index_resize(struct id_index *ix, size_t cap)
{
    struct id_index big = {NULL, NULL, cap, 0};
    big.keys = calloc(big.cap, sizeof *big.keys);
    big.values = calloc(big.cap, sizeof *big.values);
    if (big.keys == NULL || big.values == NULL) {
        free(big.keys);
        free(big.values);
        return -1;
    }
    for (size_t i = 0; i < ix->cap; i++)
        if (ix->keys[i] != NULL)
            index_insert(&big, ix->keys[i], ix->values[i]);
    free(ix->keys);
    free(ix->values);
    *ix = big;
    return 0;
}

/* Room for N keys in all without a rehash.  0 or -1. */
static int index_reserve(struct id_index *ix, size_t n)
{
    size_t cap = ix->cap ? ix->cap : 64;
    while (2 * n > cap)
        cap *= 2;
    return cap == ix->cap ? 0 : index_resize(ix, cap);
}

static int index_insert(struct id_index *ix, const char *key, void *value)
{
    size_t i = id_hash(key) & (ix->cap - 1);
    while (ix->keys[i] != NULL)
        i = (i + 1) & (ix->cap - 1);
    ix->keys[i] = key;
    ix->values[i] = value;
    ix->count++;
    return 0;
}

/* Adds KEY (borrowed: it must outlive the index). 0 or -1. */
static int index_put(struct id_index *ix, const char *key, void *value)
{
    if (2 * (ix->count + 1) > ix->cap && index_resize(ix, ix->cap ? ix->cap * 2 : 64) != 0)
        return -1;
    return index_insert(ix, key, value);
}

static void index_free(struct id_index *ix)
{
    free(ix->keys);
    free(ix->values);
}

int ruleset_reserve(struct od_ruleset *rs, size_t sigs, size_t causes)
{
    if (rs->sig_count + sigs > rs->sig_cap) {
        struct sig **p = realloc(rs->sigs, (rs->sig_count + sigs) * sizeof *p);
        if (p == NULL)
            return -1;
        rs->sigs = p;
        rs->sig_cap = rs->sig_count + sigs;
    }
    if (rs->cause_count + causes > rs->cause_cap) {
        struct cause **p = realloc(rs->causes, (rs->cause_count + causes) * sizeof *p);
        if (p == NULL)
            return -1;
        rs->causes = p;
        rs->cause_cap = rs->cause_count + causes;
    }
    return index_reserve(&rs->sig_ids, rs->sig_count + sigs) | index_reserve(&rs->cause_ids, rs->cause_count + causes);
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

int ruleset_add_prefix(struct od_ruleset *rs, struct line_prefix *p)
{
    struct line_prefix **grown = grow(rs->prefixes, &rs->prefix_cap, rs->prefix_count, sizeof *rs->prefixes, 16);
    if (grown == NULL)
        return -1;
    rs->prefixes = grown;
    rs->prefixes[rs->prefix_count++] = p;
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

struct fragments *ruleset_add_fragments(struct od_ruleset *rs)
{
    struct fragments **grown =
        grow(rs->fragment_sets, &rs->fragment_set_cap, rs->fragment_set_count, sizeof *rs->fragment_sets, 8);
    if (grown == NULL)
        return NULL;
    rs->fragment_sets = grown;
    struct fragments *fr = calloc(1, sizeof *fr);
    if (fr != NULL)
        rs->fragment_sets[rs->fragment_set_count++] = fr;
    return fr;
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

struct rx *sig_compile(const struct sig *s, struct msg_sink *sink)
{
    char err[256];
    size_t off = 0;
    struct rx *rx = NULL;
    /* The image's compiled form, if this PCRE2 is the one that wrote it
     * (an image signature's expansion is the image's too). */
    if (s->image_code != NULL && (rx = rx_deserialize(s->image_code, s->image_code_len, s->expanded.hidden)) != NULL)
        return rx;
    struct expansion x = {0};
    const struct expansion *use = &s->expanded;
    if (s->frags != NULL && s->expanded.text == NULL) {
        if (fragments_expand(s->frags, s->pattern, &x) != 0) {
            origin_report(sink, OD_SEV_ERROR, &s->pattern_at, NULL, 0, "signature \"%s\": out of memory", s->id);
            return NULL;
        }
        use = &x;
    }
    rx = expansion_compile(s->pattern, use, s->caseless, err, sizeof err, &off);
    expansion_free(&x);
    if (rx == NULL)
        origin_report(sink, OD_SEV_ERROR, &s->pattern_at, s->pattern, off, "signature \"%s\": %s", s->id, err);
    return rx;
}

/* The prefilter of every signature's literals (prefilter.c takes them as
 * a plain array, and knows nothing of signatures). */
static struct prefilter *build_prefilter(const struct od_ruleset *rs)
{
    size_t n = 0, k = 0;
    /* The image's, built at build time, while the signatures are its own
     * (it was added into an empty ruleset, and nothing since). */
    int image = rs->image_prefilter != NULL && rs->image_prefilter->sig_count == rs->sig_count;
    for (size_t i = 0; image && i < rs->sig_count; i++)
        image = rs->sigs[i]->image;
    struct prefilter *pf = image ? prefilter_from_data(rs->image_prefilter) : NULL;
    if (pf != NULL)
        return pf;
    for (size_t i = 0; i < rs->sig_count; i++)
        n += rs->sigs[i]->literal_count;
    struct prefilter_literal *lits = malloc((n ? n : 1) * sizeof *lits);
    if (lits == NULL)
        return NULL;
    for (size_t i = 0; i < rs->sig_count; i++)
        for (size_t l = 0; l < rs->sigs[i]->literal_count; l++)
            lits[k++] = (struct prefilter_literal){(uint32_t)i, rs->sigs[i]->literals[l], rs->sigs[i]->caseless};
    pf = prefilter_build(lits, n, rs->sig_count);
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
    for (size_t i = 0; i < rs->cause_count; i++) {
        const struct cause *c = rs->causes[i];
        for (size_t k = 0; k < c->follows_count; k++)
            if (ruleset_cause(rs, c->follows[k]) == NULL || strcmp(c->follows[k], c->id) == 0)
                origin_report(&rs->msgs, OD_SEV_ERROR, &c->at, NULL, 0, "cause \"%s\": \"follows\" names \"%s\", %s",
                              c->id, c->follows[k],
                              strcmp(c->follows[k], c->id) == 0 ? "the cause itself" : "which is no cause");
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
    rx_free(s->rx);
    if (!s->image) {
        expansion_free(&s->expanded);
        free(s->at.path);
        free(s->pattern_at.path);
        free(s->id);
        free(s->cause_id);
        free(s->framework);
        for (size_t i = 0; i < s->literal_count; i++)
            free(s->literals[i]);
        free(s->literals);
        free(s->pattern);
        free(s->series);
        free(s->series_unit);
        free(s->boundary);
    }
    free_samples(s->check.samples, s->check.sample_count);
    free_samples(s->check.no_match, s->check.no_match_count);
    cJSON_Delete(s->check.unsampled);
    free(s);
}

/* E, unless it is a static node of the builtin image (IMAGE). */
static void free_cond(struct expr *e, int image)
{
    if (!image)
        expr_free(e);
}

typedef int (*string_fn)(char **s);

static int summary_strings(struct summary *s, size_t n, string_fn fn)
{
    int rc = 0;
    for (size_t i = 0; i < n; i++)
        rc |= fn(&s[i].text) | fn(&s[i].when_text) | fn(&s[i].at.path);
    return rc;
}

/* Calls FN on every string of C (the one list of them); the OR of its results. */
static int cause_strings(struct cause *c, string_fn fn)
{
    int rc = fn(&c->at.path) | fn(&c->id) | fn(&c->title) | fn(&c->explanation);
    rc |= summary_strings(c->summaries, c->summary_count, fn);
    for (size_t i = 0; i < c->step_count; i++) {
        struct step *st = &c->steps[i];
        rc |= fn(&st->id) | fn(&st->action) | fn(&st->detail) | fn(&st->when_text) | fn(&st->first_when_text);
    }
    for (size_t i = 0; i < c->variant_count; i++) {
        struct variant *v = &c->variants[i];
        rc |= fn(&v->id) | fn(&v->title) | fn(&v->when_text);
        for (size_t k = 0; k < v->first_count; k++)
            rc |= fn(&v->first[k]);
        rc |= summary_strings(v->summaries, v->summary_count, fn);
    }
    for (size_t i = 0; i < c->follows_count; i++)
        rc |= fn(&c->follows[i]);
    return rc;
}

static int free_string(char **s)
{
    free(*s);
    *s = NULL;
    return 0;
}

void cause_free(struct cause *c)
{
    if (c == NULL)
        return;
    if (!c->borrowed)
        cause_strings(c, free_string);
    for (size_t i = 0; i < c->summary_count; i++)
        free_cond(c->summaries[i].when, c->image);
    free(c->summaries);
    for (size_t i = 0; i < c->step_count; i++) {
        free_cond(c->steps[i].when, c->image);
        free_cond(c->steps[i].first_when, c->image);
    }
    free(c->steps);
    for (size_t i = 0; i < c->variant_count; i++) {
        struct variant *v = &c->variants[i];
        free_cond(v->when, c->image);
        free(v->first);
        for (size_t k = 0; k < v->summary_count; k++)
            free_cond(v->summaries[k].when, c->image);
        free(v->summaries);
    }
    free(c->variants);
    free(c->follows);
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

void line_prefix_free(struct line_prefix *p)
{
    if (p == NULL)
        return;
    free(p->at.path);
    free(p->id);
    free(p->pattern);
    rx_free(p->rx);
    free_samples(p->samples, p->sample_count);
    free_samples(p->no_match, p->no_match_count);
    free(p);
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
    for (size_t i = 0; i < rs->prefix_count; i++)
        line_prefix_free(rs->prefixes[i]);
    free(rs->prefixes);
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
    for (size_t i = 0; i < rs->translation_count; i++) {
        free(rs->translations[i].lang);
        cJSON_Delete(rs->translations[i].body);
    }
    free(rs->translations);
    for (size_t i = 0; i < rs->field_decl_count; i++) {
        free(rs->field_decls[i].name);
        free(rs->field_decls[i].at.path);
    }
    free(rs->field_decls);
    for (size_t i = 0; i < rs->fragment_set_count; i++) {
        fragments_free(rs->fragment_sets[i]);
        free(rs->fragment_sets[i]);
    }
    free(rs->fragment_sets);
    free(rs);
}
