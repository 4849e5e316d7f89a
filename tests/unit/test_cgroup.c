/* Reading cgroup v2 memory files: a snapshot of a directory laid out as
 * the kernel does (made here, in a temporary directory: no real cgroup is
 * touched), the counters looked up, and this process's own cgroup. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <sys/stat.h>

#include "cgroup.h"
#include "helpers.h"

static void test_snapshot(void **state)
{
    (void)state;
    char *dir = tmpdir_create();
    const char events[] = "low 0\nhigh 3\nmax 7\noom 1\noom_kill 2\noom_group_kill 0\nbroken line\n";
    write_file(dir, "memory.events", events, sizeof events - 1);
    write_file(dir, "memory.max", "8589934592\n", 11);
    write_file(dir, "memory.peak", "123456789\n", 10);
    struct cgroup_snap s;
    cgroup_snapshot(dir, &s);
    assert_string_equal(s.dir, dir);
    assert_int_equal(s.max, 8589934592LL);
    assert_int_equal(s.peak, 123456789LL);
    assert_int_equal(s.event_count, 6); /* the broken line is skipped */
    assert_int_equal(cgroup_event(&s, "oom_kill"), 2);
    assert_int_equal(cgroup_event(&s, "high"), 3);
    assert_int_equal(cgroup_event(&s, "oom_group_kill"), 0);
    assert_int_equal(cgroup_event(&s, "oom_"), -1);
    assert_int_equal(cgroup_event(&s, "nope"), -1);
    /* "max" (no limit) and an unreadable peak are -1. */
    write_file(dir, "memory.max", "max\n", 4);
    char peak[4096];
    snprintf(peak, sizeof peak, "%s/memory.peak", dir);
    assert_int_equal(unlink(peak), 0);
    cgroup_snapshot(dir, &s);
    assert_int_equal(s.max, -1);
    assert_int_equal(s.peak, -1);
    /* Neither is a negative number or text. */
    write_file(dir, "memory.max", "-5\n", 3);
    write_file(dir, "memory.peak", "lots\n", 5);
    cgroup_snapshot(dir, &s);
    assert_int_equal(s.max, -1);
    assert_int_equal(s.peak, -1);
    tmpdir_remove(dir);
}

static void test_missing_and_bounded(void **state)
{
    (void)state;
    struct cgroup_snap s;
    cgroup_snapshot("/nonexistent/oomdiag-cgroup", &s);
    assert_int_equal(s.event_count, 0);
    assert_int_equal(s.max, -1);
    assert_int_equal(s.peak, -1);
    /* More counters than the snapshot holds: the first CGROUP_EVENTS_MAX. */
    char *dir = tmpdir_create();
    char text[2048];
    size_t n = 0;
    for (int i = 0; i < CGROUP_EVENTS_MAX + 10; i++)
        n += (size_t)snprintf(text + n, sizeof text - n, "e%d %d\n", i, i * 10);
    write_file(dir, "memory.events", text, n);
    cgroup_snapshot(dir, &s);
    assert_int_equal(s.event_count, CGROUP_EVENTS_MAX);
    assert_int_equal(cgroup_event(&s, "e0"), 0);
    assert_int_equal(cgroup_event(&s, "e15"), 150);
    assert_int_equal(cgroup_event(&s, "e16"), -1);
    tmpdir_remove(dir);
}

/* Where the machine has cgroup v2, this process's directory exists. */
static void test_self_dir(void **state)
{
    (void)state;
    char dir[CGROUP_PATH_MAX];
    if (cgroup_self_dir(dir, sizeof dir) != 0) {
        skip();
        return;
    }
    struct stat st;
    assert_int_equal(dir[0], '/');
    assert_int_equal(stat(dir, &st), 0);
    assert_true(S_ISDIR(st.st_mode));
    char tiny[4];
    assert_int_equal(cgroup_self_dir(tiny, sizeof tiny), -1); /* a path that does not fit */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_snapshot),
        cmocka_unit_test(test_missing_and_bounded),
        cmocka_unit_test(test_self_dir),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
