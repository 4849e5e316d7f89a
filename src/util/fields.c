#include "fields.h"

#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "textsafe.h"

enum { FIELD_STR_MAX = 1024 };

void fields_init(struct od_fields *f)
{
    f->count = 0;
    f->cap = 0;
    f->items = NULL;
}

void fields_free(struct od_fields *f)
{
    for (size_t i = 0; i < f->count; i++) {
        free(f->items[i].name);
        free(f->items[i].str);
    }
    free(f->items);
    fields_init(f);
}

/* F's field NAME, or NULL.  The first bytes are compared here, the rest
 * only when they agree: most names differ at once. */
static struct od_field *find(const struct od_fields *f, const char *name)
{
    char c = name[0];
    for (size_t i = 0; i < f->count; i++) {
        const char *n = f->items[i].name;
        if (n[0] == c && (c == '\0' || strcmp(n + 1, name + 1) == 0))
            return &f->items[i];
    }
    return NULL;
}

static struct od_field *slot(struct od_fields *f, const char *name)
{
    struct od_field *have = find(f, name);
    if (have != NULL) {
        free(have->str);
        have->str = NULL;
        return have;
    }
    struct od_field *items = grow(f->items, &f->cap, f->count, sizeof *items, 4);
    if (items == NULL)
        return NULL;
    f->items = items;
    struct od_field *fd = &f->items[f->count];
    fd->name = strdup(name);
    if (fd->name == NULL)
        return NULL;
    fd->str = NULL;
    fd->num = 0;
    f->count++;
    return fd;
}

int fields_set_num(struct od_fields *f, const char *name, enum od_field_type type, long long num)
{
    struct od_field *fd = slot(f, name);
    if (fd == NULL)
        return -1;
    fd->type = type;
    fd->num = num;
    return 0;
}

int fields_set_str(struct od_fields *f, const char *name, const char *str, size_t len)
{
    struct od_field *fd = slot(f, name);
    if (fd == NULL)
        return -1;
    fd->type = OD_FIELD_STRING;
    /* Captured from a log: kept as safe text (valid UTF-8, no control
     * characters) and bounded, since it reaches summaries and JSON. */
    fd->str = textsafe_dup(str, len, FIELD_STR_MAX);
    return fd->str ? 0 : -1;
}

const struct od_field *fields_get(const struct od_fields *f, const char *name)
{
    return find(f, name);
}

int fields_merge_missing(struct od_fields *dst, const struct od_fields *src)
{
    for (size_t i = 0; i < src->count; i++) {
        const struct od_field *s = &src->items[i];
        if (fields_get(dst, s->name) != NULL)
            continue;
        int rc = s->type == OD_FIELD_STRING ? fields_set_str(dst, s->name, s->str, strlen(s->str))
                                            : fields_set_num(dst, s->name, s->type, s->num);
        if (rc != 0)
            return -1;
    }
    return 0;
}

int fields_copy(struct od_fields *dst, const struct od_fields *src)
{
    fields_init(dst);
    if (src->count == 0)
        return 0;
    /* SRC's names are distinct already: each is appended, with no search. */
    if ((dst->items = malloc(src->count * sizeof *dst->items)) == NULL)
        return -1;
    dst->cap = src->count;
    for (size_t i = 0; i < src->count; i++) {
        const struct od_field *s = &src->items[i];
        struct od_field *d = &dst->items[i];
        *d = (struct od_field){strdup(s->name), s->type, s->num, NULL};
        if (d->name == NULL)
            return -1;
        dst->count++;
        if (s->type == OD_FIELD_STRING && (d->str = textsafe_dup(s->str, strlen(s->str), FIELD_STR_MAX)) == NULL)
            return -1;
    }
    return 0;
}
