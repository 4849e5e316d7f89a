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

static void put_condition(FILE *out, const char *label, const char *text)
{
    if (text != NULL)
        fprintf(out, "       (%s %s)\n", label, text);
}

int catalog_explain(FILE *out, const struct od_ruleset *rs, const char *id)
{
    const struct cause *c = ruleset_cause(rs, id);
    if (c == NULL)
        return -1;
    fprintf(out, "%s: %s\n\n%s\n", c->id, c->title, c->explanation);
    if (c->variant_count > 0) {
        fputs("\nVariants (the first whose condition holds):\n", out);
        for (size_t i = 0; i < c->variant_count; i++) {
            const struct variant *v = &c->variants[i];
            fprintf(out, "  %s%s%s\n", v->id, v->when_text ? ": when " : " (otherwise)",
                    v->when_text ? v->when_text : "");
            for (size_t k = 0; k < v->first_count; k++)
                fprintf(out, "    puts first: %s\n", v->first[k]);
        }
    }
    fputs("\nRemediation, in default order:\n", out);
    for (size_t i = 0; i < c->step_count; i++) {
        const struct step *st = &c->steps[i];
        fprintf(out, "  %zu. %s\n", i + 1, st->action);
        if (st->detail)
            fprintf(out, "       %s\n", st->detail);
        put_condition(out, "only when", st->when_text);
        put_condition(out, "moved first when", st->first_when_text);
    }
    size_t n = 0;
    for (size_t i = 0; i < rs->sig_count; i++)
        n += rs->sigs[i]->cause == c;
    fprintf(out, "\nSignatures (%zu):", n);
    for (size_t i = 0; i < rs->sig_count; i++)
        if (rs->sigs[i]->cause == c)
            fprintf(out, " %s", rs->sigs[i]->id);
    fputc('\n', out);
    return 0;
}
