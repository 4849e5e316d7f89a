/* Evidence fields: a small named-value list (struct od_fields).
 * A list owns its names and strings; fields_free releases them. */
#ifndef OOMDIAG_FIELDS_H
#define OOMDIAG_FIELDS_H

#include "oomdiag/oomdiag.h"

void fields_init(struct od_fields *f);
void fields_free(struct od_fields *f);
/* Sets (replacing any field of that name). 0, or -1 when out of memory. */
int fields_set_num(struct od_fields *f, const char *name, enum od_field_type type, long long num);
int fields_set_str(struct od_fields *f, const char *name, const char *str, size_t len);
const struct od_field *fields_get(const struct od_fields *f, const char *name);
/* Adds every field of SRC that DST lacks. 0 or -1. */
int fields_merge_missing(struct od_fields *dst, const struct od_fields *src);
int fields_copy(struct od_fields *dst, const struct od_fields *src);

#endif
