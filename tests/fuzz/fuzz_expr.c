/* libFuzzer: the condition language of rule files (expr.h).  The first
 * line is a condition; each line after it gives a field, "NAME=VALUE" (a
 * number when VALUE is one, else a string) or "NAME" alone (no value).
 * Checks: a condition that does not parse has a message and an offset
 * inside the text; one that parses evaluates to 0 or 1, the same every
 * time, and to the same with and without the fields being asked for
 * twice; nesting and length stay bounded (a stack overflow is an ASan
 * report). */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expr.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum { FIELDS_MAX = 16 };

struct env {
    struct {
        char *name;
        struct expr_value v;
    } f[FIELDS_MAX];
    size_t count;
    size_t lookups;
};

static void check(int ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "fuzz_expr: broken promise: %s\n", what);
        abort();
    }
}

static void lookup(void *ctx, const char *name, struct expr_value *out)
{
    struct env *env = ctx;
    check(name != NULL, "a lookup of no name");
    env->lookups++;
    out->type = EXPR_UNDEF;
    for (size_t i = 0; i < env->count; i++)
        if (strcmp(env->f[i].name, name) == 0) {
            *out = env->f[i].v;
            return;
        }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    check(text != NULL, "out of memory");
    memcpy(text, data, size);
    text[size] = '\0';
    struct env env = {0};
    char *nl = strchr(text, '\n');
    if (nl != NULL) {
        *nl = '\0';
        for (char *line = nl + 1; line != NULL && env.count < FIELDS_MAX;) {
            char *next = strchr(line, '\n');
            if (next != NULL)
                *next++ = '\0';
            char *eq = strchr(line, '=');
            env.f[env.count].name = line;
            env.f[env.count].v.type = EXPR_UNDEF;
            if (eq != NULL) {
                *eq = '\0';
                char *end = NULL;
                double d = strtod(eq + 1, &end);
                if (end != eq + 1 && *end == '\0') {
                    env.f[env.count].v.type = EXPR_NUM;
                    env.f[env.count].v.num = d;
                } else {
                    env.f[env.count].v.type = EXPR_STR;
                    env.f[env.count].v.str = eq + 1;
                }
            }
            env.count++;
            line = next;
        }
    }
    const char *err = NULL;
    size_t off = (size_t)-1;
    struct expr *e = expr_parse(text, &err, &off);
    if (e == NULL) {
        check(err != NULL && err[0] != '\0', "a parse error without a message");
        check(off <= strlen(text), "a parse error's offset outside the text");
    } else {
        int a = expr_eval(e, lookup, &env);
        int b = expr_eval(e, lookup, &env);
        check(a == 0 || a == 1, "a condition is neither true nor false");
        check(a == b, "a condition changed its mind");
        expr_free(e);
    }
    free(text);
    return 0;
}
