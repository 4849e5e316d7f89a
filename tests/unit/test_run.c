/* Running a job as a child: its output passed on (to a file standing in
 * for oomdiag's stdout and stderr), copied to a log (plain or gzip) and
 * to a live scan; what only the parent knows (status, signal, the command
 * that could not start, bytes, peak RSS). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>
#include <zlib.h>

#include "helpers.h"
#include "job.h"
#include "run.h"

static char *dir;

static int setup(void **state)
{
    (void)state;
    dir = tmpdir_create();
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    tmpdir_remove(dir);
    return 0;
}

/* Runs ARGV with stdout and stderr sent to DIR/out; the text it wrote. */
static char *run(char **argv, const char *log, struct livescan *scan, struct run_result *res, int *rc, char *err,
                 size_t errsize)
{
    char out[4096];
    snprintf(out, sizeof out, "%s/out", dir);
    fflush(stdout);
    fflush(stderr);
    int saved1 = dup(1), saved2 = dup(2);
    int fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    assert_true(fd >= 0);
    dup2(fd, 1);
    dup2(fd, 2);
    close(fd);
    struct run_spec spec = {argv, log, scan, NULL};
    *rc = run_process(&spec, res, err, errsize);
    dup2(saved1, 1);
    dup2(saved2, 2);
    close(saved1);
    close(saved2);
    return read_whole_file(out, NULL);
}

static void test_exit_and_output(void **state)
{
    (void)state;
    char *argv[] = {"sh", "-c", "echo to-out; echo to-err >&2; exit 3", NULL};
    char log[4096];
    snprintf(log, sizeof log, "%s/job.log", dir);
    struct run_result r;
    char err[256];
    int rc;
    char *text = run(argv, log, NULL, &r, &rc, err, sizeof err);
    assert_int_equal(rc, 0);
    assert_int_equal(r.exited, 1);
    assert_int_equal(r.status, 3);
    assert_int_equal(r.signal, 0);
    assert_int_equal(r.exec_errno, 0);
    assert_int_equal(r.bytes[0], 7);
    assert_int_equal(r.bytes[1], 7);
    assert_int_equal(r.pty[0], 0); /* a file, not a terminal: pipes */
    assert_true(r.elapsed_s >= 0);
    assert_true(r.maxrss_bytes > 0);
    assert_string_equal(r.log_error, "");
    assert_non_null(strstr(text, "to-out\n"));
    assert_non_null(strstr(text, "to-err\n"));
    free(text);
    char *logged = read_whole_file(log, NULL);
    assert_non_null(strstr(logged, "to-out\n"));
    assert_non_null(strstr(logged, "to-err\n"));
    assert_int_equal(strlen(logged), 14);
    free(logged);
}

static void test_signal(void **state)
{
    (void)state;
    char *argv[] = {"sh", "-c", "kill -9 $$", NULL};
    struct run_result r;
    char err[256];
    int rc;
    free(run(argv, NULL, NULL, &r, &rc, err, sizeof err));
    assert_int_equal(rc, 0);
    assert_int_equal(r.exited, 0);
    assert_int_equal(r.signal, SIGKILL);
    assert_int_equal(r.status, 137);
    assert_string_equal(run_signal_name(r.signal), "SIGKILL");
    assert_string_equal(run_signal_name(SIGSEGV), "SIGSEGV");
    assert_null(run_signal_name(0));
    assert_null(run_signal_name(999));
}

static void test_cannot_start(void **state)
{
    (void)state;
    char *argv[] = {"/nonexistent/oomdiag-no-such-command", NULL};
    struct run_result r;
    char err[256];
    int rc;
    free(run(argv, NULL, NULL, &r, &rc, err, sizeof err));
    assert_int_equal(rc, -1);
    assert_int_equal(r.exec_errno, ENOENT);
    assert_int_equal(r.status, 127);
    assert_string_equal(err, "cannot run /nonexistent/oomdiag-no-such-command: No such file or directory");
    /* A log that cannot be kept is no reason not to run the job: it runs,
     * and the reason is in log_error. */
    char *ok[] = {"true", NULL};
    free(run(ok, "/proc/self/no/job.log", NULL, &r, &rc, err, sizeof err));
    assert_int_equal(rc, 0);
    assert_int_equal(r.status, 0);
    assert_non_null(strstr(r.log_error, "cannot keep the log"));
}

static void test_gzip_log_and_scan(void **state)
{
    (void)state;
    struct msgs ms = {0};
    struct od_ruleset *rs = load_test_rules("classify/rules.json", &ms);
    assert_non_null(rs);
    struct od_job *job = od_job_create(rs, NULL, collect_msg, &ms);
    struct livescan *scan = livescan_start(job, "(output)", 2);
    assert_non_null(scan);
    char log[4096];
    snprintf(log, sizeof log, "%s/job.log.gz", dir);
    char *argv[] = {"sh", "-c", "echo step 1; echo Segmentation fault >&2; echo Killed", NULL};
    struct run_result r;
    char err[256];
    int rc;
    free(run(argv, log, scan, &r, &rc, err, sizeof err));
    assert_int_equal(rc, 0);
    assert_int_equal(livescan_finish(scan, NULL), 0);
    assert_int_equal(job->inputs[0].lines, 3);
    assert_int_equal(job->finding_count, 2);
    gzFile g = gzopen(log, "rb");
    assert_non_null(g);
    char text[256] = "";
    int n = gzread(g, text, sizeof text - 1);
    gzclose(g);
    assert_int_equal(n, 33);
    assert_non_null(strstr(text, "Segmentation fault\n"));
    od_job_free(job);
    od_ruleset_free(rs);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_exit_and_output),
        cmocka_unit_test(test_signal),
        cmocka_unit_test(test_cannot_start),
        cmocka_unit_test(test_gzip_log_and_scan),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
