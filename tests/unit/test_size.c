#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
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

/* The reference: how size_format's output was defined, with printf. */
static void format_by_printf(long long bytes, char *buf, size_t bufsize)
{
    static const char *const names[] = {"KiB", "MiB", "GiB", "TiB", "PiB"};
    if (bytes < 1024) {
        snprintf(buf, bufsize, "%lld bytes", bytes);
        return;
    }
    double v = (double)bytes / 1024.0;
    size_t u = 0;
    while (v >= 1024.0 && u + 1 < sizeof names / sizeof names[0]) {
        v /= 1024.0;
        u++;
    }
    snprintf(buf, bufsize, "%.2f %s", v, names[u]);
}

static void same_as_printf(long long bytes)
{
    char want[64], got[64];
    format_by_printf(bytes, want, sizeof want);
    size_format(bytes, got, sizeof got);
    if (strcmp(want, got) != 0)
        print_error("%lld: \"%s\", printf: \"%s\"\n", bytes, got, want);
    assert_string_equal(got, want);
}

/* Every unit's boundaries, values exactly between two hundredths (ties go
 * to the even one), and random sizes up to 2^63, as printf formats them;
 * a small buffer cuts the text as snprintf does. */
static void test_format_matches_printf(void **state)
{
    (void)state;
    long long edge[] = {-1,
                        -1024,
                        -9223372036854775807LL - 1,
                        1024,
                        1025,
                        1152,
                        1029,
                        1034,
                        1048575,
                        1048576,
                        (1LL << 53) - 1,
                        1LL << 53,
                        (1LL << 53) + 1,
                        1LL << 60,
                        9223372036854775807LL};
    for (size_t i = 0; i < sizeof edge / sizeof edge[0]; i++)
        same_as_printf(edge[i]);
    for (int k = 10; k <= 62; k++)
        for (long long d = -3; d <= 3; d++) {
            same_as_printf((1LL << k) + d);
            same_as_printf((1LL << k) / 200 * 201 + d); /* near x.005 */
        }
    for (long long t = 1; t < 1024; t += 2) /* t/8 hundredths: every tie below 8 KiB */
        same_as_printf(1024 * 8 + t * 1024 / 800);
    srand(14);
    for (int i = 0; i < 200000; i++) {
        long long b = (long long)(((unsigned long long)rand() << 31 ^ (unsigned long long)rand() << 11 ^
                                   (unsigned long long)rand()) >>
                                  (unsigned)(rand() % 63));
        same_as_printf(b);
        same_as_printf(b - b % 1024 + 512 * (b & 1)); /* and some with few bits */
    }
    char small[5], want[5];
    size_format(3081764864LL, small, sizeof small);
    format_by_printf(3081764864LL, want, sizeof want);
    assert_string_equal(small, want);
    size_format(100, small, sizeof small);
    format_by_printf(100, want, sizeof want);
    assert_string_equal(small, want);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_units),
        cmocka_unit_test(test_rejects),
        cmocka_unit_test(test_format),
        cmocka_unit_test(test_format_matches_printf),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
