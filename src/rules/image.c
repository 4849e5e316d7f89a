#include "image.h"

#include <stdlib.h>
#include <string.h>

#include "builtin_rules.h"

/* A string of the image, borrowed (cause->borrowed, sig->image). */
static char *borrow(const char *s)
{
    return (char *)s;
}

/* The origin PATH in embedded file FILE. */
static struct origin image_origin(const char *const *files, unsigned file, const char *path)
{
    const struct builtin_rule *b = &builtin_rules[file];
    struct origin o = {files[file], (const char *)b->lean, b->lean_len, borrow(path)};
    return o;
}

/* A condition of the image: its static parsed nodes and its text. */
static struct expr *cond(const char *text, const struct expr *parsed, char **text_out)
{
    *text_out = borrow(text);
    return (struct expr *)parsed;
}

static struct summary *summaries(const char *const *files, unsigned file, const struct image_summary *in, size_t n,
                                 int *oom)
{
    if (n == 0)
        return NULL;
    struct summary *out = calloc(n, sizeof *out);
    if (out == NULL) {
        *oom = 1;
        return NULL;
    }
    for (size_t i = 0; i < n; i++) {
        out[i].when = cond(in[i].when, in[i].when_x, &out[i].when_text);
        out[i].text = borrow(in[i].text);
        out[i].at = image_origin(files, file, in[i].at);
    }
    return out;
}

static struct cause *make_cause(const char *const *files, const struct image_cause *ic, int *oom)
{
    struct cause *c = calloc(1, sizeof *c);
    if (c == NULL) {
        *oom = 1;
        return NULL;
    }
    c->image = 1;
    c->builtin = 1;
    c->borrowed = 1;
    c->id = borrow(ic->id);
    c->title = borrow(ic->title);
    c->explanation = borrow(ic->explanation);
    c->decision = ic->decision;
    c->at = image_origin(files, ic->file, ic->at);
    c->summaries = summaries(files, ic->file, ic->summaries, ic->summary_count, oom);
    c->summary_count = c->summaries ? ic->summary_count : 0;
    if (ic->step_count > 0 && (c->steps = calloc(ic->step_count, sizeof *c->steps)) != NULL) {
        c->step_count = ic->step_count;
        for (size_t i = 0; i < ic->step_count; i++) {
            const struct image_step *is = &ic->steps[i];
            struct step *st = &c->steps[i];
            st->id = borrow(is->id);
            st->action = borrow(is->action);
            st->detail = borrow(is->detail);
            st->when = cond(is->when, is->when_x, &st->when_text);
            st->first_when = cond(is->first_when, is->first_when_x, &st->first_when_text);
        }
    } else if (ic->step_count > 0) {
        *oom = 1;
    }
    if (ic->variant_count > 0 && (c->variants = calloc(ic->variant_count, sizeof *c->variants)) != NULL) {
        c->variant_count = ic->variant_count;
        for (size_t i = 0; i < ic->variant_count; i++) {
            const struct image_variant *iv = &ic->variants[i];
            struct variant *v = &c->variants[i];
            v->confidence = iv->confidence;
            v->decision = iv->decision;
            v->id = borrow(iv->id);
            v->title = borrow(iv->title);
            v->when = cond(iv->when, iv->when_x, &v->when_text);
            v->summaries = summaries(files, ic->file, iv->summaries, iv->summary_count, oom);
            v->summary_count = v->summaries ? iv->summary_count : 0;
            if (iv->first_count > 0 && (v->first = calloc(iv->first_count, sizeof *v->first)) != NULL) {
                v->first_count = iv->first_count;
                for (size_t k = 0; k < iv->first_count; k++)
                    v->first[k] = borrow(iv->first[k]);
            } else if (iv->first_count > 0) {
                *oom = 1;
            }
        }
    } else if (ic->variant_count > 0) {
        *oom = 1;
    }
    if (ic->follows_count > 0 && (c->follows = calloc(ic->follows_count, sizeof *c->follows)) != NULL) {
        c->follows_count = ic->follows_count;
        for (size_t k = 0; k < ic->follows_count; k++)
            c->follows[k] = borrow(ic->follows[k]);
    } else if (ic->follows_count > 0) {
        *oom = 1;
    }
    return c;
}

static struct sig *make_sig(const char *const *files, const struct image_sig *is)
{
    struct sig *s = calloc(1, sizeof *s);
    if (s == NULL)
        return NULL;
    s->image = 1;
    s->builtin = 1;
    s->id = borrow(is->id);
    s->cause_id = borrow(is->cause_id);
    s->framework = borrow(is->framework);
    s->role = (enum od_role)is->role;
    s->confidence = (enum od_confidence)is->confidence;
    s->literals = (char **)is->literals; /* the array and its strings: the image's */
    s->literal_count = is->literal_count;
    s->pattern = borrow(is->pattern);
    sig_set_flag_bits(s, is->flags);
    s->series = borrow(is->series);
    s->series_unit = borrow(is->series_unit);
    s->boundary = borrow(is->boundary);
    s->literal_derived = is->literal_derived;
    s->image_code = is->code;
    s->image_code_len = is->code_len;
    /* The image's expansion, borrowed like its strings: the file's
     * fragments are not kept (frags stays NULL), nothing expands again. */
    s->expanded.text = (char *)is->expanded;
    s->expanded.verbs = is->verbs;
    s->expanded.prefix = is->prefix;
    s->expanded.hidden = is->hidden;
    s->at = image_origin(files, is->file, is->at);
    s->pattern_at = image_origin(files, is->file, is->pattern_at);
    return s;
}

/* A rank source owns its strings (there is one or two: not worth a flag). */
static struct rank_source *make_rank(const char *const *files, const struct image_rank *ir, int *oom)
{
    char err[256];
    size_t off = 0;
    struct rank_source *r = calloc(1, sizeof *r);
    if (r == NULL) {
        *oom = 1;
        return NULL;
    }
    r->id = strdup(ir->id);
    r->from_path = ir->from_path;
    r->pattern = strdup(ir->pattern);
    r->at = image_origin(files, ir->file, ir->at);
    r->at.path = strdup(ir->at);
    if (r->id == NULL || r->pattern == NULL || r->at.path == NULL)
        *oom = 1;
    else if (ir->code != NULL && (r->rx = rx_deserialize(ir->code, ir->code_len, 0)) != NULL)
        return r; /* compiled at build time by this PCRE2 */
    else if ((r->rx = rx_compile(r->pattern, 0, err, sizeof err, &off)) == NULL)
        *oom = 1; /* it compiled at build time */
    return r;
}

/* A line prefix owns its strings, as a rank source does. */
static struct line_prefix *make_prefix(const char *const *files, const struct image_prefix *ip, int *oom)
{
    char err[256];
    size_t off = 0;
    struct line_prefix *p = calloc(1, sizeof *p);
    if (p == NULL) {
        *oom = 1;
        return NULL;
    }
    p->id = strdup(ip->id);
    p->pattern = strdup(ip->pattern);
    p->at = image_origin(files, ip->file, ip->at);
    p->at.path = strdup(ip->at);
    if (p->id == NULL || p->pattern == NULL || p->at.path == NULL)
        *oom = 1;
    else if (ip->code != NULL && (p->rx = rx_deserialize(ip->code, ip->code_len, 0)) != NULL)
        return p;
    else if ((p->rx = rx_compile(p->pattern, 0, err, sizeof err, &off)) == NULL)
        *oom = 1;
    return p;
}

/* The image's lexicon fragments, copied into RS (fragments_free frees
 * them).  0, or -1 when out of memory. */
static int add_lexicon(struct od_ruleset *rs, const struct rule_image *im)
{
    if (im->lexicon_count == 0)
        return 0;
    if ((rs->lexicon = ruleset_add_fragments(rs)) == NULL ||
        (rs->lexicon->v = calloc(im->lexicon_count, sizeof *rs->lexicon->v)) == NULL)
        return -1;
    for (size_t i = 0; i < im->lexicon_count; i++) {
        struct fragment *f = &rs->lexicon->v[rs->lexicon->n++];
        f->name = strdup(im->lexicon_names[i]);
        f->text = strdup(im->lexicon_texts[i]);
        if (f->name == NULL || f->text == NULL)
            return -1;
    }
    return 0;
}

int image_add(struct od_ruleset *rs, const struct rule_image *im)
{
    const char **files = calloc(im->file_count ? im->file_count : 1, sizeof *files);
    int oom = files == NULL;
    for (size_t i = 0; !oom && i < im->file_count; i++)
        if ((files[i] = ruleset_intern_file(rs, builtin_rules[i].name)) == NULL)
            oom = 1;
    if (!oom)
        ruleset_reserve(rs, im->sig_count, im->cause_count); /* a hint: failing it costs only time */
    rs->image_prefilter = im->prefilter;
    rs->image_prefix_alt = im->prefix_alt;
    rs->image_prefix_alt_code = im->prefix_alt_code;
    rs->image_prefix_alt_len = im->prefix_alt_code_len;
    for (size_t i = 0; !oom && i < im->dtype_count; i++)
        if (ruleset_add_dtype(rs, im->dtypes[i].name, im->dtypes[i].size) != 0)
            oom = 1;
    for (size_t i = 0; !oom && i < im->cause_count; i++) {
        struct cause *c = make_cause(files, &im->causes[i], &oom);
        if (c == NULL || oom || ruleset_add_cause(rs, c) != 0) {
            cause_free(c);
            oom = 1;
        }
    }
    for (size_t i = 0; !oom && i < im->sig_count; i++) {
        struct sig *s = make_sig(files, &im->sigs[i]);
        if (s == NULL || ruleset_add_sig(rs, s) != 0) {
            sig_free(s);
            oom = 1;
        }
    }
    for (size_t i = 0; !oom && i < im->rank_count; i++) {
        struct rank_source *r = make_rank(files, &im->ranks[i], &oom);
        if (r == NULL || oom || ruleset_add_rank(rs, r) != 0) {
            rank_source_free(r);
            oom = 1;
        }
    }
    if (!oom && add_lexicon(rs, im) != 0)
        oom = 1;
    for (size_t i = 0; !oom && i < im->prefix_count; i++) {
        struct line_prefix *p = make_prefix(files, &im->prefixes[i], &oom);
        if (p == NULL || oom || ruleset_add_prefix(rs, p) != 0) {
            line_prefix_free(p);
            oom = 1;
        }
    }
    if (!oom && im->version != NULL && (rs->version == NULL || strcmp(im->version, rs->version) > 0)) {
        free(rs->version);
        if ((rs->version = strdup(im->version)) == NULL)
            oom = 1;
    }
    free(files);
    if (oom) {
        msg_error(&rs->msgs, NULL, "out of memory");
        return -1;
    }
    return 0;
}
