#include "selftest.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ansi.h"
#include "fields.h"
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

static int on_hit(void *ctx, const struct sig *sig, const struct od_fields *fields)
{
    struct hits *h = ctx;
    if ((sig->role != OD_ROLE_PROGRESS && sig->role != OD_ROLE_CONTEXT && sig->role != OD_ROLE_ERROR) || h->want == sig)
        h->sigs[h->count++] = sig;
    if (sig == h->want) {
        h->want_hit = 1;
        fields_copy(&h->want_fields, fields);
    }
    return 0;
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

int selftest_run(struct od_ruleset *rs, int with_builtin, struct selftest_result *res)
{
    struct msg_sink *sink = &rs->msgs;
    struct matcher *m = matcher_create(rs, sink);
    struct hits h = {calloc(rs->sig_count + 1, sizeof *h.sigs), 0, NULL, {0, 0, NULL}, 0};
    memset(res, 0, sizeof *res);
    if (m == NULL || h.sigs == NULL) {
        matcher_free(m);
        free(h.sigs);
        return -1;
    }
    for (size_t i = 0; i < rs->sig_count; i++) {
        struct sig *sig = rs->sigs[i];
        if (sig->builtin && !with_builtin)
            continue; /* loaded for its causes and ids, checked on its own */
        res->signatures++;
        if (sig_compile(sig, sink) != 0) {
            res->failures++;
            continue;
        }
        size_t q = selftest_nested_quantifier(sig->pattern);
        if (q > 0) {
            origin_report(sink, OD_SEV_WARNING, &sig->pattern_at, sig->pattern, q - 1,
                          "signature \"%s\": nested unbounded quantifiers can backtrack catastrophically", sig->id);
            res->warnings++;
        }
        for (size_t k = 0; k < sig->sample_count; k++) {
            const struct sample *s = &sig->samples[k];
            size_t len = strlen(s->line);
            char *line = malloc(len + 1);
            if (line == NULL)
                continue;
            len = ansi_strip(s->line, len, line);
            line[len] = '\0';
            res->samples++;
            h.count = 0;
            h.want = sig;
            h.want_hit = 0;
            fields_init(&h.want_fields);
            matcher_line(m, line, len, MATCHER_ALL_HITS, on_hit, &h);
            if (!h.want_hit) {
                const char *why = !contains_literal(sig, line) ? "contains none of its literals (fix \"literal\")"
                                                               : "does not match its pattern";
                origin_report(sink, OD_SEV_ERROR, &s->at, s->line, 0, "signature \"%s\": sample %s", sig->id, why);
                res->failures++;
            } else if (s->fields && check_fields(sink, sig, s, &h.want_fields)) {
                res->failures++;
            }
            for (size_t j = 0; j < h.count; j++) {
                const struct sig *o = h.sigs[j];
                if (o != sig && o->role == OD_ROLE_ROOT && sig->role == OD_ROLE_ROOT && o->cause != sig->cause) {
                    origin_report(sink, OD_SEV_WARNING, &s->at, NULL, 0,
                                  "signature \"%s\": sample also matches \"%s\" of another cause (%s)", sig->id, o->id,
                                  o->cause_id);
                    res->warnings++;
                }
            }
            fields_free(&h.want_fields);
            free(line);
        }
        for (size_t k = 0; k < sig->no_match_count; k++) {
            const struct sample *s = &sig->no_match[k];
            res->samples++;
            h.count = 0;
            h.want = NULL;
            matcher_line(m, s->line, strlen(s->line), MATCHER_ALL_HITS, on_hit, &h);
            if (h.count > 0) {
                origin_report(sink, OD_SEV_ERROR, &s->at, s->line, 0,
                              "signature \"%s\": no_match sample matches signature \"%s\"", sig->id, h.sigs[0]->id);
                res->failures++;
            }
        }
    }
    for (size_t i = 0; i < rs->rank_count; i++) {
        const struct rank_source *r = rs->ranks[i];
        for (size_t k = 0; k < r->sample_count; k++) {
            const struct sample *s = &r->samples[k];
            int rank = matcher_rank(m, r, s->line, strlen(s->line));
            const cJSON *want = s->fields ? cJSON_GetObjectItemCaseSensitive(s->fields, "rank") : NULL;
            res->samples++;
            if (rank < 0 || (cJSON_IsNumber(want) && want->valueint != rank)) {
                origin_report(sink, OD_SEV_ERROR, &s->at, s->line, 0, "rank source \"%s\": sample gives rank %d%s",
                              r->id, rank, rank < 0 ? " (no match)" : ", not the expected one");
                res->failures++;
            }
        }
    }
    fields_free(&h.want_fields);
    free(h.sigs);
    matcher_free(m);
    if (translate_load_builtin(rs, NULL) != 0)
        res->failures++;
    res->warnings += translate_check(rs);
    return res->failures ? -1 : 0;
}
