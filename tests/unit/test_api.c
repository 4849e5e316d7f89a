/* The API's names: every role and confidence both ways, the signature
 * roles' list, the version. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "api.h"

static void test_roles_round_trip(void **state)
{
    (void)state;
    static const char *const want[] = {"root",    "consequence", "confirmation", "hint",     "progress",
                                       "context", "retry",       "error",        "recovered"};
    for (int r = OD_ROLE_ROOT; r <= OD_ROLE_RECOVERED; r++) {
        assert_string_equal(od_role_name((enum od_role)r), want[r]);
        assert_int_equal(od_role_from_name(want[r]), r);
    }
    assert_int_equal(od_role_from_name("Root"), -1);
    assert_int_equal(od_role_from_name(""), -1);
}

static void test_signature_roles_leave_out_recovered(void **state)
{
    (void)state;
    size_t n = 0;
    for (; od_signature_role_names[n] != NULL; n++)
        assert_string_equal(od_signature_role_names[n], od_role_name((enum od_role)n));
    assert_int_equal(n, OD_ROLE_RECOVERED); /* every role before it, nothing after */
}

static void test_confidences_round_trip(void **state)
{
    (void)state;
    assert_string_equal(od_confidence_name(OD_CONF_LOW), "low");
    assert_string_equal(od_confidence_name(OD_CONF_MEDIUM), "medium");
    assert_string_equal(od_confidence_name(OD_CONF_HIGH), "high");
    for (int c = OD_CONF_LOW; c <= OD_CONF_HIGH; c++)
        assert_int_equal(od_confidence_from_name(od_confidence_names[c]), c);
    assert_null(od_confidence_names[OD_CONF_HIGH + 1]);
    assert_int_equal(od_confidence_from_name("highest"), -1);
    assert_int_equal(od_confidence_from_name("hig"), -1);
}

static void test_version(void **state)
{
    (void)state;
    const char *v = od_version();
    assert_non_null(v);
    assert_true(strlen(v) >= 5);
    assert_non_null(strchr(v, '.'));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_roles_round_trip),
        cmocka_unit_test(test_signature_roles_leave_out_recovered),
        cmocka_unit_test(test_confidences_round_trip),
        cmocka_unit_test(test_version),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
