#include "template.h"

#include <stdlib.h>
#include <string.h>

#include "buf.h"
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

/* One pass: text and escaped braces are copied, each placeholder is looked
 * up as it comes, and a syntax error (what template_check reports) ends
 * the expansion with NULL. */
char *template_expand(const char *tpl, template_lookup_fn lookup, void *ctx)
{
    struct buf o;
    buf_init(&o, TEMPLATE_MAX_TEXT);
    /* Room for the text and a value from the start. */
    if (buf_reserve(&o, strlen(tpl) + VALUE_MAX) != 0)
        goto fail;
    for (const char *p = tpl; *p;) {
        size_t n = strcspn(p, "{}");
        if (n > 0) {
            if (buf_add(&o, p, n) != 0)
                goto fail;
            p += n;
        } else if (p[1] == p[0]) { /* "{{" or "}}" */
            if (buf_add(&o, p, 1) != 0)
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
            /* The lookup writes straight into the expansion; a value longer
             * than VALUE_MAX is cut at a byte: drop a character cut short. */
            if (buf_reserve(&o, VALUE_MAX) != 0)
                goto fail;
            char *val = o.data + o.len;
            val[0] = '\0';
            if (lookup(ctx, name, val, VALUE_MAX) != 0)
                goto fail;
            o.len += textsafe_utf8_cut(val, strlen(val), VALUE_MAX);
            o.data[o.len] = '\0';
            p = end + 1;
        }
    }
    return buf_take(&o, NULL);
fail:
    buf_free(&o);
    return NULL;
}
