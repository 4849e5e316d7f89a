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

char *template_expand(const char *tpl, template_lookup_fn lookup, void *ctx)
{
    struct buf o;
    size_t bad;
    buf_init(&o, TEMPLATE_MAX_TEXT);
    if (template_check(tpl, &bad) != 0 || buf_add(&o, "", 0) != 0)
        goto fail;
    for (size_t i = 0; tpl[i];) {
        if ((tpl[i] == '{' && tpl[i + 1] == '{') || (tpl[i] == '}' && tpl[i + 1] == '}')) {
            if (buf_add(&o, tpl + i, 1) != 0)
                goto fail;
            i += 2;
        } else if (tpl[i] == '{') {
            const char *end = strchr(tpl + i, '}');
            char name[72], val[256];
            size_t n = (size_t)(end - tpl - i - 1);
            memcpy(name, tpl + i + 1, n);
            name[n] = '\0';
            /* a value longer than VAL is cut at a byte: drop a character cut short */
            if (lookup(ctx, name, val, sizeof val) != 0 ||
                buf_add(&o, val, textsafe_utf8_cut(val, strlen(val), sizeof val)) != 0)
                goto fail;
            i += n + 2;
        } else {
            size_t n = strcspn(tpl + i, "{}");
            if (n == 0)
                n = 1;
            if (buf_add(&o, tpl + i, n) != 0)
                goto fail;
            i += n;
        }
    }
    return buf_take(&o, NULL);
fail:
    buf_free(&o);
    return NULL;
}
