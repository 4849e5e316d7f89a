/* Conditions: parsing (with error messages and offsets) and evaluation
 * against a lookup callback. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "expr.h"

/* The values the conditions below can name. */
static const struct {
    const char *name;
    enum expr_vtype type;
    double num;
    const char *str;
} facts[] = {
    {"requested_bytes", EXPR_NUM, 2147483648.0, NULL},            /* 2 GiB */
    {"reserved_unallocated_bytes", EXPR_NUM, 3221225472.0, NULL}, /* 3 GiB */
    {"free_bytes", EXPR_NUM, 0.0, NULL},
    {"last_step", EXPR_NUM, 1.0, NULL},
    {"framework", EXPR_STR, 0, "pytorch"},
    {"empty", EXPR_STR, 0, ""},
    {"a.b_c", EXPR_NUM, 7.0, NULL},
};

struct lookups {
    int calls;
    char last[64];
};

static void lookup(void *ctx, const char *name, struct expr_value *out)
{
    struct lookups *l = ctx;
    if (l != NULL) {
        l->calls++;
        snprintf(l->last, sizeof l->last, "%s", name);
    }
    out->type = EXPR_UNDEF;
    out->num = 0;
    out->str = NULL;
    for (size_t i = 0; i < sizeof facts / sizeof facts[0]; i++)
        if (strcmp(facts[i].name, name) == 0) {
            out->type = facts[i].type;
            out->num = facts[i].num;
            out->str = facts[i].str;
        }
}

/* Parses TEXT (which must parse) and evaluates it. */
static int eval(const char *text)
{
    const char *err = NULL;
    size_t off = 999;
    struct expr *e = expr_parse(text, &err, &off);
    if (e == NULL)
        print_error("'%s' did not parse: %s at %zu\n", text, err, off);
    assert_non_null(e);
    int v = expr_eval(e, lookup, NULL);
    expr_free(e);
    return v;
}

#define assert_true_expr(text) assert_int_equal(eval(text), 1)
#define assert_false_expr(text) assert_int_equal(eval(text), 0)

/* TEXT must not parse; checks the message and the offset. */
static void parse_error(const char *text, const char *msg, size_t off)
{
    const char *err = NULL;
    size_t at = 999;
    struct expr *e = expr_parse(text, &err, &at);
    assert_null(e);
    assert_non_null(err);
    assert_string_equal(err, msg);
    assert_int_equal(at, off);
}

static void test_arithmetic(void **state)
{
    (void)state;
    assert_true_expr("1 + 2 * 3 == 7");
    assert_true_expr("(1 + 2) * 3 == 9");
    assert_true_expr("10 / 4 == 2.5");
    assert_true_expr("10 - 2 - 3 == 5"); /* left to right */
    assert_true_expr("8 / 2 / 2 == 2");
    assert_true_expr("0.5 * requested_bytes == 1073741824");
    assert_true_expr("requested_bytes + reserved_unallocated_bytes == 5368709120");
    assert_false_expr("1 + 2 * 3 == 9");
    /* Division by zero has no value: every comparison with it is false. */
    assert_false_expr("1 / 0 == 1 / 0");
    assert_false_expr("1 / 0 != 5");
    assert_false_expr("1 / free_bytes > 0");
}

static void test_comparisons(void **state)
{
    (void)state;
    assert_true_expr("3 < 4");
    assert_false_expr("4 < 4");
    assert_true_expr("4 <= 4");
    assert_false_expr("5 <= 4");
    assert_true_expr("5 > 4");
    assert_false_expr("4 > 4");
    assert_true_expr("4 >= 4");
    assert_false_expr("3 >= 4");
    assert_true_expr("4 == 4");
    assert_false_expr("4 == 5");
    assert_true_expr("4 != 5");
    assert_false_expr("4 != 4");
    assert_true_expr("reserved_unallocated_bytes >= 0.5 * requested_bytes");
    assert_true_expr("reserved_unallocated_bytes >= requested_bytes");
    assert_false_expr("requested_bytes >= reserved_unallocated_bytes");
    assert_true_expr("last_step <= 1");
    assert_true_expr("a.b_c == 7");
    assert_true_expr("  1   ==   1  ");
    assert_true_expr("1==1");
}

static void test_logic(void **state)
{
    (void)state;
    assert_true_expr("1 == 1 && 2 == 2");
    assert_false_expr("1 == 1 && 2 == 3");
    assert_true_expr("1 == 2 || 2 == 2");
    assert_false_expr("1 == 2 || 2 == 3");
    assert_true_expr("1 || 0 && 0"); /* && binds tighter than || */
    assert_false_expr("(1 || 0) && 0");
    assert_true_expr("!0");
    assert_false_expr("!1");
    assert_true_expr("!!5");
    assert_true_expr("!(1 == 2)");
    assert_true_expr("!1 == 2"); /* ! applies to the comparison: !(1 == 2) */
    assert_true_expr("! missing");
    assert_false_expr("0 || missing");
    assert_true_expr("1 != 2 && !(3 != 3)");
}

static void test_has(void **state)
{
    (void)state;
    assert_true_expr("has(requested_bytes)");
    assert_true_expr("has(free_bytes)"); /* a zero value is still a value */
    assert_true_expr("has( framework )");
    assert_true_expr("has(empty)");
    assert_false_expr("has(missing)");
    assert_true_expr("!has(missing)");
    assert_true_expr("has(requested_bytes) && has(framework)");
    assert_true_expr("has(missing) || has(a.b_c)");
}

static void test_strings(void **state)
{
    (void)state;
    assert_true_expr("framework == \"pytorch\"");
    assert_false_expr("framework == \"PyTorch\"");
    assert_true_expr("framework != \"jax\"");
    assert_true_expr("\"abc\" < \"abd\"");
    assert_true_expr("\"a b\" == \"a b\"");
    /* A string and a number never compare: false whatever the operator. */
    assert_false_expr("framework == 3");
    assert_false_expr("framework != 3");
    assert_false_expr("\"1\" == 1");
}

static void test_units(void **state)
{
    (void)state;
    assert_true_expr("1GiB == 1073741824");
    assert_true_expr("256 MiB == 268435456");
    assert_true_expr("1.5 KiB == 1536");
    assert_true_expr("4096kB == 4 MiB");
    assert_true_expr("2 bytes == 2");
    assert_true_expr("2 B == 2"); /* "B" is a unit too */
    assert_true_expr("requested_bytes == 2GiB");
    assert_true_expr("requested_bytes == 2048 MiB");
    assert_true_expr("requested_bytes > 1GiB && requested_bytes < 3 GiB");
    assert_true_expr("reserved_unallocated_bytes >= 1 GiB + requested_bytes");
}

static void test_undefined_fields(void **state)
{
    (void)state;
    assert_false_expr("missing > 0");
    assert_false_expr("missing <= 0");
    assert_false_expr("missing == missing");
    assert_false_expr("missing != 1");
    assert_false_expr("missing + 1 > 0");
    assert_false_expr("missing * 0 == 0");
    assert_false_expr("requested_bytes > missing");
    assert_false_expr("framework == missing");
}

static void test_bare_values(void **state)
{
    (void)state;
    assert_true_expr("requested_bytes");
    assert_false_expr("free_bytes"); /* zero */
    assert_false_expr("missing");
    assert_true_expr("framework");
    assert_false_expr("empty");
    assert_false_expr("0");
    assert_true_expr("2");
    assert_true_expr("0.5");
    assert_false_expr("\"\"");
    assert_true_expr("\"x\"");
    assert_false_expr("1 - 1");
    assert_true_expr("(requested_bytes)");
}

static void test_lookup_gets_exact_names(void **state)
{
    (void)state;
    const char *err = NULL;
    size_t off = 0;
    struct lookups l = {0, ""};
    struct expr *e = expr_parse("has(requested_bytes) && a.b_c > 1", &err, &off);
    assert_non_null(e);
    assert_int_equal(expr_eval(e, lookup, &l), 1);
    assert_int_equal(l.calls, 2);
    assert_string_equal(l.last, "a.b_c");
    /* && short-circuits: the right side is not looked up. */
    l.calls = 0;
    expr_free(e);
    e = expr_parse("has(missing) && framework", &err, &off);
    assert_non_null(e);
    assert_int_equal(expr_eval(e, lookup, &l), 0);
    assert_int_equal(l.calls, 1);
    assert_string_equal(l.last, "missing");
    expr_free(e);
}

static void test_errors(void **state)
{
    (void)state;
    parse_error("a >", "unexpected end of condition", 3);
    parse_error("(a", "expected ')'", 2);
    parse_error("(a == 1", "expected ')'", 7);
    parse_error("has(", "expected a field name in has()", 4);
    parse_error("has(x", "expected ')' after has(NAME", 5);
    parse_error("has x", "expected '(' after has", 4);
    parse_error("1parsecs", "unknown unit after number", 0);
    parse_error("x > 5Gx", "unknown unit after number", 4);
    /* With a space the number ends and the word is left over. */
    parse_error("1 parsecs", "unexpected text after the condition", 2);
    parse_error("a == 1 c", "unexpected text after the condition", 7);
    parse_error("1 == 1)", "unexpected text after the condition", 6);
    parse_error("a = 1", "unexpected text after the condition", 2);
    parse_error("", "unexpected end of condition", 0);
    parse_error("   ", "unexpected end of condition", 3);
    parse_error("&& a", "expected a number, string, field name, has() or '('", 0);
    parse_error("a == == b", "expected a number, string, field name, has() or '('", 5);
    parse_error("a &&", "unexpected end of condition", 4);
    parse_error("\"abc", "unterminated string", 0);
    parse_error("x == \"abc", "unterminated string", 5);
    parse_error("!", "unexpected end of condition", 1);
    parse_error("x > 1.2.3", "malformed number", 4);
    parse_error("x > . + 1", "malformed number", 4);
    parse_error("has(x", "expected ')' after has(NAME", 5);
    parse_error("(x > 1", "expected ')'", 6);
}

static void test_nesting_limit(void **state)
{
    (void)state;
    char text[512];
    /* 64 levels are fine. */
    memset(text, '(', 64);
    text[64] = '1';
    memset(text + 65, ')', 64);
    text[129] = '\0';
    assert_true_expr(text);
    /* 100 are refused where the 65th begins, without recursing on. */
    memset(text, '(', 100);
    text[100] = 'a';
    memset(text + 101, ')', 100);
    text[201] = '\0';
    parse_error(text, "condition nested too deeply", 64);
    memset(text, '!', 100);
    text[100] = 'a';
    text[101] = '\0';
    parse_error(text, "condition nested too deeply", 64);
    /* The limit is on depth, not on length: a long flat chain parses. */
    size_t n = 0;
    for (int i = 0; i < 100; i++)
        n += (size_t)snprintf(text + n, sizeof text - n, i ? "+1" : "1");
    snprintf(text + n, sizeof text - n, "==100");
    assert_true_expr(text);
}

/* Found by fuzz_expr (issue 22): a chain of binary operators is a tree as
 * deep as the chain is long, and evaluating and freeing it recursed once
 * per operator: a rule's "when" of two million "a&&" overflowed the stack
 * (oomdiag -r crashed with SIGSEGV).  At most 1000 operators now. */
static void test_operator_limit(void **state)
{
    (void)state;
    size_t terms = 2000000;
    char *text = malloc(3 * terms);
    assert_non_null(text);
    for (size_t i = 0; i < terms; i++)
        memcpy(text + 3 * i, "a&&", 3);
    text[3 * terms - 2] = '\0';
    parse_error(text, "condition too long (more than 1000 operators)", 3 * 1000 + 1);
    /* 1000 are fine. */
    text[3 * 1000 + 1] = '\0';
    const char *err = NULL;
    size_t off = 0;
    struct expr *e = expr_parse(text, &err, &off);
    assert_non_null(e);
    expr_free(e);
    free(text);
}

static void test_malformed_numbers(void **state)
{
    (void)state;
    /* Regression (fixed): src/expr.c parse_atom consumes every digit and '.' as the
     * number but converts it with strtod, so "1.2.3" parses as 1.2 and a
     * lone "." as 0 instead of being rejected. */
    const char *err = NULL;
    size_t off = 0;
    struct expr *e = expr_parse("x > 1.2.3", &err, &off);
    assert_null(e);
    expr_free(e);
    e = expr_parse("x > .", &err, &off);
    assert_null(e);
    expr_free(e);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_arithmetic),
        cmocka_unit_test(test_comparisons),
        cmocka_unit_test(test_logic),
        cmocka_unit_test(test_has),
        cmocka_unit_test(test_strings),
        cmocka_unit_test(test_units),
        cmocka_unit_test(test_undefined_fields),
        cmocka_unit_test(test_bare_values),
        cmocka_unit_test(test_lookup_gets_exact_names),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_nesting_limit),
        cmocka_unit_test(test_malformed_numbers),
        cmocka_unit_test(test_operator_limit),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
