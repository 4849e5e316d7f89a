#include "template.h"

#include <stdlib.h>
#include <string.h>

struct out {
    char *buf;
    size_t len, cap;
};

static int put(struct out *o, const char *s, size_t n)
{
    if (o->len + n + 1 > o->cap) {
        size_t cap = (o->cap ? o->cap * 2 : 128);
        while (cap < o->len + n + 1)
            cap *= 2;
        char *b = realloc(o->buf, cap);
        if (b == NULL)
            return -1;
        o->buf = b;
        o->cap = cap;
    }
    memcpy(o->buf + o->len, s, n);
    o->len += n;
    o->buf[o->len] = '\0';
    return 0;
}

/* VAL's length without a UTF-8 sequence cut short at its end (a value
 * longer than the lookup's buffer is cut at a byte, not a character). */
static size_t utf8_whole(const char *val)
{
    size_t n = strlen(val), k = n, cont = 0;
    while (k > 0 && cont < 3 && ((unsigned char)val[k - 1] & 0xc0) == 0x80) {
        k--;
        cont++;
    }
    if (k == 0)
        return n;
    unsigned char lead = (unsigned char)val[k - 1];
    size_t want = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
    return want > cont + 1 ? k - 1 : n;
}

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
    struct out o = {NULL, 0, 0};
    size_t bad;
    if (template_check(tpl, &bad) != 0 || put(&o, "", 0) != 0)
        goto fail;
    for (size_t i = 0; tpl[i];) {
        if ((tpl[i] == '{' && tpl[i + 1] == '{') || (tpl[i] == '}' && tpl[i + 1] == '}')) {
            if (put(&o, tpl + i, 1) != 0)
                goto fail;
            i += 2;
        } else if (tpl[i] == '{') {
            const char *end = strchr(tpl + i, '}');
            char name[72], val[256];
            size_t n = (size_t)(end - tpl - i - 1);
            memcpy(name, tpl + i + 1, n);
            name[n] = '\0';
            if (lookup(ctx, name, val, sizeof val) != 0 || put(&o, val, utf8_whole(val)) != 0)
                goto fail;
            i += n + 2;
        } else {
            size_t n = strcspn(tpl + i, "{}");
            if (n == 0)
                n = 1;
            if (put(&o, tpl + i, n) != 0)
                goto fail;
            i += n;
        }
    }
    return o.buf;
fail:
    free(o.buf);
    return NULL;
}
