#include "expr.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "expr_node.h"
#include "size.h"

struct parser {
    const char *s;
    size_t pos;
    const char *err;
    size_t err_off;
    int depth;
    size_t ops; /* binary operators so far */
};

/* A chain of binary operators is a tree as deep as it is long, which
 * evaluating and freeing walk recursively: both are bounded. */
enum { EXPR_MAX_DEPTH = 64, EXPR_MAX_OPS = 1000 };

static struct expr *parse_or(struct parser *p);

static void skip_ws(struct parser *p)
{
    while (isspace((unsigned char)p->s[p->pos]))
        p->pos++;
}

static int fail(struct parser *p, const char *msg)
{
    if (p->err == NULL) {
        p->err = msg;
        p->err_off = p->pos;
    }
    return 0;
}

static struct expr *node(enum node_kind kind)
{
    struct expr *e = calloc(1, sizeof *e);
    if (e != NULL)
        e->kind = kind;
    return e;
}

static int accept(struct parser *p, const char *tok)
{
    size_t n = strlen(tok);
    skip_ws(p);
    if (strncmp(p->s + p->pos, tok, n) != 0)
        return 0;
    p->pos += n;
    return 1;
}

static int is_name_char(int c)
{
    return isalnum(c) || c == '_' || c == '.';
}

/* A node of KIND holding the N bytes at S, or NULL (reported). */
static struct expr *text_node(struct parser *p, enum node_kind kind, const char *s, size_t n)
{
    struct expr *e = node(kind);
    if (e == NULL || (e->text = strndup(s, n)) == NULL) {
        free(e);
        fail(p, "out of memory");
        return NULL;
    }
    return e;
}

/* E, when the closing parenthesis follows; else NULL (MSG reported). */
static struct expr *closed(struct parser *p, struct expr *e, const char *msg)
{
    if (!accept(p, ")")) {
        fail(p, msg);
        expr_free(e);
        return NULL;
    }
    return e;
}

/* Steps over the '(' or '!' at the parser's position, one level deeper.
 * 0 when that is too deep (reported). */
static int enter(struct parser *p)
{
    if (++p->depth > EXPR_MAX_DEPTH) {
        fail(p, "condition nested too deeply");
        return 0;
    }
    p->pos++;
    return 1;
}

/* ( CONDITION ) */
static struct expr *parse_group(struct parser *p)
{
    if (!enter(p))
        return NULL;
    struct expr *e = parse_or(p);
    p->depth--;
    return e != NULL ? closed(p, e, "expected ')'") : NULL;
}

/* "TEXT" (no escapes) */
static struct expr *parse_string(struct parser *p)
{
    const char *s = p->s + p->pos;
    const char *end = strchr(s + 1, '"');
    if (end == NULL) {
        fail(p, "unterminated string");
        return NULL;
    }
    struct expr *e = text_node(p, N_STR, s + 1, (size_t)(end - s - 1));
    if (e != NULL)
        p->pos += (size_t)(end - s) + 1;
    return e;
}

/* 12, 0.5, or a size with its unit: 256 MiB, 1.5GiB */
static struct expr *parse_number(struct parser *p)
{
    const char *s = p->s + p->pos;
    size_t n = 0, dots = 0;
    while (isdigit((unsigned char)s[n]) || s[n] == '.')
        dots += s[n++] == '.';
    if (dots > 1 || (n == 1 && s[0] == '.')) {
        fail(p, "malformed number");
        return NULL;
    }
    size_t m = n;
    while (s[m] == ' ')
        m++;
    size_t u = m;
    while (isalpha((unsigned char)s[u]))
        u++;
    struct expr *e = node(N_NUM);
    if (e == NULL) {
        fail(p, "out of memory");
        return NULL;
    }
    long long bytes = 0;
    if (u > m && size_parse(s, u, &bytes) == 0) {
        e->num = (double)bytes;
        p->pos += u;
    } else if (u > m && u > n && s[n] != ' ') {
        free(e);
        fail(p, "unknown unit after number");
        return NULL;
    } else {
        e->num = strtod(s, NULL);
        p->pos += n;
    }
    return e;
}

/* NAME, or has(NAME) */
static struct expr *parse_name_or_has(struct parser *p)
{
    const char *s = p->s + p->pos;
    size_t n = 0;
    while (is_name_char((unsigned char)s[n]))
        n++;
    if (n != 3 || strncmp(s, "has", 3) != 0) {
        struct expr *e = text_node(p, N_NAME, s, n);
        if (e != NULL)
            p->pos += n;
        return e;
    }
    p->pos += 3;
    if (!accept(p, "(")) {
        fail(p, "expected '(' after has");
        return NULL;
    }
    skip_ws(p);
    const char *ns = p->s + p->pos;
    size_t k = 0;
    while (is_name_char((unsigned char)ns[k]))
        k++;
    if (k == 0) {
        fail(p, "expected a field name in has()");
        return NULL;
    }
    struct expr *e = text_node(p, N_HAS, ns, k);
    if (e == NULL)
        return NULL;
    p->pos += k;
    return closed(p, e, "expected ')' after has(NAME");
}

static struct expr *parse_atom(struct parser *p)
{
    skip_ws(p);
    char c = p->s[p->pos];
    if (c == '(')
        return parse_group(p);
    if (c == '"')
        return parse_string(p);
    if (isdigit((unsigned char)c) || c == '.')
        return parse_number(p);
    if (isalpha((unsigned char)c) || c == '_')
        return parse_name_or_has(p);
    fail(p, c ? "expected a number, string, field name, has() or '('" : "unexpected end of condition");
    return NULL;
}

static struct expr *binary(enum node_kind kind, const char *op, struct expr *a, struct expr *b)
{
    struct expr *e = node(kind);
    if (e == NULL) {
        expr_free(a);
        expr_free(b);
        return NULL;
    }
    strncpy(e->op, op, sizeof e->op - 1);
    e->a = a;
    e->b = b;
    return e;
}

/* Counts the operator of N bytes just accepted; 0 when there are too many
 * (reported where it begins). */
static int one_more_op(struct parser *p, size_t n)
{
    if (++p->ops <= EXPR_MAX_OPS)
        return 1;
    p->pos -= n;
    fail(p, "condition too long (more than 1000 operators)");
    return 0;
}

/* OPERAND { OP OPERAND }, left-associative, OP one of OPS (NULL-ended):
 * products, sums, && and ||. */
static struct expr *parse_chain(struct parser *p, struct expr *(*operand)(struct parser *), enum node_kind kind,
                                const char *const *ops)
{
    struct expr *e = operand(p);
    while (e != NULL) {
        const char *op = NULL;
        for (size_t i = 0; ops[i] && op == NULL; i++)
            if (accept(p, ops[i]))
                op = ops[i];
        if (op == NULL)
            break;
        if (!one_more_op(p, strlen(op))) {
            expr_free(e);
            return NULL;
        }
        struct expr *rhs = operand(p);
        if (rhs == NULL) {
            expr_free(e);
            return NULL;
        }
        e = binary(kind, op, e, rhs);
    }
    return e;
}

static struct expr *parse_product(struct parser *p)
{
    static const char *const ops[] = {"*", "/", NULL};
    return parse_chain(p, parse_atom, N_ARITH, ops);
}

static struct expr *parse_sum(struct parser *p)
{
    static const char *const ops[] = {"+", "-", NULL};
    return parse_chain(p, parse_product, N_ARITH, ops);
}

static struct expr *parse_compare(struct parser *p)
{
    static const char *const ops[] = {"<=", ">=", "==", "!=", "<", ">"};
    struct expr *e = parse_sum(p);
    if (e == NULL)
        return NULL;
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
        if (accept(p, ops[i])) {
            struct expr *rhs = parse_sum(p);
            if (rhs == NULL) {
                expr_free(e);
                return NULL;
            }
            return binary(N_CMP, ops[i], e, rhs);
        }
    }
    return e;
}

static struct expr *parse_unary(struct parser *p)
{
    skip_ws(p);
    if (p->s[p->pos] == '!' && p->s[p->pos + 1] != '=') {
        if (!enter(p))
            return NULL;
        struct expr *a = parse_unary(p);
        p->depth--;
        return a ? binary(N_NOT, "!", a, NULL) : NULL;
    }
    return parse_compare(p);
}

static struct expr *parse_and(struct parser *p)
{
    static const char *const ops[] = {"&&", NULL};
    return parse_chain(p, parse_unary, N_AND, ops);
}

static struct expr *parse_or(struct parser *p)
{
    static const char *const ops[] = {"||", NULL};
    return parse_chain(p, parse_and, N_OR, ops);
}

struct expr *expr_parse(const char *text, const char **err, size_t *err_off)
{
    struct parser p = {text, 0, NULL, 0, 0, 0};
    struct expr *e = parse_or(&p);
    if (e != NULL) {
        skip_ws(&p);
        if (p.s[p.pos] != '\0') {
            fail(&p, "unexpected text after the condition");
            expr_free(e);
            e = NULL;
        }
    }
    if (e == NULL) {
        *err = p.err ? p.err : "out of memory";
        *err_off = p.err_off;
    }
    return e;
}

static void value(const struct expr *e, expr_lookup_fn lookup, void *ctx, struct expr_value *v)
{
    struct expr_value a, b;
    v->type = EXPR_UNDEF;
    v->num = 0;
    v->str = NULL;
    switch (e->kind) {
    case N_NUM:
        v->type = EXPR_NUM;
        v->num = e->num;
        return;
    case N_STR:
        v->type = EXPR_STR;
        v->str = e->text;
        return;
    case N_NAME: lookup(ctx, e->text, v); return;
    case N_ARITH:
        value(e->a, lookup, ctx, &a);
        value(e->b, lookup, ctx, &b);
        if (a.type != EXPR_NUM || b.type != EXPR_NUM)
            return;
        v->type = EXPR_NUM;
        switch (e->op[0]) {
        case '+': v->num = a.num + b.num; break;
        case '-': v->num = a.num - b.num; break;
        case '*': v->num = a.num * b.num; break;
        default:
            if (b.num == 0)
                v->type = EXPR_UNDEF;
            else
                v->num = a.num / b.num;
        }
        return;
    default:
        v->type = EXPR_NUM;
        v->num = expr_eval(e, lookup, ctx);
        return;
    }
}

static int compare(const char *op, const struct expr_value *a, const struct expr_value *b)
{
    int c;
    if (a->type == EXPR_UNDEF || b->type == EXPR_UNDEF || a->type != b->type)
        return 0;
    if (a->type == EXPR_STR)
        c = strcmp(a->str, b->str);
    else
        c = a->num < b->num ? -1 : a->num > b->num ? 1 : 0;
    switch (op[0]) { /* one of < <= > >= == != */
    case '<': return op[1] == '=' ? c <= 0 : c < 0;
    case '>': return op[1] == '=' ? c >= 0 : c > 0;
    case '=': return c == 0;
    default: return c != 0;
    }
}

int expr_eval(const struct expr *e, expr_lookup_fn lookup, void *ctx)
{
    struct expr_value a, b;
    switch (e->kind) {
    case N_AND: return expr_eval(e->a, lookup, ctx) && expr_eval(e->b, lookup, ctx);
    case N_OR: return expr_eval(e->a, lookup, ctx) || expr_eval(e->b, lookup, ctx);
    case N_NOT: return !expr_eval(e->a, lookup, ctx);
    case N_HAS: lookup(ctx, e->text, &a); return a.type != EXPR_UNDEF;
    case N_CMP:
        value(e->a, lookup, ctx, &a);
        value(e->b, lookup, ctx, &b);
        return compare(e->op, &a, &b);
    default:
        value(e, lookup, ctx, &a);
        if (a.type == EXPR_STR)
            return a.str[0] != '\0';
        return a.type == EXPR_NUM && a.num != 0;
    }
}

void expr_free(struct expr *e)
{
    if (e == NULL)
        return;
    expr_free(e->a);
    expr_free(e->b);
    free(e->text);
    free(e);
}
