/* Conditions in rule files ("when", "first_when"): parse once, evaluate
 * many times against a diagnosis's fields.  An expr is owned by whoever
 * parsed it and released with expr_free.  Grammar: docs/rules.md. */
#ifndef OOMDIAG_EXPR_H
#define OOMDIAG_EXPR_H

#include <stddef.h>

enum expr_vtype { EXPR_UNDEF, EXPR_NUM, EXPR_STR };
struct expr_value {
    enum expr_vtype type;
    double num;
    const char *str; /* borrowed */
};
/* Looks NAME up; sets *out (type EXPR_UNDEF when it has no value). */
typedef void (*expr_lookup_fn)(void *ctx, const char *name, struct expr_value *out);

struct expr;
/* Parses TEXT. On error returns NULL, sets *err to a static message and
 * *err_off to the byte offset of the problem in TEXT. */
struct expr *expr_parse(const char *text, const char **err, size_t *err_off);
/* True (1) or false (0). */
int expr_eval(const struct expr *e, expr_lookup_fn lookup, void *ctx);
void expr_free(struct expr *e);

#endif
