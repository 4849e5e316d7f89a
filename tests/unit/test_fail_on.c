/* --fail-on: causes and a confidence, a list of any length, unknown items,
 * which diagnoses count. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "fail_on.h"

/* Every cause is known but those starting with "x". */
static int known(const void *ctx, const char *id)
{
    (void)ctx;
    return id[0] != 'x';
}

static struct od_diagnosis diag(const char *cause, enum od_role role, enum od_confidence c)
{
    struct od_diagnosis d = {0};
    d.cause = (char *)cause;
    d.role = role;
    d.confidence = c;
    return d;
}

static void test_causes_and_confidence(void **state)
{
    (void)state;
    struct fail_on f;
    const char *bad = "untouched";
    assert_int_equal(fail_on_parse(&f, "gpu-oom,medium,nccl-timeout", known, NULL, &bad), 0);
    assert_null(bad);
    assert_int_equal(f.cause_count, 2);
    assert_string_equal(f.causes[0], "gpu-oom");
    assert_string_equal(f.causes[1], "nccl-timeout");
    assert_int_equal(f.min_confidence, OD_CONF_MEDIUM);
    struct od_diagnosis d = diag("gpu-oom", OD_ROLE_ROOT, OD_CONF_HIGH);
    assert_true(fail_on_counts(&f, &d));
    d.confidence = OD_CONF_LOW; /* under the floor */
    assert_false(fail_on_counts(&f, &d));
    d = diag("host-oom", OD_ROLE_ROOT, OD_CONF_HIGH); /* not listed */
    assert_false(fail_on_counts(&f, &d));
    d = diag("gpu-oom", OD_ROLE_CONSEQUENCE, OD_CONF_HIGH); /* only roots count */
    assert_false(fail_on_counts(&f, &d));
    fail_on_free(&f);
}

static void test_confidence_alone_counts_every_cause(void **state)
{
    (void)state;
    struct fail_on f;
    const char *bad = NULL;
    assert_int_equal(fail_on_parse(&f, "high", known, NULL, &bad), 0);
    assert_int_equal(f.cause_count, 0);
    struct od_diagnosis d = diag("anything", OD_ROLE_ROOT, OD_CONF_HIGH);
    assert_true(fail_on_counts(&f, &d));
    d.confidence = OD_CONF_MEDIUM;
    assert_false(fail_on_counts(&f, &d));
    fail_on_free(&f);
    /* No --fail-on: every root cause, at any confidence. */
    d = diag("anything", OD_ROLE_ROOT, OD_CONF_LOW);
    assert_true(fail_on_counts(NULL, &d));
    d.role = OD_ROLE_RECOVERED;
    assert_false(fail_on_counts(NULL, &d));
}

static void test_unknown_item_is_named(void **state)
{
    (void)state;
    struct fail_on f;
    const char *bad = NULL;
    assert_int_equal(fail_on_parse(&f, "gpu-oom,xbogus,high", known, NULL, &bad), -1);
    assert_non_null(bad);
    assert_string_equal(bad, "xbogus");
    fail_on_free(&f);
}

/* The old fixed buffer cut a long list at 512 bytes, and past 64 causes
 * named a known cause unknown. */
static void test_long_list(void **state)
{
    (void)state;
    enum { N = 1000 };
    char *text = malloc(N * 16);
    size_t len = 0;
    for (int i = 0; i < N; i++)
        len += (size_t)sprintf(text + len, "%scause-%d", i ? "," : "", i);
    struct fail_on f;
    const char *bad = NULL;
    assert_int_equal(fail_on_parse(&f, text, known, NULL, &bad), 0);
    assert_int_equal(f.cause_count, N);
    struct od_diagnosis d = diag("cause-999", OD_ROLE_ROOT, OD_CONF_LOW);
    assert_true(fail_on_counts(&f, &d));
    fail_on_free(&f);
    free(text);
}

static void test_empty_items_are_skipped(void **state)
{
    (void)state;
    struct fail_on f;
    const char *bad = NULL;
    assert_int_equal(fail_on_parse(&f, ",gpu-oom,,", known, NULL, &bad), 0);
    assert_int_equal(f.cause_count, 1);
    fail_on_free(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_causes_and_confidence),
        cmocka_unit_test(test_confidence_alone_counts_every_cause),
        cmocka_unit_test(test_unknown_item_is_named),
        cmocka_unit_test(test_long_list),
        cmocka_unit_test(test_empty_items_are_skipped),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
