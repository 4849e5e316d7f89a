/* Reading cgroup v1 memory files (issue 21, item 3): a fake cgroup root
 * in a temporary directory (no real cgroup is touched): the memory
 * controller's directory found from mountinfo and /proc/self/cgroup
 * lines, memory.oom_control's oom_kill and memory.failcnt read as
 * counters, the limit and the peak, and the facts lines they give. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cgroup.h"
#include "cgroup_v1.h"
#include "facts.h"
#include "helpers.h"
#include "run.h"

static void test_dir_from_mountinfo(void **state)
{
    (void)state;
    char *tmp = tmpdir_create();
    char mi[4096], pc[4096], dir[CGROUP_PATH_MAX];
    snprintf(mi, sizeof mi, "%s/mountinfo", tmp);
    snprintf(pc, sizeof pc, "%s/cgroup", tmp);
    static const char mountinfo[] =
        "25 1 0:22 / /sys/fs/cgroup ro,nosuid,nodev,noexec shared:9 - tmpfs tmpfs ro,mode=755\n"
        "26 25 0:23 / /sys/fs/cgroup/unified rw,nosuid,nodev,noexec,relatime shared:10 - cgroup2 cgroup2 rw\n"
        "31 25 0:28 / /sys/fs/cgroup/cpu,cpuacct rw,nosuid shared:15 - cgroup cgroup rw,cpu,cpuacct\n"
        "35 25 0:32 / /sys/fs/cgroup/memory rw,nosuid,nodev,noexec,relatime shared:19 - cgroup cgroup rw,memory\n";
    write_file(tmp, "mountinfo", mountinfo, sizeof mountinfo - 1);
    static const char host[] = "12:pids:/user.slice\n5:memory:/slurm/uid_1000/job_42/step_0\n"
                               "4:cpu,cpuacct:/slurm\n0::/user.slice/session-1.scope\n";
    write_file(tmp, "cgroup", host, sizeof host - 1);
    assert_int_equal(cgroup_v1_dir_from(mi, pc, dir, sizeof dir), 0);
    assert_string_equal(dir, "/sys/fs/cgroup/memory/slurm/uid_1000/job_42/step_0");
    /* In a container the mount's root is the container's cgroup. */
    static const char in_container[] =
        "700 690 0:32 /docker/abc /sys/fs/cgroup/memory ro,nosuid - cgroup cgroup rw,memory\n";
    write_file(tmp, "mountinfo", in_container, sizeof in_container - 1);
    static const char docker[] = "9:memory:/docker/abc\n";
    write_file(tmp, "cgroup", docker, sizeof docker - 1);
    assert_int_equal(cgroup_v1_dir_from(mi, pc, dir, sizeof dir), 0);
    assert_string_equal(dir, "/sys/fs/cgroup/memory");
    /* No memory controller on v1 (a pure v2 machine): none. */
    static const char v2[] = "0::/user.slice\n";
    write_file(tmp, "cgroup", v2, sizeof v2 - 1);
    assert_int_equal(cgroup_v1_dir_from(mi, pc, dir, sizeof dir), -1);
    /* "memoryx" is not "memory". */
    static const char other[] = "3:memoryx:/a\n";
    write_file(tmp, "cgroup", other, sizeof other - 1);
    assert_int_equal(cgroup_v1_dir_from(mi, pc, dir, sizeof dir), -1);
    tmpdir_remove(tmp);
}

static void write_v1(const char *dir, unsigned oom_kill, unsigned failcnt)
{
    char text[256];
    int n = snprintf(text, sizeof text, "oom_kill_disable 0\nunder_oom 0\noom_kill %u\n", oom_kill);
    write_file(dir, "memory.oom_control", text, (size_t)n);
    n = snprintf(text, sizeof text, "%u\n", failcnt);
    write_file(dir, "memory.failcnt", text, (size_t)n);
}

static void test_snapshot_and_facts(void **state)
{
    (void)state;
    char *dir = tmpdir_create();
    write_v1(dir, 0, 3);
    write_file(dir, "memory.limit_in_bytes", "67108864\n", 9);
    write_file(dir, "memory.max_usage_in_bytes", "67104768\n", 9);
    assert_true(cgroup_v1_is(dir));
    struct cgroup_snap before, after;
    cgroup_snapshot(dir, &before); /* the v2 entry point reads v1's files in a v1 directory */
    assert_int_equal(before.max, 67108864);
    assert_int_equal(before.peak, 67104768);
    assert_int_equal(cgroup_event(&before, "oom_kill"), 0);
    assert_int_equal(cgroup_event(&before, "failcnt"), 3);
    assert_int_equal(cgroup_event(&before, "oom_kill_disable"), -1); /* a setting */
    write_v1(dir, 1, 9);
    cgroup_snapshot(dir, &after);
    assert_int_equal(cgroup_event(&after, "oom_kill"), 1);
    char *argv[] = {"true", NULL};
    struct run_result res;
    memset(&res, 0, sizeof res);
    res.maxrss_bytes = -1;
    char facts[4096];
    size_t len = facts_format(facts, sizeof facts, argv, &res, NULL, &before, &after);
    facts[len < sizeof facts ? len : sizeof facts - 1] = '\0';
    assert_non_null(strstr(facts, "oomdiag-run: cgroup memory.limit_in_bytes 67108864 bytes\n"));
    assert_non_null(strstr(facts, "oomdiag-run: cgroup memory.max_usage_in_bytes 67104768 bytes\n"));
    assert_non_null(strstr(facts, "oomdiag-run: cgroup memory.oom_control oom_kill 0 -> 1\n"));
    assert_non_null(strstr(facts, "oomdiag-run: cgroup memory.failcnt failcnt 3 -> 9\n"));
    /* No limit: the largest page-aligned value. */
    write_file(dir, "memory.limit_in_bytes", "9223372036854771712\n", 20);
    cgroup_snapshot(dir, &after);
    assert_int_equal(after.max, -1);
    tmpdir_remove(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dir_from_mountinfo),
        cmocka_unit_test(test_snapshot_and_facts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
