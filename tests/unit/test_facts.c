/* The parent's facts as pseudo-input lines: their format is an interface
 * (docs/run.md) that rules match, so every form is checked to the byte. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <errno.h>
#include <signal.h>

#include "facts.h"

static char buf[8192];

static void test_exit_status(void **state)
{
    (void)state;
    char *argv[] = {"python", "train.py", "--lr", "1e-3", NULL};
    struct run_result r = {0};
    r.exited = 1;
    r.status = 3;
    r.elapsed_s = 12.3456;
    r.maxrss_bytes = -1;
    r.bytes[0] = 10;
    r.bytes[1] = 20;
    size_t n = facts_format(buf, sizeof buf, argv, &r, NULL, NULL, NULL);
    assert_string_equal(buf, "oomdiag-run: command: python train.py --lr 1e-3\n"
                             "oomdiag-run: exit status=3\n"
                             "oomdiag-run: elapsed 12.346 s\n"
                             "oomdiag-run: output stdout=10 bytes stderr=20 bytes tty=none\n");
    assert_int_equal(n, strlen(buf));
}

static void test_signal_and_extras(void **state)
{
    (void)state;
    char *argv[] = {"sh", "-c", "echo 'hi' \"$X\"\nnext", "", NULL};
    struct run_result r = {0};
    r.signal = SIGKILL;
    r.status = 137;
    r.core = 1;
    r.pty[1] = 1;
    r.forwarded = 2;
    r.maxrss_bytes = 1048576;
    r.host_mem_bytes = 17179869184LL;
    struct livescan_stats scan = {5000, 300, 4};
    struct cgroup_snap before = {0}, after = {0};
    snprintf(after.dir, sizeof after.dir, "/sys/fs/cgroup/job");
    after.max = -1;
    after.peak = 4096;
    after.event_count = 2;
    snprintf(after.events[0].name, sizeof after.events[0].name, "oom_kill");
    after.events[0].value = 1;
    snprintf(after.events[1].name, sizeof after.events[1].name, "max");
    after.events[1].value = 9;
    before.event_count = 1;
    snprintf(before.events[0].name, sizeof before.events[0].name, "oom_kill");
    before.events[0].value = 0;
    facts_format(buf, sizeof buf, argv, &r, &scan, &before, &after);
    assert_string_equal(buf, "oomdiag-run: command: sh -c 'echo '\\''hi'\\'' \"$X\" next' ''\n"
                             "oomdiag-run: exit signal=9 (SIGKILL) status=137 core dumped\n"
                             "oomdiag-run: elapsed 0.000 s\n"
                             "oomdiag-run: output stdout=0 bytes stderr=0 bytes tty=stderr\n"
                             "oomdiag-run: output not scanned 300 bytes (4 lines): written faster than it could be "
                             "scanned\n"
                             "oomdiag-run: signals forwarded=2\n"
                             "oomdiag-run: rusage maxrss=1048576 bytes\n"
                             "oomdiag-run: host MemTotal=17179869184 bytes\n"
                             "oomdiag-run: cgroup /sys/fs/cgroup/job\n"
                             "oomdiag-run: cgroup memory.max max\n"
                             "oomdiag-run: cgroup memory.peak 4096 bytes\n"
                             "oomdiag-run: cgroup memory.events oom_kill 0 -> 1\n"
                             "oomdiag-run: cgroup memory.events max 9\n");
}

static void test_exec_failed_and_unknown_signal(void **state)
{
    (void)state;
    char *argv[] = {"no-such-cmd", NULL};
    struct run_result r = {0};
    r.exec_errno = ENOENT;
    r.exited = 1;
    r.status = 127;
    r.maxrss_bytes = -1;
    r.pty[0] = r.pty[1] = 1;
    facts_format(buf, sizeof buf, argv, &r, NULL, NULL, NULL);
    assert_non_null(strstr(buf, "oomdiag-run: exec failed errno=2 (No such file or directory) status=127\n"));
    assert_non_null(strstr(buf, "tty=stdout,stderr\n"));
    r = (struct run_result){0};
    r.signal = 77; /* no name */
    r.status = 205;
    r.maxrss_bytes = -1;
    facts_format(buf, sizeof buf, argv, &r, NULL, NULL, NULL);
    assert_non_null(strstr(buf, "oomdiag-run: exit signal=77 (unknown) status=205\n"));
}

/* A small buffer is cut, NUL-terminated, never overrun. */
static void test_cut(void **state)
{
    (void)state;
    char *argv[] = {"python", "train.py", NULL};
    struct run_result r = {0};
    r.exited = 1;
    r.maxrss_bytes = -1;
    char small[32];
    memset(small, 'X', sizeof small);
    size_t n = facts_format(small, 20, argv, &r, NULL, NULL, NULL);
    assert_true(n < 20);
    assert_int_equal(strlen(small), n);
    assert_int_equal(small[20], 'X');
    assert_int_equal(facts_format(small, 0, argv, &r, NULL, NULL, NULL), 0);
    assert_int_equal(small[0], 'o'); /* size 0: nothing written */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_exit_status),
        cmocka_unit_test(test_signal_and_extras),
        cmocka_unit_test(test_exec_failed_and_unknown_signal),
        cmocka_unit_test(test_cut),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
