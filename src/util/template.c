#include "template.h"

#include <stdlib.h>
#include <string.h>

#include "textsafe.h"

/* An expanded text is at most this long (a rule's summary is a sentence). */
enum { TEMPLATE_MAX_TEXT = 1024 * 1024 };

int template_check(const char *tpl, size_t *err_off)
{
    for (size_t i = 0; tpl[i]; i++) {
        if (tpl[i] == '{' && tpl[i + 1] == '{') {
            i++;
        } else if (tpl[i] == '}' && tpl[i + 1] == '}') {
            i++;
        } else if (tpl[i] == '{') {
            const char *end = strchr(tpl + i, '}');
            if (end == NULL || end == tpl + i + 1 || (size_t)(end - tpl - i) > 64) {
                *err_off = i;
                return -1;
            }
            i = (size_t)(end - tpl);
        } else if (tpl[i] == '}') {
            *err_off = i;
            return -1;
        }
    }
    return 0;
}

enum { VALUE_MAX = 256 }; /* what a lookup is given for one value */

/* The expansion: in a buffer on the caller's stack while it fits (any
 * summary or step does), then on the heap; at most TEMPLATE_MAX_TEXT. */
struct out {
    char *data;
    size_t len, cap;
    int heap;
};

/* Room for N more bytes and a NUL. 0, or -1 when out of memory or too long. */
static int room(struct out *o, size_t n)
{
    if (n > TEMPLATE_MAX_TEXT - o->len)
        return -1;
    if (o->len + n + 1 <= o->cap)
        return 0;
    size_t cap = o->cap * 2;
    while (cap < o->len + n + 1)
        cap *= 2;
    char *d = realloc(o->heap ? o->data : NULL, cap);
    if (d == NULL)
        return -1;
    if (!o->heap)
        memcpy(d, o->data, o->len);
    o->data = d;
    o->cap = cap;
    o->heap = 1;
    return 0;
}

static int put(struct out *o, const char *s, size_t n)
{
    if (room(o, n) != 0)
        return -1;
    memcpy(o->data + o->len, s, n);
    o->len += n;
    return 0;
}

/* One pass: text and escaped braces are copied, each placeholder is looked
 * up as it comes, and a syntax error (what template_check reports) ends
 * the expansion with NULL. */
char *template_expand(const char *tpl, template_lookup_fn lookup, void *ctx)
{
    char stack[2048];
    struct out o = {stack, 0, sizeof stack, 0};
    for (const char *p = tpl; *p;) {
        size_t n = strcspn(p, "{}");
        if (n > 0) {
            if (put(&o, p, n) != 0)
                goto fail;
            p += n;
        } else if (p[1] == p[0]) { /* "{{" or "}}" */
            if (put(&o, p, 1) != 0)
                goto fail;
            p += 2;
        } else if (*p == '}') {
            goto fail;
        } else {
            const char *end = strchr(p, '}');
            char name[72];
            if (end == NULL || end == p + 1 || (size_t)(end - p) > 64)
                goto fail;
            n = (size_t)(end - p - 1);
            memcpy(name, p + 1, n);
            name[n] = '\0';
            /* The lookup writes straight into the expansion (near the
             * ceiling, into VAL first); a value longer than VALUE_MAX is
             * cut at a byte: drop a character cut short. */
            char val[VALUE_MAX];
            char *v = room(&o, VALUE_MAX) == 0 ? o.data + o.len : val;
            v[0] = '\0';
            if (lookup(ctx, name, v, VALUE_MAX) != 0)
                goto fail;
            n = textsafe_utf8_cut(v, strlen(v), VALUE_MAX);
            if (v != val)
                o.len += n;
            else if (put(&o, val, n) != 0)
                goto fail;
            p = end + 1;
        }
    }
    char *text = malloc(o.len + 1);
    if (text != NULL) {
        memcpy(text, o.data, o.len);
        text[o.len] = '\0';
    }
    if (o.heap)
        free(o.data);
    return text;
fail:
    if (o.heap)
        free(o.data);
    return NULL;
}
