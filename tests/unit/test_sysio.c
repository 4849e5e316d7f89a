/* The clock goes forward; a write lands whole, and fails on a closed pipe. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include "sysio.h"

static void test_clock(void **state)
{
    (void)state;
    double a = sysio_now_s(), b = sysio_now_s();
    assert_true(a > 0);
    assert_true(b >= a);
}

static void test_write_all(void **state)
{
    (void)state;
    int p[2];
    assert_int_equal(pipe(p), 0);
    fcntl(p[1], F_SETFL, O_NONBLOCK);
    assert_int_equal(sysio_write_all(p[1], "hello\n", 6), 0);
    char buf[8] = {0};
    assert_int_equal(read(p[0], buf, sizeof buf), 6);
    assert_string_equal(buf, "hello\n");
    close(p[0]);
    signal(SIGPIPE, SIG_IGN);
    assert_int_equal(sysio_write_all(p[1], "x", 1), -1);
    close(p[1]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_clock),
        cmocka_unit_test(test_write_all),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
