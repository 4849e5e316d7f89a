#include "catalog.h"

#include <string.h>

#include "ruleset.h"

void catalog_list(FILE *out, const struct od_ruleset *rs)
{
    fprintf(out, "%-44s %-18s %-13s %s\n", "SIGNATURE", "CAUSE", "ROLE", "FRAMEWORK");
    for (size_t i = 0; i < rs->sig_count; i++) {
        const struct sig *s = rs->sigs[i];
        fprintf(out, "%-44s %-18s %-13s %s\n", s->id, s->cause_id ? s->cause_id : "-", od_role_name(s->role),
                s->framework ? s->framework : "-");
    }
}

int catalog_has_cause(const struct od_ruleset *rs, const char *id)
{
    return ruleset_cause(rs, id) != NULL;
}

static void put_word(FILE *out, const struct od_words *words, enum od_word w, const char *arg)
{
    words_put(out, words, w, arg ? 1 : 0, &arg);
}

static void put_condition(FILE *out, const struct od_words *words, enum od_word w, const char *text)
{
    if (text == NULL)
        return;
    fputs("       ", out);
    put_word(out, words, w, text);
    fputc('\n', out);
}

int catalog_explain(FILE *out, const struct od_ruleset *rs, const struct od_words *words, const char *id)
{
    const struct cause *c = ruleset_cause(rs, id);
    if (c == NULL)
        return -1;
    fprintf(out, "%s: %s\n\n%s\n", c->id, c->title, c->explanation);
    if (c->variant_count > 0) {
        fputc('\n', out);
        put_word(out, words, W_EXPLAIN_VARIANTS, NULL);
        fputc('\n', out);
        for (size_t i = 0; i < c->variant_count; i++) {
            const struct variant *v = &c->variants[i];
            fprintf(out, "  %s", v->id);
            if (v->title != NULL)
                fprintf(out, " (%s)", v->title);
            fputs(v->when_text ? ": " : " ", out);
            if (v->when_text)
                put_word(out, words, W_EXPLAIN_WHEN, v->when_text);
            else
                put_word(out, words, W_EXPLAIN_OTHERWISE, NULL);
            fputc('\n', out);
            for (size_t k = 0; k < v->first_count; k++) {
                fputs("    ", out);
                put_word(out, words, W_EXPLAIN_PUTS_FIRST, v->first[k]);
                fputc('\n', out);
            }
        }
    }
    fputc('\n', out);
    put_word(out, words, W_EXPLAIN_REMEDIATION, NULL);
    fputc('\n', out);
    for (size_t i = 0; i < c->step_count; i++) {
        const struct step *st = &c->steps[i];
        fprintf(out, "  %zu. %s\n", i + 1, st->action);
        if (st->detail)
            fprintf(out, "       %s\n", st->detail);
        put_condition(out, words, W_EXPLAIN_ONLY_WHEN, st->when_text);
        put_condition(out, words, W_EXPLAIN_MOVED_FIRST, st->first_when_text);
    }
    size_t n = 0;
    char count[32];
    for (size_t i = 0; i < rs->sig_count; i++)
        n += rs->sigs[i]->cause == c;
    snprintf(count, sizeof count, "%zu", n);
    fputc('\n', out);
    put_word(out, words, W_EXPLAIN_SIGNATURES, count);
    for (size_t i = 0; i < rs->sig_count; i++)
        if (rs->sigs[i]->cause == c)
            fprintf(out, " %s", rs->sigs[i]->id);
    fputc('\n', out);
    return 0;
}
