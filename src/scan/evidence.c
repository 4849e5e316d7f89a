#include "evidence.h"

#include <ctype.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "size.h"

int evidence_int(const char *s, size_t len, long long *out)
{
    size_t i = 0;
    int neg = 0;
    long long v = 0;
    if (i < len && (s[i] == '-' || s[i] == '+'))
        neg = s[i++] == '-';
    if (i == len)
        return -1;
    for (; i < len; i++) {
        int d = s[i] - '0';
        if (!isdigit((unsigned char)s[i]) || v > (LLONG_MAX - d) / 10)
            return -1; /* not a number, or past what a long long holds */
        v = v * 10 + d;
    }
    *out = neg ? -v : v;
    return 0;
}

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && strcmp(s + n - k, suffix) == 0;
}

int evidence_capture(void *ctx, const char *name, const char *value, size_t len)
{
    struct od_fields *f = ctx;
    long long num = 0;
    if (ends_with(name, EVIDENCE_BYTES_SUFFIX)) {
        if (size_parse(value, len, &num) == 0)
            return fields_set_num(f, name, OD_FIELD_BYTES, num);
        return 0; /* an unparsable size is left out, not guessed */
    }
    if (evidence_int(value, len, &num) == 0)
        return fields_set_num(f, name, OD_FIELD_INT, num);
    return fields_set_str(f, name, value, len);
}

/* "[32,1024,1024]", "(32, 1024)", "32x1024": the product of the dims. */
static long long shape_elements(const char *shape)
{
    long long n = 1;
    int dims = 0;
    for (const char *p = shape; *p;) {
        if (isdigit((unsigned char)*p)) {
            long long d = strtoll(p, (char **)&p, 10);
            if (d < 0 || (d > 0 && n > (long long)9e18 / d))
                return -1;
            n *= d;
            dims++;
        } else {
            p++;
        }
    }
    return dims ? n : -1;
}

void evidence_derive(const struct od_ruleset *rs, struct od_fields *f)
{
    const struct od_field *shape = fields_get(f, EVIDENCE_SHAPE), *dtype = fields_get(f, EVIDENCE_DTYPE);
    if (shape == NULL || dtype == NULL || fields_get(f, EVIDENCE_REQUESTED_BYTES) != NULL)
        return;
    if (shape->type != OD_FIELD_STRING || dtype->type != OD_FIELD_STRING)
        return;
    long long n = shape_elements(shape->str), size = ruleset_dtype_size(rs, dtype->str);
    if (n >= 0 && size > 0 && n <= (long long)9e18 / size)
        fields_set_num(f, EVIDENCE_REQUESTED_BYTES, OD_FIELD_BYTES, n * size);
}

int evidence_rank(const struct od_fields *f)
{
    const struct od_field *r = fields_get(f, EVIDENCE_RANK);
    return r != NULL && r->type == OD_FIELD_INT && r->num >= 0 && r->num < EVIDENCE_RANK_MAX ? (int)r->num : -1;
}
