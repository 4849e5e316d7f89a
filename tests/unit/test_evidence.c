/* Evidence typing: captures to typed fields (sizes by the "_bytes"
 * suffix, integers, safe text), requested_bytes from shape and dtype,
 * and the rank a field list names. */
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "evidence.h"

static void capture(struct od_fields *f, const char *name, const char *value)
{
    assert_int_equal(evidence_capture(f, name, value, strlen(value)), 0);
}

static void test_types(void **state)
{
    (void)state;
    struct od_fields f;
    fields_init(&f);
    capture(&f, "free" EVIDENCE_BYTES_SUFFIX, "2.87 GiB");
    capture(&f, "device", "3");
    capture(&f, "pid", "-12");
    capture(&f, "kernel", "ampere_sgemm 7");
    capture(&f, "big", "99999999999999999999"); /* too large for an integer: text */
    capture(&f, "limit_bytes", "lots");         /* an unparsable size is left out */
    const struct od_field *x = fields_get(&f, "free_bytes");
    assert_non_null(x);
    assert_int_equal(x->type, OD_FIELD_BYTES);
    assert_int_equal(x->num, 3081639035LL); /* 2.87 * 2^30, rounded */
    x = fields_get(&f, "device");
    assert_int_equal(x->type, OD_FIELD_INT);
    assert_int_equal(x->num, 3);
    assert_int_equal(fields_get(&f, "pid")->num, -12);
    assert_int_equal(fields_get(&f, "kernel")->type, OD_FIELD_STRING);
    assert_string_equal(fields_get(&f, "kernel")->str, "ampere_sgemm 7");
    assert_int_equal(fields_get(&f, "big")->type, OD_FIELD_STRING);
    assert_null(fields_get(&f, "limit_bytes"));
    fields_free(&f);
}

static void test_int(void **state)
{
    (void)state;
    long long v = 0;
    assert_int_equal(evidence_int("+42", 3, &v), 0);
    assert_int_equal(v, 42);
    assert_int_equal(evidence_int("4 2", 3, &v), -1);
    assert_int_equal(evidence_int("-", 1, &v), -1);
    assert_int_equal(evidence_int("", 0, &v), -1);
    assert_int_equal(evidence_int("12", 1, &v), 0); /* LEN bytes only */
    assert_int_equal(v, 1);
    /* The largest long long, and one past it (no signed overflow: UBSan
     * would stop the suite) with every last digit that overflows. */
    assert_int_equal(evidence_int("9223372036854775807", 19, &v), 0);
    assert_true(v == LLONG_MAX);
    assert_int_equal(evidence_int("9223372036854775808", 19, &v), -1);
    assert_int_equal(evidence_int("9223372036854775809", 19, &v), -1);
    assert_int_equal(evidence_int("-9223372036854775807", 20, &v), 0);
    assert_true(v == -LLONG_MAX);
    assert_int_equal(evidence_int("92233720368547758070", 20, &v), -1);
}

/* requested_bytes after evidence_derive over SHAPE, DTYPE and, if not
 * NULL, a captured REQUESTED; -1 when it has none. */
static long long derived(const struct od_ruleset *rs, const char *shape, const char *dtype, const char *requested)
{
    struct od_fields f;
    fields_init(&f);
    capture(&f, EVIDENCE_SHAPE, shape);
    capture(&f, EVIDENCE_DTYPE, dtype);
    if (requested != NULL)
        capture(&f, EVIDENCE_REQUESTED_BYTES, requested);
    evidence_derive(rs, &f);
    const struct od_field *x = fields_get(&f, EVIDENCE_REQUESTED_BYTES);
    long long v = x != NULL && x->type == OD_FIELD_BYTES ? x->num : -1;
    fields_free(&f);
    return v;
}

static void test_requested_bytes(void **state)
{
    (void)state;
    struct od_ruleset *rs = od_ruleset_create(NULL, NULL);
    assert_non_null(rs);
    assert_int_equal(ruleset_add_dtype(rs, "torch.float16", 2), 0);
    assert_int_equal(derived(rs, "[32, 1024, 1024]", "torch.float16", NULL), 32LL * 1024 * 1024 * 2);
    assert_int_equal(derived(rs, "32x1024", "torch.float16", NULL), 32LL * 1024 * 2);
    /* A captured size wins; an unknown dtype or a shape without numbers
     * gives none. */
    assert_int_equal(derived(rs, "32x1024", "torch.float16", "1 KiB"), 1024);
    assert_int_equal(derived(rs, "32x1024", "torch.float7", NULL), -1);
    assert_int_equal(derived(rs, "(?)", "torch.float16", NULL), -1);
    od_ruleset_free(rs);
}

static void test_rank(void **state)
{
    (void)state;
    struct od_fields f;
    fields_init(&f);
    assert_int_equal(evidence_rank(&f), -1);
    capture(&f, EVIDENCE_RANK, "7");
    assert_int_equal(evidence_rank(&f), 7);
    capture(&f, EVIDENCE_RANK, "1000000"); /* out of range */
    assert_int_equal(evidence_rank(&f), -1);
    capture(&f, EVIDENCE_RANK, "x");
    assert_int_equal(evidence_rank(&f), -1);
    fields_free(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_types),
        cmocka_unit_test(test_int),
        cmocka_unit_test(test_requested_bytes),
        cmocka_unit_test(test_rank),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
