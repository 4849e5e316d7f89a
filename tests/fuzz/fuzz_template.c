/* libFuzzer: the text templates of rule files (template.h).  The first
 * line is a template; each line after it gives a value, "NAME=VALUE" (a
 * value of up to 64 KiB: the lookup cuts it at its buffer's size, at a
 * byte, as fields of any length are).  Checks: template_check and
 * template_expand agree on the syntax (with every name given a value,
 * expand fails exactly where check does); a name without a value makes
 * the expansion NULL; the expansion is no longer than the template plus
 * a buffer per placeholder; when the template and the values are valid
 * UTF-8 the expansion is too (no character cut in half). */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "template.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum { VALUES_MAX = 16 };

struct env {
    const char *name[VALUES_MAX], *value[VALUES_MAX];
    size_t count;
    int fallback; /* a name without a value gets its own name */
    size_t calls, bufsize;
};

static void check(int ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "fuzz_template: broken promise: %s\n", what);
        abort();
    }
}

static int utf8_ok(const unsigned char *p, size_t n)
{
    for (size_t i = 0; i < n;) {
        unsigned c = p[i];
        size_t k = c < 0x80 ? 1 : (c & 0xe0) == 0xc0 ? 2 : (c & 0xf0) == 0xe0 ? 3 : (c & 0xf8) == 0xf0 ? 4 : 0;
        if (k == 0 || i + k > n || (k == 2 && c < 0xc2) || c > 0xf4)
            return 0;
        for (size_t j = 1; j < k; j++)
            if ((p[i + j] & 0xc0) != 0x80)
                return 0;
        i += k;
    }
    return 1;
}

static int lookup(void *ctx, const char *name, char *buf, size_t bufsize)
{
    struct env *env = ctx;
    env->calls++;
    env->bufsize = bufsize;
    check(strlen(name) > 0 && strlen(name) <= 64, "a placeholder name of a bad length");
    check(strchr(name, '}') == NULL, "a closing brace in a placeholder name");
    for (size_t i = 0; i < env->count; i++)
        if (strcmp(env->name[i], name) == 0) {
            snprintf(buf, bufsize, "%s", env->value[i]); /* cut at a byte */
            return 0;
        }
    if (!env->fallback)
        return -1;
    snprintf(buf, bufsize, "%s", "v");
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    check(text != NULL, "out of memory");
    memcpy(text, data, size);
    text[size] = '\0';
    struct env env = {0};
    char *nl = strchr(text, '\n');
    int values_utf8 = 1;
    if (nl != NULL) {
        *nl = '\0';
        for (char *line = nl + 1; line != NULL && env.count < VALUES_MAX;) {
            char *next = strchr(line, '\n');
            if (next != NULL)
                *next++ = '\0';
            char *eq = strchr(line, '=');
            if (eq != NULL) {
                *eq = '\0';
                env.name[env.count] = line;
                env.value[env.count] = eq + 1;
                values_utf8 &= utf8_ok((const unsigned char *)eq + 1, strlen(eq + 1));
                env.count++;
            }
            line = next;
        }
    }
    size_t tlen = strlen(text), err_off = (size_t)-1;
    int syntax_ok = template_check(text, &err_off) == 0;
    if (!syntax_ok)
        check(err_off < tlen, "a syntax error outside the template");
    env.fallback = 1;
    char *all = template_expand(text, lookup, &env);
    /* (a template of over 8 KiB may expand past TEMPLATE_MAX_TEXT) */
    check((all != NULL) == syntax_ok || (all == NULL && tlen > 8192), "template_check and template_expand disagree");
    if (all != NULL) {
        size_t n = strlen(all);
        check(n <= tlen + env.calls * (env.bufsize ? env.bufsize : 1), "an expansion longer than its parts");
        if (values_utf8 && utf8_ok((const unsigned char *)text, tlen))
            check(utf8_ok((const unsigned char *)all, n), "a character cut in half");
        free(all);
    }
    env.fallback = 0;
    env.calls = 0;
    char *some = template_expand(text, lookup, &env);
    if (some != NULL) {
        check(syntax_ok, "an expansion of a bad template");
        free(some);
    }
    free(text);
    return 0;
}
