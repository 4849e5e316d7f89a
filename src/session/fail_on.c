#include "fail_on.h"

#include <stdlib.h>
#include <string.h>

#include "api.h"

int fail_on_parse(struct fail_on *f, const char *text, fail_on_known_fn known, const void *ctx, const char **bad)
{
    memset(f, 0, sizeof *f);
    f->min_confidence = OD_CONF_LOW;
    *bad = NULL;
    size_t items = 1;
    for (const char *p = text; *p; p++)
        items += *p == ',';
    f->text = strdup(text);
    f->causes = malloc(items * sizeof *f->causes);
    if (f->text == NULL || f->causes == NULL)
        return -1;
    for (char *save = NULL, *tok = strtok_r(f->text, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        int level = od_confidence_from_name(tok);
        if (level >= 0) {
            f->min_confidence = (enum od_confidence)level;
        } else if (known(ctx, tok)) {
            f->causes[f->cause_count++] = tok;
        } else {
            *bad = tok;
            return -1;
        }
    }
    return 0;
}

int fail_on_counts(const struct fail_on *f, const struct od_diagnosis *d)
{
    if (d->role != OD_ROLE_ROOT)
        return 0;
    if (f == NULL)
        return 1;
    if (d->confidence < f->min_confidence)
        return 0;
    for (size_t i = 0; i < f->cause_count; i++)
        if (strcmp(f->causes[i], d->cause) == 0)
            return 1;
    return f->cause_count == 0;
}

void fail_on_free(struct fail_on *f)
{
    free(f->text);
    free(f->causes);
    f->text = NULL;
    f->causes = NULL;
    f->cause_count = 0;
}
