#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "size.h"

static long long parse(const char *s)
{
    long long v = -7;
    if (size_parse(s, strlen(s), &v) != 0)
        return -1;
    return v;
}

static void test_units(void **state)
{
    (void)state;
    assert_int_equal(parse("512.00 MiB"), 536870912LL);
    assert_int_equal(parse("1.2 GiB"), 1288490189LL);
    assert_int_equal(parse("0 bytes"), 0);
    assert_int_equal(parse("2.5GiB"), 2684354560LL);
    assert_int_equal(parse("1,073,741,824 bytes"), 1073741824LL);
    assert_int_equal(parse("139. MiB"), 145752064LL);
    assert_int_equal(parse("4096kB"), 4194304LL);
    assert_int_equal(parse("216.8KiB"), 222003LL);
    assert_int_equal(parse("123"), 123);
    assert_int_equal(parse("1024.00 KiB"), 1048576LL);
    assert_int_equal(parse("7.45 GiB"), 7999376589LL);
    assert_int_equal(parse(" 3 GB "), 3221225472LL);
}

static void test_rejects(void **state)
{
    (void)state;
    assert_int_equal(parse(""), -1);
    assert_int_equal(parse("GiB"), -1);
    assert_int_equal(parse("12 parsecs"), -1);
    assert_int_equal(parse("1.2.3 GiB"), -1);
    assert_int_equal(parse("99999999999999999999 TiB"), -1);
    assert_int_equal(parse(",5 MiB"), -1);
}

static void test_format(void **state)
{
    char buf[32];
    (void)state;
    size_format(0, buf, sizeof buf);
    assert_string_equal(buf, "0 bytes");
    size_format(1023, buf, sizeof buf);
    assert_string_equal(buf, "1023 bytes");
    size_format(3081764864LL, buf, sizeof buf);
    assert_string_equal(buf, "2.87 GiB");
    size_format(20709376LL, buf, sizeof buf);
    assert_string_equal(buf, "19.75 MiB");
    size_format(1048576LL, buf, sizeof buf);
    assert_string_equal(buf, "1.00 MiB");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_units),
        cmocka_unit_test(test_rejects),
        cmocka_unit_test(test_format),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
