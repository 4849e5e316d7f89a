/* Build tool: loads the embedded rules as a diagnosis run does (the lean
 * copies, through the real loader: rulefile.c with {.builtin = 1}) and
 * writes the loaded items as C static data (image.h) to the file named by
 * its argument, so that start-up parses no JSON.  Built from the same
 * objects as the library, with an empty stand-in image (stub.c), so that it
 * loads the JSON itself.  Exits 1, with the loader's messages on stderr,
 * when the embedded rules do not load. */
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtin_rules.h"
#include "expr_node.h"
#include "image.h"
#include "prefilter.h"
#include "regex.h"
#include "ruleset.h"

static int failed;

static void print_message(void *ctx, const struct od_message *m)
{
    (void)ctx;
    fprintf(stderr, "rules_image: %s:%lu:%lu: %s\n", m->file ? m->file : "-", m->line, m->col, m->text);
    if (m->severity == OD_SEV_ERROR)
        failed = 1;
}

/* S as a C string literal, or NULL. */
/* Writes ", NAME, COUNT" (NAME formatted as printf does), a member that
 * points at the array written as NAME[] and gives its length; or
 * ", NULL, 0" when COUNT is 0 (no array was written). */
static void array_ref(FILE *f, size_t count, const char *fmt, ...) MSG_PRINTF(3, 4);
static void array_ref(FILE *f, size_t count, const char *fmt, ...)
{
    if (count == 0) {
        fputs(", NULL, 0", f);
        return;
    }
    va_list ap;
    va_start(ap, fmt);
    fputs(", ", f);
    vfprintf(f, fmt, ap);
    va_end(ap);
    fprintf(f, ", %zu", count);
}

static void cstr(FILE *f, const char *s)
{
    if (s == NULL) {
        fputs("NULL", f);
        return;
    }
    fputc('"', f);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\')
            fprintf(f, "\\%c", *p);
        else if (*p == '?') /* no trigraphs */
            fputs("\\?", f);
        else if (*p < 0x20 || *p >= 0x7f)
            fprintf(f, "\\%03o", *p);
        else
            fputc(*p, f);
    }
    fputc('"', f);
}

static const char *const kinds[] = {"N_NUM", "N_STR", "N_NAME", "N_HAS", "N_NOT", "N_AND", "N_OR", "N_CMP", "N_ARITH"};
static unsigned long expr_count;

/* Writes E's nodes (children first) as static objects; returns the name of
 * the root's ("NULL" for none) in BUF. */
static const char *write_expr(FILE *f, const struct expr *e, char *buf, size_t size)
{
    char a[32], b[32];
    if (e == NULL) {
        snprintf(buf, size, "NULL");
        return buf;
    }
    if ((unsigned)e->kind >= sizeof kinds / sizeof kinds[0] || !isfinite(e->num)) {
        fputs("rules_image: a condition this tool cannot write\n", stderr);
        exit(1);
    }
    write_expr(f, e->a, a, sizeof a);
    write_expr(f, e->b, b, sizeof b);
    unsigned long n = expr_count++;
    fprintf(f, "static const struct expr x%lu = {%s, ", n, kinds[e->kind]);
    cstr(f, e->op);
    fprintf(f, ", %a, ", e->num);
    cstr(f, e->text);
    fprintf(f, ", %s%s, %s%s};\n", e->a ? "(struct expr *)" : "", a, e->b ? "(struct expr *)" : "", b);
    snprintf(buf, size, "&x%lu", n);
    return buf;
}

static unsigned file_index(const struct origin *o)
{
    for (size_t i = 0; i < builtin_rule_count; i++)
        if (strcmp(builtin_rules[i].name, o->file) == 0) {
            if (o->text != (const char *)builtin_rules[i].lean) {
                fprintf(stderr, "rules_image: %s: origin not in the lean copy\n", o->file);
                exit(1);
            }
            return (unsigned)i;
        }
    fprintf(stderr, "rules_image: %s: not an embedded rule file\n", o->file);
    exit(1);
}

static void summaries(FILE *f, const char *name, const struct summary *s, size_t n)
{
    char(*x)[32] = calloc(n ? n : 1, sizeof *x);
    if (n == 0 || x == NULL) {
        free(x);
        return;
    }
    for (size_t i = 0; i < n; i++)
        write_expr(f, s[i].when, x[i], sizeof x[i]);
    fprintf(f, "static const struct image_summary %s[] = {\n", name);
    for (size_t i = 0; i < n; i++) {
        fputs("    {", f);
        cstr(f, s[i].when_text);
        fputs(", ", f);
        cstr(f, s[i].text);
        fputs(", ", f);
        cstr(f, s[i].at.path);
        fprintf(f, ", %s},\n", x[i]);
    }
    fputs("};\n", f);
    free(x);
}

static void strings(FILE *f, const char *name, char *const *s, size_t n)
{
    if (n == 0)
        return;
    fprintf(f, "static const char *const %s[] = {", name);
    for (size_t i = 0; i < n; i++) {
        cstr(f, s[i]);
        fputs(i + 1 < n ? ", " : "};\n", f);
    }
}

static void write_cause(FILE *f, size_t ci, const struct cause *c)
{
    char name[64];
    snprintf(name, sizeof name, "c%zu_summaries", ci);
    summaries(f, name, c->summaries, c->summary_count);
    if (c->step_count > 0) {
        char(*x)[2][32] = calloc(c->step_count, sizeof *x);
        if (x == NULL)
            exit(1);
        for (size_t i = 0; i < c->step_count; i++) {
            write_expr(f, c->steps[i].when, x[i][0], sizeof x[i][0]);
            write_expr(f, c->steps[i].first_when, x[i][1], sizeof x[i][1]);
        }
        fprintf(f, "static const struct image_step c%zu_steps[] = {\n", ci);
        for (size_t i = 0; i < c->step_count; i++) {
            const struct step *st = &c->steps[i];
            fputs("    {", f);
            cstr(f, st->id);
            fputs(", ", f);
            cstr(f, st->action);
            fputs(", ", f);
            cstr(f, st->detail);
            fputs(", ", f);
            cstr(f, st->when_text);
            fputs(", ", f);
            cstr(f, st->first_when_text);
            fprintf(f, ", %s, %s},\n", x[i][0], x[i][1]);
        }
        fputs("};\n", f);
        free(x);
    }
    snprintf(name, sizeof name, "c%zu_follows", ci);
    strings(f, name, c->follows, c->follows_count);
    for (size_t v = 0; v < c->variant_count; v++) {
        snprintf(name, sizeof name, "c%zu_v%zu_summaries", ci, v);
        summaries(f, name, c->variants[v].summaries, c->variants[v].summary_count);
        snprintf(name, sizeof name, "c%zu_v%zu_first", ci, v);
        strings(f, name, c->variants[v].first, c->variants[v].first_count);
    }
    if (c->variant_count > 0) {
        char(*x)[32] = calloc(c->variant_count, sizeof *x);
        if (x == NULL)
            exit(1);
        for (size_t v = 0; v < c->variant_count; v++)
            write_expr(f, c->variants[v].when, x[v], sizeof x[v]);
        fprintf(f, "static const struct image_variant c%zu_variants[] = {\n", ci);
        for (size_t v = 0; v < c->variant_count; v++) {
            const struct variant *vr = &c->variants[v];
            fprintf(f, "    {%d, %d, ", vr->confidence, vr->decision);
            cstr(f, vr->id);
            fputs(", ", f);
            cstr(f, vr->title);
            fputs(", ", f);
            cstr(f, vr->when_text);
            fprintf(f, ", %s", x[v]);
            array_ref(f, vr->first_count, "c%zu_v%zu_first", ci, v);
            array_ref(f, vr->summary_count, "c%zu_v%zu_summaries", ci, v);
            fputs("},\n", f);
        }
        fputs("};\n", f);
        free(x);
    }
}

/* RX serialized, as <PREFIX><I>_code[]; its length (0 when this PCRE2
 * cannot serialize). */
static size_t write_bytes(FILE *f, const char *prefix, size_t i, const struct rx *rx)
{
    size_t len = 0;
    unsigned char *bytes = rx ? rx_serialize(rx, &len) : NULL;
    if (bytes == NULL)
        return 0;
    fprintf(f, "static const unsigned char %s%zu_code[] = {", prefix, i);
    for (size_t k = 0; k < len; k++)
        fprintf(f, "%s%u", k == 0 ? "\n    " : k % 32 ? "," : ",\n    ", bytes[k]);
    fputs("};\n", f);
    free(bytes);
    return len;
}

/* S's pattern compiled and serialized, as s<I>_code[]; its length (0 when
 * this PCRE2 cannot serialize: the run then compiles it). */
static size_t write_code(FILE *f, size_t i, struct sig *s)
{
    char err[256];
    size_t off = 0, len = 0;
    if (s->frags != NULL && s->expanded.text == NULL && fragments_expand(s->frags, s->pattern, &s->expanded) != 0) {
        fprintf(stderr, "rules_image: out of memory\n");
        exit(1);
    }
    struct rx *rx = expansion_compile(s->pattern, &s->expanded, s->caseless, err, sizeof err, &off);
    if (rx == NULL) {
        fprintf(stderr, "rules_image: %s: signature \"%s\": %s\n", s->at.file, s->id, err);
        exit(1);
    }
    len = write_bytes(f, "s", i, rx);
    rx_free(rx);
    return len;
}

/* RS's line prefixes as the matcher's one alternation (all_prefixes in
 * src/scan/matcher.c builds the same text and uses the image's code only
 * when the texts are equal); NULL when there are none. */
static char *prefix_alternation(const struct od_ruleset *rs)
{
    size_t n = 0;
    for (size_t i = 0; i < rs->prefix_count; i++)
        n += strlen(rs->prefixes[i]->pattern) + 5;
    char *pat = n > 0 ? malloc(n + 1) : NULL;
    if (pat == NULL)
        return NULL;
    size_t o = 0;
    for (size_t i = 0; i < rs->prefix_count; i++)
        o += (size_t)sprintf(pat + o, "%s%s)", i > 0 ? "|(?:" : "(?:", rs->prefixes[i]->pattern);
    return pat;
}

/* N numbers of SIZE bytes at P as the static array NAME of TYPE; zeros in
 * runs are written as one designated initializer's gap. */
static void numbers(FILE *f, const char *type, const char *name, const void *p, size_t size, size_t n)
{
    const unsigned char *b = p;
    fprintf(f, "static const %s %s[%zu] = {", type, name, n);
    int first = 1;
    for (size_t i = 0; i < n; i++) {
        unsigned long long v = 0;
        if (size == 8) {
            uint64_t x;
            memcpy(&x, b + i * 8, 8);
            v = x;
        } else if (size == 4) {
            uint32_t x;
            memcpy(&x, b + i * 4, 4);
            v = x;
        } else {
            v = b[i];
        }
        if (v == 0)
            continue;
        fprintf(f, "%s[%zu] = %#llxu", first ? "\n    " : ",\n    ", i, v);
        first = 0;
    }
    fputs(first ? "0};\n" : "};\n", f);
}

static void masks(FILE *f, const unsigned char m[PREFILTER_TEDDY_BYTES][16])
{
    fputs("{", f);
    for (unsigned j = 0; j < PREFILTER_TEDDY_BYTES; j++) {
        fputs(j ? ", {" : "{", f);
        for (unsigned k = 0; k < 16; k++)
            fprintf(f, "%s%u", k ? "," : "", m[j][k]);
        fputs("}", f);
    }
    fputs("}", f);
}

/* The ruleset's prefilter as static data: builtin_prefilter. */
static void write_prefilter(FILE *f, const struct prefilter *pf)
{
    const struct prefilter_data *d = prefilter_data(pf);
    char name[64];
    for (int i = 0; i < 2; i++) {
        const struct prefilter_table *t = &d->tables[i];
        snprintf(name, sizeof name, "pf%d_bits", i);
        numbers(f, "uint64_t", name, t->bits, 8, (1u << PREFILTER_HASH_BITS) / 64);
        snprintf(name, sizeof name, "pf%d_bucket", i);
        fprintf(f, "static const uint32_t %s[%u] = {", name, (1u << PREFILTER_BUCKET_BITS) + 1);
        for (size_t k = 0; k <= (1u << PREFILTER_BUCKET_BITS); k++)
            fprintf(f, "%s%u", k == 0 ? "\n    " : k % 16 ? "," : ",\n    ", t->bucket[k]);
        fputs("};\n", f);
        if (t->count == 0)
            continue;
        fprintf(f, "static const struct prefilter_entry pf%d_entries[] = {\n", i);
        for (size_t k = 0; k < t->count; k++) {
            const struct prefilter_entry *e = &t->entries[k];
            fprintf(f, "    {%u, %u, %u, %u, %u, %u, %#llxull},\n", e->hash, e->sig, e->off, e->len, e->text,
                    e->caseless, (unsigned long long)e->head);
        }
        fputs("};\n", f);
    }
    fputs("static const char pf_texts[] = {", f);
    for (size_t k = 0; k < d->texts_len; k++)
        fprintf(f, "%s%u", k == 0 ? "\n    " : k % 32 ? "," : ",\n    ", (unsigned char)d->texts[k]);
    fputs("0};\nstatic const struct prefilter_data builtin_prefilter = {\n    {", f);
    for (int i = 0; i < 2; i++) {
        const struct prefilter_table *t = &d->tables[i];
        fprintf(f, "%s{pf%d_bits, pf%d_bucket, ", i ? ",\n     " : "", i, i);
        if (t->count)
            fprintf(f, "pf%d_entries, %zu, ", i, t->count);
        else
            fputs("NULL, 0, ", f);
        fprintf(f, "%u, %u, %#xu, %d,\n      ", t->window, t->stride, t->mask, t->teddy);
        masks(f, t->teddy_lo);
        fputs(",\n      ", f);
        masks(f, t->teddy_hi);
        fputs("}", f);
    }
    fprintf(f, "},\n    pf_texts, %zu, %zu, %#xu};\n", d->texts_len, d->sig_count, d->byte_order);
}

static int write_image(FILE *f, const struct od_ruleset *rs)
{
    size_t *code_len = calloc(rs->sig_count ? rs->sig_count : 1, sizeof *code_len);
    if (code_len == NULL)
        return -1;
    fputs("/* Generated by tools/rules_image from the embedded rules: do not edit. */\n"
          "#include \"expr_node.h\"\n#include \"image.h\"\n\n",
          f);
    for (size_t i = 0; i < rs->cause_count; i++)
        write_cause(f, i, rs->causes[i]);
    write_prefilter(f, rs->prefilter);
    for (size_t i = 0; i < rs->sig_count; i++) {
        char name[64];
        snprintf(name, sizeof name, "s%zu_literals", i);
        strings(f, name, rs->sigs[i]->literals, rs->sigs[i]->literal_count);
        code_len[i] = write_code(f, i, rs->sigs[i]);
    }
    if (rs->dtype_count > 0) {
        fputs("static const struct image_dtype dtypes[] = {\n", f);
        for (size_t i = 0; i < rs->dtype_count; i++) {
            fputs("    {", f);
            cstr(f, rs->dtypes[i].name);
            fprintf(f, ", %lldLL},\n", rs->dtypes[i].size);
        }
        fputs("};\n", f);
    }
    fputs("static const struct image_cause causes[] = {\n", f);
    for (size_t i = 0; i < rs->cause_count; i++) {
        const struct cause *c = rs->causes[i];
        fputs("    {", f);
        cstr(f, c->id);
        fputs(", ", f);
        cstr(f, c->title);
        fputs(", ", f);
        cstr(f, c->explanation);
        fputs(", ", f);
        cstr(f, c->at.path);
        fprintf(f, ", %u", file_index(&c->at));
        array_ref(f, c->summary_count, "c%zu_summaries", i);
        array_ref(f, c->step_count, "c%zu_steps", i);
        array_ref(f, c->variant_count, "c%zu_variants", i);
        array_ref(f, c->follows_count, "c%zu_follows", i);
        fprintf(f, ", %d},\n", c->decision);
    }
    fputs("};\nstatic const struct image_sig sigs[] = {\n", f);
    for (size_t i = 0; i < rs->sig_count; i++) {
        const struct sig *s = rs->sigs[i];
        fputs("    {", f);
        cstr(f, s->id);
        fputs(", ", f);
        cstr(f, s->cause_id);
        fputs(", ", f);
        cstr(f, s->framework);
        fputs(", ", f);
        cstr(f, s->pattern);
        array_ref(f, s->literal_count, "s%zu_literals", i);
        fputs(", ", f);
        cstr(f, s->at.path);
        fputs(", ", f);
        cstr(f, s->pattern_at.path);
        array_ref(f, code_len[i], "s%zu_code", i);
        fputs(", ", f);
        cstr(f, s->expanded.text);
        fprintf(f, ", %zu, %zu, %u", s->expanded.verbs, s->expanded.prefix, s->expanded.hidden);
        if (file_index(&s->pattern_at) != file_index(&s->at))
            return -1;
        fprintf(f, ", %u, %uu, %d, %d, %d, ", file_index(&s->at), sig_flag_bits(s), (int)s->role,
                (int)s->confidence, s->literal_derived ? 1 : 0);
        cstr(f, s->series);
        fputs(", ", f);
        cstr(f, s->series_unit);
        fputs(", ", f);
        cstr(f, s->boundary);
        fputs("},\n", f);
    }
    fputs("};\n", f);
    size_t *rank_len = calloc(rs->rank_count ? rs->rank_count : 1, sizeof *rank_len);
    if (rank_len == NULL)
        return -1;
    for (size_t i = 0; i < rs->rank_count; i++)
        rank_len[i] = write_bytes(f, "r", i, rs->ranks[i]->rx);
    if (rs->rank_count > 0) {
        fputs("static const struct image_rank ranks[] = {\n", f);
        for (size_t i = 0; i < rs->rank_count; i++) {
            const struct rank_source *r = rs->ranks[i];
            fputs("    {", f);
            cstr(f, r->id);
            fputs(", ", f);
            cstr(f, r->pattern);
            fputs(", ", f);
            cstr(f, r->at.path);
            fprintf(f, ", %u, %d", file_index(&r->at), r->from_path);
            array_ref(f, rank_len[i], "r%zu_code", i);
            fputs("},\n", f);
        }
        fputs("};\n", f);
    }
    if (rs->lexicon != NULL && rs->lexicon->n > 0) {
        for (int which = 0; which < 2; which++) {
            fprintf(f, "static const char *const lexicon_%s[] = {\n", which ? "texts" : "names");
            for (size_t i = 0; i < rs->lexicon->n; i++) {
                fputs("    ", f);
                cstr(f, which ? rs->lexicon->v[i].text : rs->lexicon->v[i].name);
                fputs(",\n", f);
            }
            fputs("};\n", f);
        }
    }
    size_t *prefix_len = calloc(rs->prefix_count ? rs->prefix_count : 1, sizeof *prefix_len);
    if (prefix_len == NULL) {
        free(rank_len);
        return -1;
    }
    for (size_t i = 0; i < rs->prefix_count; i++)
        prefix_len[i] = write_bytes(f, "p", i, rs->prefixes[i]->rx);
    if (rs->prefix_count > 0) {
        fputs("static const struct image_prefix prefixes[] = {\n", f);
        for (size_t i = 0; i < rs->prefix_count; i++) {
            const struct line_prefix *p = rs->prefixes[i];
            fputs("    {", f);
            cstr(f, p->id);
            fputs(", ", f);
            cstr(f, p->pattern);
            fputs(", ", f);
            cstr(f, p->at.path);
            fprintf(f, ", %u", file_index(&p->at));
            array_ref(f, prefix_len[i], "p%zu_code", i);
            fputs("},\n", f);
        }
        fputs("};\n", f);
    }
    char *alt = prefix_alternation(rs);
    size_t alt_len = 0;
    if (alt != NULL) {
        char err[256];
        size_t off = 0;
        struct rx *rx = rx_compile(alt, 0, err, sizeof err, &off);
        if (rx == NULL) {
            fprintf(stderr, "rules_image: the line prefixes' alternation: %s\n", err);
            exit(1);
        }
        alt_len = write_bytes(f, "alt", 0, rx);
        rx_free(rx);
    }
    fprintf(f, "\nconst struct rule_image builtin_image = {\n    %zu, ", builtin_rule_count);
    cstr(f, rs->version);
    if (rs->dtype_count)
        fprintf(f, ",\n    dtypes, %zu,\n", rs->dtype_count);
    else
        fputs(",\n    NULL, 0,\n", f);
    fprintf(f, "    causes, %zu,\n    sigs, %zu,\n", rs->cause_count, rs->sig_count);
    if (rs->rank_count)
        fprintf(f, "    ranks, %zu,\n", rs->rank_count);
    else
        fputs("    NULL, 0,\n", f);
    if (rs->prefix_count)
        fprintf(f, "    prefixes, %zu,\n", rs->prefix_count);
    else
        fputs("    NULL, 0,\n", f);
    fputs("    &builtin_prefilter,\n", f);
    if (rs->lexicon != NULL && rs->lexicon->n > 0)
        fprintf(f, "    lexicon_names, lexicon_texts, %zu,\n", rs->lexicon->n);
    else
        fputs("    NULL, NULL, 0,\n", f);
    if (alt != NULL) {
        fputs("    ", f);
        cstr(f, alt);
        array_ref(f, alt_len, "alt%d_code", 0);
        fputs("};\n", f);
    } else {
        fputs("    NULL, NULL, 0};\n", f);
    }
    free(alt);
    free(code_len);
    free(rank_len);
    free(prefix_len);
    return ferror(f) ? -1 : 0;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fputs("usage: rules_image OUT.c\n", stderr);
        return 2;
    }
    struct od_ruleset *rs = od_ruleset_create(print_message, NULL);
    if (rs == NULL)
        return 1;
    od_ruleset_keep_samples(rs, 0);
    if (od_ruleset_add_builtin(rs) != 0 || od_ruleset_finish(rs) != 0 || failed) {
        od_ruleset_free(rs);
        return 1;
    }
    for (size_t i = 0; i < rs->sig_count; i++)
        if (rs->sigs[i]->image || rs->sigs[i]->rx != NULL) {
            fputs("rules_image: loaded from an image, or compiled: not what a run loads\n", stderr);
            return 1;
        }
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s.tmp", argv[1]);
    FILE *f = fopen(tmp, "w");
    if (f == NULL) {
        perror(tmp);
        return 1;
    }
    int rc = write_image(f, rs);
    if (fclose(f) != 0 || rc != 0 || rename(tmp, argv[1]) != 0) {
        perror(argv[1]);
        remove(tmp);
        return 1;
    }
    od_ruleset_free(rs);
    return 0;
}
