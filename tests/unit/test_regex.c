#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "regex.h"

static struct rx *compile(const char *p, int caseless)
{
    char err[256] = "";
    size_t off = 99;
    struct rx *rx = rx_compile(p, caseless, err, sizeof err, &off);
    if (rx == NULL)
        print_error("%s at %zu\n", err, off);
    assert_non_null(rx);
    return rx;
}

struct caps {
    char names[8][32], values[8][64];
    size_t n;
    int stop_after;
};

static int on_cap(void *ctx, const char *name, const char *value, size_t len)
{
    struct caps *c = ctx;
    snprintf(c->names[c->n], sizeof c->names[0], "%s", name);
    snprintf(c->values[c->n], sizeof c->values[0], "%.*s", (int)len, value);
    c->n++;
    return c->stop_after && (int)c->n >= c->stop_after ? 42 : 0;
}

static void test_match_and_captures(void **state)
{
    (void)state;
    struct rx *rx = compile("Tried to allocate (?<size>\\d+) MiB(?: on (?<dev>cuda:\\d))?", 0);
    struct rx_matcher *m = rx_matcher_create();
    assert_non_null(m);
    assert_int_equal(rx_name_count(rx), 2);
    assert_string_equal(rx_name(rx, 0), "dev"); /* name-table order: sorted */
    assert_string_equal(rx_name(rx, 1), "size");

    const char *line = "x: Tried to allocate 20 MiB on cuda:1; y";
    assert_int_equal(rx_match(rx, m, line, strlen(line)), RX_MATCH);
    size_t s, e;
    rx_match_span(m, &s, &e);
    assert_int_equal(s, 3);
    assert_int_equal(e, strlen("x: Tried to allocate 20 MiB on cuda:1"));
    struct caps c = {0};
    assert_int_equal(rx_each_capture(rx, m, line, on_cap, &c), 0);
    assert_int_equal(c.n, 2);
    assert_string_equal(c.names[0], "dev");
    assert_string_equal(c.values[0], "cuda:1");
    assert_string_equal(c.values[1], "20");

    /* A group that took no part is not reported. */
    const char *bare = "Tried to allocate 5 MiB";
    assert_int_equal(rx_match(rx, m, bare, strlen(bare)), RX_MATCH);
    memset(&c, 0, sizeof c);
    rx_each_capture(rx, m, bare, on_cap, &c);
    assert_int_equal(c.n, 1);
    assert_string_equal(c.names[0], "size");
    assert_string_equal(c.values[0], "5");

    /* A callback's non-zero result stops the walk and is returned. */
    assert_int_equal(rx_match(rx, m, line, strlen(line)), RX_MATCH);
    memset(&c, 0, sizeof c);
    c.stop_after = 1;
    assert_int_equal(rx_each_capture(rx, m, line, on_cap, &c), 42);
    assert_int_equal(c.n, 1);

    assert_int_equal(rx_match(rx, m, "tried to allocate 5 MiB", 23), RX_NOMATCH);
    rx_matcher_free(m);
    rx_free(rx);
}

/* The subject is LEN bytes: what follows is not looked at. */
static void test_subject_length(void **state)
{
    (void)state;
    struct rx *rx = compile("abc$", 0);
    struct rx_matcher *m = rx_matcher_create();
    assert_int_equal(rx_match(rx, m, "abcdef", 3), RX_MATCH);
    assert_int_equal(rx_match(rx, m, "abcdef", 6), RX_NOMATCH);
    assert_int_equal(rx_match(rx, m, "ab", 2), RX_NOMATCH);
    rx_matcher_free(m);
    rx_free(rx);
}

static void test_caseless_and_jit(void **state)
{
    (void)state;
    struct rx *rx = compile("out of memory", 1);
    struct rx_matcher *m = rx_matcher_create();
    assert_int_equal(rx_match(rx, m, "CUDA OUT OF MEMORY", 18), RX_MATCH);
    rx_jit(rx);
    rx_jit(rx); /* twice is harmless */
    assert_int_equal(rx_match(rx, m, "CUDA Out Of Memory", 18), RX_MATCH);
    assert_int_equal(rx_match(rx, m, "out of mem", 10), RX_NOMATCH);
    rx_matcher_free(m);
    rx_free(rx);
    rx = compile("out of memory", 0);
    m = rx_matcher_create();
    assert_int_equal(rx_match(rx, m, "OUT OF MEMORY", 13), RX_NOMATCH);
    rx_matcher_free(m);
    rx_free(rx);
}

/* \K moves the reported start of the match. */
static void test_span_with_K(void **state)
{
    (void)state;
    struct rx *rx = compile("size=\\K\\d+", 0);
    struct rx_matcher *m = rx_matcher_create();
    assert_int_equal(rx_match(rx, m, "a size=42 b", 11), RX_MATCH);
    size_t s, e;
    rx_match_span(m, &s, &e);
    assert_int_equal(s, 7);
    assert_int_equal(e, 9);
    rx_matcher_free(m);
    rx_free(rx);
}

static void test_compile_errors(void **state)
{
    (void)state;
    char err[256] = "";
    size_t off = 0;
    assert_null(rx_compile("ab(c", 0, err, sizeof err, &off));
    assert_non_null(strstr(err, "PCRE2 error"));
    assert_int_equal(off, 4);
    off = 99;
    assert_null(rx_compile("a[", 0, err, sizeof err, &off));
    assert_int_equal(off, 2);
    /* More capture groups than the matcher keeps room for. */
    char *many = malloc(300 * 3 + 1);
    assert_non_null(many);
    for (int i = 0; i < 300; i++)
        memcpy(many + 3 * i, "(a)", 3);
    many[900] = '\0';
    assert_null(rx_compile(many, 0, err, sizeof err, &off));
    assert_string_equal(err, "too many capture groups (300, at most 255)");
    assert_int_equal(off, 0);
    free(many);
    /* A tiny error buffer is cut, not overrun. */
    char tiny[8];
    assert_null(rx_compile("(", 0, tiny, sizeof tiny, &off));
    assert_int_equal(strlen(tiny), 7);
}

/* A catastrophic pattern on a long subject stops at the match limit
 * instead of running for ever. */
static void test_limit(void **state)
{
    (void)state;
    struct rx *rx = compile("^(a+)+$", 0);
    struct rx_matcher *m = rx_matcher_create();
    char subject[64];
    memset(subject, 'a', sizeof subject);
    subject[sizeof subject - 1] = 'b';
    assert_int_equal(rx_match(rx, m, subject, sizeof subject), RX_LIMIT);
    rx_jit(rx);
    assert_int_equal(rx_match(rx, m, subject, sizeof subject), RX_LIMIT);
    /* The matcher is reusable after a limit. */
    assert_int_equal(rx_match(rx, m, "aaa", 3), RX_MATCH);
    rx_matcher_free(m);
    rx_free(rx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_match_and_captures), cmocka_unit_test(test_subject_length),
        cmocka_unit_test(test_caseless_and_jit),   cmocka_unit_test(test_span_with_K),
        cmocka_unit_test(test_compile_errors),     cmocka_unit_test(test_limit),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
