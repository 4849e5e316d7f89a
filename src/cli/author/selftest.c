#include "selftest.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ansi.h"
#include "classify.h"
#include "fields.h"
#include "grow.h"
#include "lint.h"
#include "matcher.h"
#include "ruleset.h"
#include "translate.h"

struct hits {
    const struct sig **sigs;
    size_t count;
    const struct sig *want;
    struct od_fields want_fields;
    int want_hit;
};

static void on_hit(struct hits *h, const struct sig *sig, const struct od_fields *fields)
{
    if ((sig->role != OD_ROLE_PROGRESS && sig->role != OD_ROLE_CONTEXT && sig->role != OD_ROLE_ERROR) || h->want == sig)
        h->sigs[h->count++] = sig;
    if (sig == h->want) {
        h->want_hit = 1;
        fields_copy(&h->want_fields, fields);
    }
}

/* Runs LINE through M, every match to H. */
static void match_all(struct matcher *m, const char *line, size_t len, struct hits *h)
{
    const struct matcher_result *r = matcher_line(m, line, len, MATCHER_ALL_HITS);
    for (size_t i = 0; i < r->hit_count; i++)
        on_hit(h, r->hits[i].sig, r->hits[i].fields);
}

size_t selftest_nested_quantifier(const char *p)
{
    int inner[64];
    int depth = 0, in_class = 0;
    for (size_t i = 0; p[i]; i++) {
        char c = p[i];
        if (c == '\\' && p[i + 1]) {
            i++;
            continue;
        }
        if (in_class) {
            in_class = c != ']';
            continue;
        }
        if (c == '[') {
            in_class = 1;
        } else if (c == '(') {
            if (depth < 64)
                inner[depth] = 0;
            depth++;
        } else if (c == ')') {
            if (depth == 0)
                continue;
            depth--;
            int had = depth < 64 ? inner[depth] : 0;
            char q = p[i + 1];
            int unbounded =
                q == '*' || q == '+' || (q == '{' && strchr(p + i + 1, ',') && strchr(p + i + 1, ',')[1] == '}');
            if (had && unbounded)
                return i + 2;
            if (depth > 0 && depth <= 64 && (had || unbounded))
                inner[depth - 1] = 1;
        } else if ((c == '*' || c == '+') && depth > 0 && depth <= 64) {
            inner[depth - 1] = 1;
        }
    }
    return 0;
}

/* Compares expected fields (JSON) with the parsed ones; reports each gap. */
static int check_fields(struct msg_sink *sink, const struct sig *sig, const struct sample *s,
                        const struct od_fields *got)
{
    int bad = 0;
    const cJSON *it;
    cJSON_ArrayForEach(it, s->fields)
    {
        const struct od_field *f = fields_get(got, it->string);
        int ok = 0;
        if (f != NULL && cJSON_IsNumber(it) && f->type != OD_FIELD_STRING)
            ok = fabs((double)f->num - it->valuedouble) < 0.5;
        else if (f != NULL && cJSON_IsString(it) && f->type == OD_FIELD_STRING)
            ok = strcmp(f->str, it->valuestring) == 0;
        else if (f == NULL && cJSON_IsNull(it))
            ok = 1;
        if (!ok) {
            char gotbuf[64] = "nothing";
            if (f && f->type == OD_FIELD_STRING)
                snprintf(gotbuf, sizeof gotbuf, "\"%.50s\"", f->str);
            else if (f)
                snprintf(gotbuf, sizeof gotbuf, "%lld", f->num);
            origin_report(sink, OD_SEV_ERROR, &s->at, s->line, 0,
                          "signature \"%s\": sample field \"%s\" parsed as %s, not the expected value", sig->id,
                          it->string, gotbuf);
            bad = 1;
        }
    }
    return bad;
}

static int contains_literal(const struct sig *sig, const char *line)
{
    for (size_t i = 0; i < sig->literal_count; i++)
        if (sig->caseless ? strcasestr(line, sig->literals[i]) != NULL : strstr(line, sig->literals[i]) != NULL)
            return 1;
    return 0;
}

/* ---- field names ------------------------------------------------------ */

struct names {
    char **v;
    size_t n, cap;
};

static int names_has(const struct names *ns, const char *s, size_t len)
{
    for (size_t i = 0; i < ns->n; i++)
        if (strlen(ns->v[i]) == len && memcmp(ns->v[i], s, len) == 0)
            return 1;
    for (size_t i = 0; classify_fact_name(i); i++) /* the job facts */
        if (strlen(classify_fact_name(i)) == len && memcmp(classify_fact_name(i), s, len) == 0)
            return 1;
    return 0;
}

static void names_add(struct names *ns, const char *s, size_t len)
{
    if (names_has(ns, s, len))
        return;
    char **v = grow(ns->v, &ns->cap, ns->n, sizeof *v, 64);
    char *copy = strndup(s, len);
    if (v == NULL || copy == NULL) {
        free(copy);
        if (v != NULL)
            ns->v = v;
        return;
    }
    ns->v = v;
    ns->v[ns->n++] = copy;
}

/* The named groups of PATTERN: (?<name> and (?P<name>. */
static void names_of_pattern(struct names *ns, const char *p)
{
    for (const char *q = strstr(p, "(?"); q != NULL; q = strstr(q + 2, "(?")) {
        const char *s = q + 2;
        if (*s == 'P')
            s++;
        if (*s != '<' || s[1] == '=' || s[1] == '!')
            continue;
        s++;
        size_t len = strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_");
        if (len > 0 && s[len] == '>')
            names_add(ns, s, len);
    }
}

static size_t edit_distance(const char *a, size_t la, const char *b)
{
    size_t lb = strlen(b), row[80];
    if (la >= 79 || lb >= 79)
        return 99;
    for (size_t j = 0; j <= lb; j++)
        row[j] = j;
    for (size_t i = 1; i <= la; i++) {
        size_t prev = row[0];
        row[0] = i;
        for (size_t j = 1; j <= lb; j++) {
            size_t cur = row[j];
            size_t best = prev + (a[i - 1] != b[j - 1]);
            if (row[j] + 1 < best)
                best = row[j] + 1;
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            row[j] = best;
            prev = cur;
        }
    }
    return row[lb];
}

/* The known name closest to S (LEN bytes), within two edits, or NULL. */
static const char *closest(const struct names *ns, const char *s, size_t len)
{
    const char *best = NULL;
    size_t bd = 3;
    for (size_t i = 0; i < ns->n; i++) {
        size_t d = edit_distance(s, len, ns->v[i]);
        if (d < bd) {
            bd = d;
            best = ns->v[i];
        }
    }
    for (size_t i = 0; classify_fact_name(i); i++) {
        size_t d = edit_distance(s, len, classify_fact_name(i));
        if (d < bd) {
            bd = d;
            best = classify_fact_name(i);
        }
    }
    return best;
}

struct name_check {
    struct od_ruleset *rs;
    const struct names *known;
    struct selftest_result *res;
};

static void unknown_name(struct name_check *k, const struct origin *at, const char *text, size_t off, size_t len,
                         const char *what)
{
    const char *near = closest(k->known, text + off, len);
    char hint[128] = "";
    if (near != NULL)
        snprintf(hint, sizeof hint, " (did you mean \"%s\"?)", near);
    origin_report(&k->rs->msgs, OD_SEV_ERROR, at, text, off, "%s names \"%.*s\", which no signature captures%s", what,
                  (int)len, text + off, hint);
    k->res->failures++; /* it can never have a value: the text or condition is dead */
}

static int name_char(char c, int first)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || (!first && c >= '0' && c <= '9');
}

/* The field names of condition TEXT: identifiers outside strings that are
 * not a unit after a number (256 MiB) and not the function has(). */
static void check_condition(struct name_check *k, const struct origin *at, const char *text, const char *what)
{
    if (text == NULL)
        return;
    for (size_t i = 0; text[i];) {
        if (text[i] == '"') {
            i++;
            while (text[i] && text[i] != '"')
                i += text[i] == '\\' && text[i + 1] ? 2 : 1;
            i += text[i] == '"';
            continue;
        }
        if (!name_char(text[i], 1) || (i > 0 && name_char(text[i - 1], 0))) {
            i++;
            continue;
        }
        size_t j = i;
        while (text[j] && name_char(text[j], 0))
            j++;
        size_t back = i;
        while (back > 0 && text[back - 1] == ' ')
            back--;
        int unit = back > 0 && text[back - 1] >= '0' && text[back - 1] <= '9';
        int call = text[j] == '(';
        if (!unit && !call && !names_has(k->known, text + i, j - i))
            unknown_name(k, at, text, i, j - i, what);
        i = j;
    }
}

static void check_template(struct name_check *k, const struct origin *at, const char *text, const char *what)
{
    if (text == NULL)
        return;
    for (size_t i = 0; text[i]; i++) {
        if (text[i] == '{' && text[i + 1] == '{') {
            i++;
            continue;
        }
        if (text[i] != '{')
            continue;
        const char *end = strchr(text + i, '}');
        if (end == NULL)
            return;
        size_t len = (size_t)(end - text) - i - 1;
        if (!names_has(k->known, text + i + 1, len))
            unknown_name(k, at, text, i + 1, len, what);
        i = (size_t)(end - text);
    }
}

static void check_summaries(struct name_check *k, const struct summary *s, size_t n, const char *what)
{
    for (size_t i = 0; i < n; i++) {
        check_condition(k, &s[i].at, s[i].when_text, what);
        check_template(k, &s[i].at, s[i].text, what);
    }
}

static void check_names(struct od_ruleset *rs, struct selftest_result *res)
{
    struct names known = {0};
    for (size_t i = 0; i < rs->sig_count; i++)
        names_of_pattern(&known, rs->sigs[i]->pattern);
    struct name_check k = {rs, &known, res};
    for (size_t c = 0; c < rs->cause_count; c++) {
        const struct cause *cause = rs->causes[c];
        char what[200];
        snprintf(what, sizeof what, "cause \"%s\"", cause->id);
        check_summaries(&k, cause->summaries, cause->summary_count, what);
        for (size_t v = 0; v < cause->variant_count; v++) {
            const struct variant *var = &cause->variants[v];
            check_condition(&k, &cause->at, var->when_text, what);
            check_summaries(&k, var->summaries, var->summary_count, what);
        }
        for (size_t i = 0; i < cause->step_count; i++) {
            const struct step *st = &cause->steps[i];
            check_condition(&k, &cause->at, st->when_text, what);
            check_condition(&k, &cause->at, st->first_when_text, what);
            check_template(&k, &cause->at, st->action, what);
            check_template(&k, &cause->at, st->detail, what);
        }
    }
    for (size_t i = 0; i < known.n; i++)
        free(known.v[i]);
    free(known.v);
}

/* What the sample checks share: the matcher over the whole rule set, the
 * hit collector, where to report and what to count. */
struct check {
    struct msg_sink *sink;
    struct matcher *m;
    struct hits h;
    struct selftest_result *res;
};

/* The signature's pattern compiles; a risky one is a warning.  Returns -1
 * when it does not compile (its samples are then not tried). */
static int check_pattern(struct check *c, struct sig *sig)
{
    if (matcher_sig_rx(c->m, sig) == NULL) {
        c->res->failures++;
        return -1;
    }
    size_t q = selftest_nested_quantifier(sig->pattern);
    if (q > 0) {
        origin_report(c->sink, OD_SEV_WARNING, &sig->pattern_at, sig->pattern, q - 1,
                      "signature \"%s\": nested unbounded quantifiers can backtrack catastrophically", sig->id);
        c->res->warnings++;
    }
    return 0;
}

/* A "match" sample matches its own signature with the expected fields;
 * matching a root of another cause too is a warning. */
static void check_match_sample(struct check *c, const struct sig *sig, const struct sample *s)
{
    struct hits *h = &c->h;
    size_t len = strlen(s->line);
    char *line = malloc(len + 1);
    if (line == NULL)
        return;
    len = ansi_strip(s->line, len, line);
    line[len] = '\0';
    c->res->samples++;
    h->count = 0;
    h->want = sig;
    h->want_hit = 0;
    fields_init(&h->want_fields);
    match_all(c->m, line, len, h);
    if (!h->want_hit) {
        const char *why = !contains_literal(sig, line) ? "contains none of its literals (fix \"literal\")"
                                                       : "does not match its pattern";
        origin_report(c->sink, OD_SEV_ERROR, &s->at, s->line, 0, "signature \"%s\": sample %s", sig->id, why);
        c->res->failures++;
    } else if (s->fields && check_fields(c->sink, sig, s, &h->want_fields)) {
        c->res->failures++;
    }
    for (size_t j = 0; j < h->count; j++) {
        const struct sig *o = h->sigs[j];
        /* A fallback does not run on a line a specific signature explained. */
        if (o != sig && o->role == OD_ROLE_ROOT && sig->role == OD_ROLE_ROOT && o->cause != sig->cause &&
            !o->fallback && !sig->fallback) {
            origin_report(c->sink, OD_SEV_WARNING, &s->at, NULL, 0,
                          "signature \"%s\": sample also matches \"%s\" of another cause (%s)", sig->id, o->id,
                          o->cause_id);
            c->res->warnings++;
        }
    }
    fields_free(&h->want_fields);
    free(line);
}

/* A "no_match" sample matches no signature at all. */
static void check_no_match(struct check *c, const struct sig *sig, const struct sample *s)
{
    struct hits *h = &c->h;
    c->res->samples++;
    h->count = 0;
    h->want = NULL;
    match_all(c->m, s->line, strlen(s->line), h);
    if (h->count > 0) {
        origin_report(c->sink, OD_SEV_ERROR, &s->at, s->line, 0,
                      "signature \"%s\": no_match sample matches signature \"%s\"", sig->id, h->sigs[0]->id);
        c->res->failures++;
    }
}

/* Each rank source's samples give a rank, the expected one where given. */
static void check_rank_samples(struct check *c, const struct od_ruleset *rs)
{
    for (size_t i = 0; i < rs->rank_count; i++) {
        const struct rank_source *r = rs->ranks[i];
        for (size_t k = 0; k < r->sample_count; k++) {
            const struct sample *s = &r->samples[k];
            int rank = matcher_rank(c->m, r, s->line, strlen(s->line));
            const cJSON *want = s->fields ? cJSON_GetObjectItemCaseSensitive(s->fields, "rank") : NULL;
            c->res->samples++;
            if (rank < 0 || (cJSON_IsNumber(want) && want->valueint != rank)) {
                origin_report(c->sink, OD_SEV_ERROR, &s->at, s->line, 0, "rank source \"%s\": sample gives rank %d%s",
                              r->id, rank, rank < 0 ? " (no match)" : ", not the expected one");
                c->res->failures++;
            }
        }
    }
}

/* Takes the recognised prefixes off LINE one after the other, as the scan
 * does; returns where the rest starts and whether shape P was among them. */
static size_t peel(struct matcher *m, const char *line, const struct line_prefix *p, int *had)
{
    size_t len = strlen(line), off = 0, skip;
    const struct line_prefix *which = NULL;
    *had = 0;
    for (int layer = 0; layer < 8 && (skip = matcher_prefix(m, line + off, len - off, &which)) > 0; layer++) {
        off += skip;
        *had |= which == p;
    }
    return off;
}

/* Each line prefix's match samples start with it (and leave the expected
 * "rest" once every recognised prefix is off); its no_match samples do not. */
static void check_prefix_samples(struct check *c, const struct od_ruleset *rs)
{
    for (size_t i = 0; i < rs->prefix_count; i++) {
        const struct line_prefix *p = rs->prefixes[i];
        for (size_t k = 0; k < p->sample_count; k++) {
            const struct sample *s = &p->samples[k];
            int had;
            size_t off = peel(c->m, s->line, p, &had);
            const cJSON *want = s->fields ? cJSON_GetObjectItemCaseSensitive(s->fields, "rest") : NULL;
            c->res->samples++;
            if (!had) {
                origin_report(c->sink, OD_SEV_ERROR, &s->at, s->line, 0,
                              "line prefix \"%s\": the sample does not start with it", p->id);
                c->res->failures++;
            } else if (cJSON_IsString(want) && strcmp(want->valuestring, s->line + off) != 0) {
                origin_report(c->sink, OD_SEV_ERROR, &s->at, s->line, off,
                              "line prefix \"%s\": the prefixes taken off leave \"%s\", not the expected rest", p->id,
                              s->line + off);
                c->res->failures++;
            }
        }
        for (size_t k = 0; k < p->no_match_count; k++) {
            const struct sample *s = &p->no_match[k];
            int had;
            peel(c->m, s->line, p, &had);
            c->res->samples++;
            if (had) {
                origin_report(c->sink, OD_SEV_ERROR, &s->at, s->line, 0,
                              "line prefix \"%s\": no_match sample is taken for it", p->id);
                c->res->failures++;
            }
        }
    }
}

int selftest_run(struct od_ruleset *rs, int with_builtin, struct selftest_result *res)
{
    struct check c = {&rs->msgs,
                      matcher_create(rs, &rs->msgs),
                      {calloc(rs->sig_count + 1, sizeof(const struct sig *)), 0, NULL, {0, 0, NULL}, 0},
                      res};
    memset(res, 0, sizeof *res);
    if (c.m == NULL || c.h.sigs == NULL) {
        matcher_free(c.m);
        free(c.h.sigs);
        return -1;
    }
    /* The samples, through the whole matching path. */
    for (size_t i = 0; i < rs->sig_count; i++) {
        struct sig *sig = rs->sigs[i];
        if (sig->builtin && !with_builtin)
            continue; /* loaded for its causes and ids, checked on its own */
        res->signatures++;
        if (check_pattern(&c, sig) != 0)
            continue;
        for (size_t k = 0; k < sig->check.sample_count; k++)
            check_match_sample(&c, sig, &sig->check.samples[k]);
        for (size_t k = 0; k < sig->check.no_match_count; k++)
            check_no_match(&c, sig, &sig->check.no_match[k]);
    }
    check_rank_samples(&c, rs);
    check_prefix_samples(&c, rs);
    free(c.h.sigs);
    matcher_free(c.m);
    /* The translations, then the names conditions and templates use. */
    if (translate_load_builtin(rs, NULL) != 0)
        res->failures++;
    res->warnings += translate_check(rs);
    check_names(rs, res);
    struct lint_counts lint;
    lint_rules(rs, with_builtin, &lint);
    res->failures += lint.errors;
    res->warnings += lint.warnings;
    return res->failures ? -1 : 0;
}
