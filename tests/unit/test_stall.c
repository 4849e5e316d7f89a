/* --stall's parts: durations and signals parsed, the output's last lines,
 * one report per quiet spell and the signal after it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "stall.h"

static void test_parse(void **state)
{
    (void)state;
    double s = 0;
    int sig = 0;
    assert_int_equal(stall_parse_duration("30", &s), 0);
    assert_true(s == 30);
    assert_int_equal(stall_parse_duration("1.5s", &s), 0);
    assert_true(s == 1.5);
    assert_int_equal(stall_parse_duration("500ms", &s), 0);
    assert_true(s == 0.5);
    assert_int_equal(stall_parse_duration("5m", &s), 0);
    assert_true(s == 300);
    assert_int_equal(stall_parse_duration("2h", &s), 0);
    assert_true(s == 7200);
    assert_int_equal(stall_parse_duration("0", &s), -1);
    assert_int_equal(stall_parse_duration("-3s", &s), -1);
    assert_int_equal(stall_parse_duration("3 days", &s), -1);
    assert_int_equal(stall_parse_duration("", &s), -1);
    assert_int_equal(stall_parse_signal("TERM", &sig), 0);
    assert_int_equal(sig, SIGTERM);
    assert_int_equal(stall_parse_signal("sigint", &sig), 0);
    assert_int_equal(sig, SIGINT);
    assert_int_equal(stall_parse_signal("9", &sig), 0);
    assert_int_equal(sig, SIGKILL);
    assert_int_equal(stall_parse_signal("NOPE", &sig), -1);
    assert_int_equal(stall_parse_signal("0", &sig), -1);
    assert_string_equal(stall_signal_name(SIGTERM), "SIGTERM");
}

static struct stall st;

static void test_last_lines(void **state)
{
    (void)state;
    memset(&st, 0, sizeof st);
    const char *out = "a\nb\r\nprogress 10%\rprogress 20%\r\n\n\x1b[0mlast";
    stall_output(&st, out, strlen(out));
    char buf[512] = "";
    stall_last_lines(&st, 3, "L", buf, sizeof buf);
    assert_string_equal(buf, "L -3: progress 10%\nL -2: progress 20%\nL -1:  [0mlast\n");
    /* More than the tail holds: the newest bytes stay. */
    static char big[STALL_TAIL + 100];
    memset(big, 'x', sizeof big);
    big[sizeof big - 2] = '\n';
    big[sizeof big - 1] = 'y';
    stall_output(&st, big, sizeof big);
    assert_int_equal(st.tail_len, STALL_TAIL);
    assert_int_equal(st.tail[STALL_TAIL - 1], 'y');
}

static int reports;

static void on_report(void *ctx, struct stall *s, int pid, double quiet_s)
{
    (void)ctx, (void)s, (void)pid, (void)quiet_s;
    reports++;
}

static void test_quiet(void **state)
{
    (void)state;
    memset(&st, 0, sizeof st);
    st.after_s = 2;
    st.sig = SIGTERM;
    st.report = on_report;
    pid_t pid = fork();
    if (pid == 0) {
        setpgid(0, 0);
        pause();
        _exit(0);
    }
    setpgid(pid, pid);
    reports = 0;
    int ms = stall_quiet(&st, pid, 0.5);
    assert_true(ms >= 1500 && ms <= 1501);
    assert_int_equal(reports, 0);
    assert_int_equal(stall_quiet(&st, pid, 2.0), -1);
    assert_int_equal(reports, 1);
    assert_int_equal(stall_quiet(&st, pid, 3.0), -1); /* once per quiet spell */
    assert_int_equal(reports, 1);
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM);
    stall_output(&st, "more\n", 5);
    assert_int_equal(stall_quiet(&st, pid, 2.5), -1); /* a new spell: reported, signal only once */
    assert_int_equal(reports, 2);
    st.after_s = 0;
    assert_int_equal(stall_quiet(&st, pid, 100), -1);
}

static void test_pyspy_absent(void **state)
{
    (void)state;
    char buf[64] = "";
    char *path = getenv("PATH") ? strdup(getenv("PATH")) : NULL;
    setenv("PATH", "/nonexistent", 1);
    assert_int_equal(stall_pyspy(getpgrp(), buf, sizeof buf), 0);
    assert_string_equal(buf, "");
    if (path != NULL) {
        setenv("PATH", path, 1);
        free(path);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse),
        cmocka_unit_test(test_last_lines),
        cmocka_unit_test(test_quiet),
        cmocka_unit_test(test_pyspy_absent),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
