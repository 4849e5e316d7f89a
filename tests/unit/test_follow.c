/* --follow in a child process: it waits for the file to appear, reports a
 * root cause once its message is complete, and on SIGTERM ends with the
 * usual status (0 diagnosed, 1 none).  The parent waits for what the
 * child writes (with a generous deadline: nothing here is timed). */
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
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "follow.h"
#include "helpers.h"

static struct job_fixture *fx; /* the group's: its rules and directory */

static int setup(void **state)
{
    int rc = job_fixture_setup(state);
    fx = *state;
    return rc;
}

/* Follows LOG in a child, its stdout and stderr in DIR/out and DIR/err. */
static pid_t start(const char *log)
{
    pid_t pid = fork_redirected(fx->dir, NULL);
    if (pid == 0) {
        char *argv[] = {"oomdiag", "--follow", (char *)log, "--color=never", NULL};
        struct cli_opts opts;
        memset(&opts, 0, sizeof opts);
        if (cli_parse(4, argv, &opts, stderr) != 0)
            _exit(99);
        int status = follow_main(&opts, fx->rs, "en", NULL, NULL, print_msg_stderr, NULL);
        fflush(stdout);
        _exit(status);
    }
    return pid;
}

/* Waits until DIR/NAME holds TEXT; 0, or -1 after 60 s. */
static int wait_for(const char *name, const char *text)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", fx->dir, name);
    struct timespec nap = {0, 50 * 1000 * 1000};
    for (int i = 0; i < 1200; i++) {
        FILE *f = fopen(path, "r");
        if (f != NULL) {
            char buf[8192];
            size_t n = fread(buf, 1, sizeof buf - 1, f);
            fclose(f);
            buf[n] = '\0';
            if (strstr(buf, text) != NULL)
                return 0;
        }
        nanosleep(&nap, NULL);
    }
    return -1;
}

static int stop(pid_t pid)
{
    kill(pid, SIGTERM);
    int st = 0;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    assert_true(WIFEXITED(st));
    return WEXITSTATUS(st);
}

/* Follows DIR/NAME, which appears with TEXT once the child is in its loop
 * (its note says so: SIGTERM is caught from then on). */
static pid_t follow_new_file(const char *name, const char *text)
{
    char log[4096];
    snprintf(log, sizeof log, "%s/%s", fx->dir, name);
    pid_t pid = start(log);
    assert_int_equal(wait_for("err", "waiting for the file to appear"), 0);
    write_file(fx->dir, name, text, strlen(text));
    return pid;
}

static void test_waits_then_reports(void **state)
{
    (void)state;
    pid_t pid = follow_new_file("job.log", "step 1\nKilled\n");
    assert_int_equal(wait_for("out", "Killed for memory"), 0);
    assert_int_equal(stop(pid), 0);
    char *out = read_in(fx->dir, "out");
    /* Reported once. */
    char *first = strstr(out, "ROOT CAUSE host-oom-kill");
    assert_non_null(first);
    assert_null(strstr(first + 1, "ROOT CAUSE"));
    free(out);
}

static void test_nothing_found(void **state)
{
    (void)state;
    pid_t pid = follow_new_file("quiet.log", "step 1\nall fine\n");
    assert_int_equal(stop(pid), 1); /* nothing was diagnosed */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_waits_then_reports),
        cmocka_unit_test(test_nothing_found),
    };
    return cmocka_run_group_tests(tests, setup, job_fixture_teardown);
}
