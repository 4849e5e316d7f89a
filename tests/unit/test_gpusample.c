/* GPU sampling under a job, against tests/fake_nvml: the job's processes
 * apart from others, the facts' lines, idle and busy GPUs. */
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
#include <time.h>
#include <unistd.h>

#include "gpusample.h"

static char facts[16384];

static pid_t start_job(void)
{
    pid_t pid = fork();
    if (pid == 0) {
        setpgid(0, 0);
        pause();
        _exit(0);
    }
    setpgid(pid, pid);
    return pid;
}

static void nap_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

static void test_other_process(void **state)
{
    (void)state;
    char others[64], want[512];
    unsigned int holder = (unsigned int)getppid(); /* alive, and not the job's */
    snprintf(others, sizeof others, "%u:64424509440", holder);
    setenv("FAKE_NVML_OTHERS", others, 1);
    setenv("FAKE_NVML_JOB_BYTES", "1073741824", 1);
    setenv("FAKE_NVML_UTIL", "0", 1);
    struct gpusample *g = gpusample_start(nvml_open(NULL, 0));
    assert_non_null(g);
    pid_t job = start_job();
    gpusample_job(g, job);
    nap_ms(700);
    assert_int_equal(gpusample_busy(g), 0);
    char now[512] = "";
    gpusample_now(g, now, sizeof now, "stall");
    assert_string_equal(now, "oomdiag-run: stall gpu 0 util=0% used=65498251264 bytes job=1073741824 bytes "
                             "total=85899345920 bytes\n");
    kill(job, SIGKILL);
    waitpid(job, NULL, 0);
    facts[0] = '\0';
    size_t n = gpusample_finish(g, facts, sizeof facts);
    assert_int_equal(n, strlen(facts));
    assert_non_null(strstr(facts, "oomdiag-run: nvml gpus=1 samples="));
    assert_non_null(strstr(facts, " interval=250 ms (999.99-fake)\n"));
    assert_non_null(strstr(facts, "oomdiag-run: nvml gpu 0 uuid=GPU-00000000-fake-0000-0000-000000000000 "
                                  "serial=1650000000001 pci_bus_id=00000000:3B:00.0 name=Fake GPU 80GB\n"));
    assert_non_null(strstr(facts, "oomdiag-run: nvml gpu 0 memory total=85899345920 bytes peak_used=65498251264 "
                                  "bytes job_peak=1073741824 bytes util_peak=0%\n"));
    snprintf(want, sizeof want, "oomdiag-run: nvml gpu 0 other process pid=%u bytes=64424509440 name=fake-holder-%u\n",
             holder, holder);
    assert_non_null(strstr(facts, want));
    snprintf(want, sizeof want,
             "oomdiag-run: nvml other processes held 64424509440 bytes of gpu 0 (85899345920 bytes) at the last "
             "sample, the most pid %u with 64424509440 bytes: fake-holder-%u\n",
             holder, holder);
    assert_non_null(strstr(facts, want));
    assert_null(strstr(facts, "no process accounts for"));
    assert_non_null(strstr(facts, "oomdiag-run: host "));
    unsetenv("FAKE_NVML_OTHERS");
    unsetenv("FAKE_NVML_JOB_BYTES");
}

static void test_busy_unaccounted_xid(void **state)
{
    (void)state;
    setenv("FAKE_NVML_JOB_BYTES", "2147483648", 1);
    setenv("FAKE_NVML_UNACCOUNTED", "21474836480", 1);
    setenv("FAKE_NVML_OTHERS", "4194303:21474836480", 1); /* a pid that is gone: a leftover context */
    setenv("FAKE_NVML_UTIL", "98", 1);
    setenv("FAKE_NVML_XID", "79", 1);
    struct gpusample *g = gpusample_start(nvml_open(NULL, 0));
    assert_non_null(g);
    pid_t job = start_job();
    gpusample_job(g, job);
    nap_ms(700);
    assert_int_equal(gpusample_busy(g), 1);
    kill(job, SIGKILL);
    waitpid(job, NULL, 0);
    facts[0] = '\0';
    gpusample_finish(g, facts, sizeof facts);
    assert_non_null(strstr(facts, "oomdiag-run: nvml memory no process accounts for: 42949672960 bytes of gpu 0 "
                                  "(85899345920 bytes) at the last sample, 42949672960 bytes before the job "
                                  "started\n"));
    assert_non_null(strstr(facts, "oomdiag-run: nvml gpu 0 xid 79 at "));
    assert_non_null(strstr(facts, " s pci_bus_id=00000000:3B:00.0\n"));
    assert_null(strstr(facts, "other processes held"));
    unsetenv("FAKE_NVML_JOB_BYTES");
    unsetenv("FAKE_NVML_UNACCOUNTED");
    unsetenv("FAKE_NVML_OTHERS");
    unsetenv("FAKE_NVML_UTIL");
    unsetenv("FAKE_NVML_XID");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_other_process),
        cmocka_unit_test(test_busy_unaccounted_xid),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
