/* Templates: {name} expansion, {{ and }} escapes, missing values,
 * syntax errors with offsets. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "template.h"

struct calls {
    int count;
    char names[8][80];
};

static const char *const values[][2] = {
    {"requested_bytes", "2.00 GiB"}, {"free_bytes", "1.06 GiB"}, {"rank", "3"}, {"ranks", "0, 1, 3"}, {"empty", ""},
};

static int lookup(void *ctx, const char *name, char *buf, size_t bufsize)
{
    struct calls *c = ctx;
    if (c != NULL && c->count < 8)
        snprintf(c->names[c->count++], sizeof c->names[0], "%s", name);
    for (size_t i = 0; i < sizeof values / sizeof values[0]; i++)
        if (strcmp(values[i][0], name) == 0) {
            snprintf(buf, bufsize, "%s", values[i][1]);
            return 0;
        }
    return -1;
}

static void expands_to(const char *tpl, const char *expect)
{
    char *s = template_expand(tpl, lookup, NULL);
    if (s == NULL)
        print_error("'%s' did not expand\n", tpl);
    assert_non_null(s);
    assert_string_equal(s, expect);
    free(s);
}

static void check_error(const char *tpl, size_t off)
{
    size_t at = 999;
    assert_int_equal(template_check(tpl, &at), -1);
    assert_int_equal(at, off);
    /* A template that does not check does not expand either. */
    char *s = template_expand(tpl, lookup, NULL);
    assert_null(s);
}

static void test_expansion(void **state)
{
    (void)state;
    expands_to("Rank {rank} asked for {requested_bytes} with {free_bytes} free.",
               "Rank 3 asked for 2.00 GiB with 1.06 GiB free.");
    expands_to("{rank}{rank}", "33");
    expands_to("{ranks}", "0, 1, 3");
    expands_to("[{empty}]", "[]");
    expands_to("no placeholders at all", "no placeholders at all");
    expands_to("", "");
}

static void test_lookup_sees_exact_names(void **state)
{
    (void)state;
    struct calls c = {0, {{0}}};
    char *s = template_expand("{rank} and {free_bytes}", lookup, &c);
    assert_non_null(s);
    free(s);
    assert_int_equal(c.count, 2);
    assert_string_equal(c.names[0], "rank");
    assert_string_equal(c.names[1], "free_bytes");
}

static void test_brace_escapes(void **state)
{
    (void)state;
    expands_to("{{literal}}", "{literal}");
    expands_to("{{", "{");
    expands_to("}}", "}");
    expands_to("a {{{rank}}} b", "a {3} b");
    expands_to("json: {{\"rank\": {rank}}}", "json: {\"rank\": 3}");
    size_t off = 999;
    assert_int_equal(template_check("{{not a placeholder}}", &off), 0);
}

static void test_missing_value(void **state)
{
    (void)state;
    struct calls c = {0, {{0}}};
    assert_null(template_expand("{missing}", lookup, NULL));
    assert_null(template_expand("Rank {rank}: {missing} free", lookup, &c));
    assert_int_equal(c.count, 2);
    assert_string_equal(c.names[1], "missing");
}

static void test_check_errors(void **state)
{
    (void)state;
    check_error("{", 0);
    check_error("}", 0);
    check_error("{}", 0);
    check_error("x {}", 2);
    check_error("abc {name", 4); /* unterminated */
    check_error("a}b", 1);
    check_error("{rank}}", 6); /* the second } is alone */
    check_error("{{rank}", 6); /* {{ is a brace, so the } is alone */
    check_error("ok {rank} then {", 15);
}

static void test_placeholder_length(void **state)
{
    (void)state;
    char tpl[80];
    size_t off = 999;
    /* A 63-byte name is fine, a 64-byte one is not. */
    tpl[0] = '{';
    memset(tpl + 1, 'n', 63);
    tpl[64] = '}';
    tpl[65] = '\0';
    assert_int_equal(template_check(tpl, &off), 0);
    memset(tpl + 1, 'n', 64);
    tpl[65] = '}';
    tpl[66] = '\0';
    assert_int_equal(template_check(tpl, &off), -1);
    assert_int_equal(off, 0);
}

/* An expansion longer than the expander's first buffer (2 KiB), with
 * values all along it, comes out whole. */
static void test_long_expansion(void **state)
{
    (void)state;
    char tpl[8192] = "", expect[8192] = "";
    for (int i = 0; i < 200; i++) {
        strcat(tpl, "rank {rank} of {ranks}, ");
        strcat(expect, "rank 3 of 0, 1, 3, ");
    }
    expands_to(tpl, expect);
}

/* An expansion may hold 1 MiB, a value near that ceiling included. */
static void test_ceiling(void **state)
{
    (void)state;
    size_t n = 1024 * 1024;
    char *tpl = malloc(n + 16);
    assert_non_null(tpl);
    memset(tpl, 'x', n - 2);
    strcpy(tpl + n - 2, "{rank}"); /* 1 MiB - 1 bytes expanded */
    char *s = template_expand(tpl, lookup, NULL);
    assert_non_null(s);
    assert_int_equal(strlen(s), n - 1);
    assert_string_equal(s + n - 3, "x3");
    free(s);
    strcpy(tpl + n - 2, "{ranks}"); /* 1 MiB + 5: too long */
    assert_null(template_expand(tpl, lookup, NULL));
    memset(tpl, 'x', n + 1);
    tpl[n + 1] = '\0';
    assert_null(template_expand(tpl, lookup, NULL));
    free(tpl);
}

/* A syntax error after placeholders that have values: still nothing. */
static void test_error_after_values(void **state)
{
    (void)state;
    assert_null(template_expand("{rank} {free_bytes} then a}", lookup, NULL));
    assert_null(template_expand("{rank} {free_bytes} then {", lookup, NULL));
    assert_null(template_expand("{rank} then {}", lookup, NULL));
}

/* A lookup whose value is longer than the buffer it is given. */
static int long_lookup(void *ctx, const char *name, char *buf, size_t bufsize)
{
    (void)ctx;
    (void)name;
    char value[512] = "a";
    for (int i = 0; i < 100; i++)
        strcat(value, "\xe2\x82\xac"); /* the euro sign, 3 bytes */
    snprintf(buf, bufsize, "%s", value);
    return 0;
}

static void test_long_value_cut_on_a_character(void **state)
{
    (void)state;
    /* The value is cut to the 256-byte lookup buffer: 'a' and 84 whole
     * euro signs (253 bytes), not a half sign at the end. */
    char *s = template_expand("[{v}]", long_lookup, NULL);
    assert_non_null(s);
    char expect[512] = "[a";
    for (int i = 0; i < 84; i++)
        strcat(expect, "\xe2\x82\xac");
    strcat(expect, "]");
    assert_string_equal(s, expect);
    free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_expansion),
        cmocka_unit_test(test_lookup_sees_exact_names),
        cmocka_unit_test(test_brace_escapes),
        cmocka_unit_test(test_missing_value),
        cmocka_unit_test(test_check_errors),
        cmocka_unit_test(test_placeholder_length),
        cmocka_unit_test(test_long_value_cut_on_a_character),
        cmocka_unit_test(test_long_expansion),
        cmocka_unit_test(test_error_after_values),
        cmocka_unit_test(test_ceiling),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
