/* outbuf: text appended to a fixed buffer, cut where the room ends, always
 * NUL-terminated; nothing written once full. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "outbuf.h"

static void test_appends(void **state)
{
    (void)state;
    char buf[64];
    struct outbuf o = {buf, sizeof buf, 0};
    outbuf_put(&o, "gpu %d ", 0);
    outbuf_put(&o, "used=%llu\n", 42ULL);
    assert_string_equal(buf, "gpu 0 used=42\n");
    assert_int_equal(o.len, strlen(buf));
}

static void test_cut_at_room(void **state)
{
    (void)state;
    char buf[8];
    struct outbuf o = {buf, sizeof buf, 0};
    outbuf_put(&o, "%s", "abcdefghijkl");
    assert_string_equal(buf, "abcdefg");
    assert_int_equal(o.len, 7);
    outbuf_put(&o, "%s", "more"); /* full: nothing changes */
    assert_string_equal(buf, "abcdefg");
    assert_int_equal(o.len, 7);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_appends),
        cmocka_unit_test(test_cut_at_room),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
