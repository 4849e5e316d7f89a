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
#include "msg.h"

static struct od_ruleset *rs;
static struct msgs ms;
static char *dir;

static int setup(void **state)
{
    (void)state;
    char path[512];
    snprintf(path, sizeof path, "%s/classify/rules.json", TEST_DATA);
    rs = od_ruleset_create(collect_msg, &ms);
    dir = tmpdir_create();
    return rs == NULL || od_ruleset_add_path(rs, path) != 0 || od_ruleset_finish(rs) != 0 ? -1 : 0;
}

static int teardown(void **state)
{
    (void)state;
    od_ruleset_free(rs);
    tmpdir_remove(dir);
    return 0;
}

static void print_msg(void *ctx, const struct od_message *m)
{
    (void)ctx;
    msg_print(stderr, m, 0);
}

static pid_t start(const char *log)
{
    char out[4096], err[4096];
    snprintf(out, sizeof out, "%s/out", dir);
    snprintf(err, sizeof err, "%s/err", dir);
    unlink(out); /* not read before the child writes them anew */
    unlink(err);
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        signal(SIGSEGV, SIG_DFL);
        signal(SIGABRT, SIG_DFL);
        int o = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0600), e = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        dup2(o, 1);
        dup2(e, 2);
        char *argv[] = {"oomdiag", "--follow", (char *)log, "--color=never", NULL};
        struct cli_opts opts;
        memset(&opts, 0, sizeof opts);
        if (cli_parse(4, argv, &opts, stderr) != 0)
            _exit(99);
        int status = follow_main(&opts, rs, "en", NULL, print_msg, NULL);
        fflush(stdout);
        _exit(status);
    }
    return pid;
}

/* Waits until DIR/NAME holds TEXT; 0, or -1 after 60 s. */
static int wait_for(const char *name, const char *text)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
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

static void test_waits_then_reports(void **state)
{
    (void)state;
    char log[4096];
    snprintf(log, sizeof log, "%s/job.log", dir);
    pid_t pid = start(log);
    assert_int_equal(wait_for("err", "waiting for the file to appear"), 0);
    write_file(dir, "job.log", "step 1\nKilled\n", 14);
    assert_int_equal(wait_for("out", "Killed for memory"), 0);
    assert_int_equal(stop(pid), 0);
    char path[4096];
    snprintf(path, sizeof path, "%s/out", dir);
    char *out = read_whole_file(path, NULL);
    /* Reported once. */
    char *first = strstr(out, "ROOT CAUSE host-oom-kill");
    assert_non_null(first);
    assert_null(strstr(first + 1, "ROOT CAUSE"));
    free(out);
}

static void test_nothing_found(void **state)
{
    (void)state;
    char log[4096];
    snprintf(log, sizeof log, "%s/quiet.log", dir);
    pid_t pid = start(log);
    /* Its note says it is in its loop, SIGTERM caught. */
    assert_int_equal(wait_for("err", "waiting for the file to appear"), 0);
    write_file(dir, "quiet.log", "step 1\nall fine\n", 16);
    assert_int_equal(stop(pid), 1); /* nothing was diagnosed */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_waits_then_reports),
        cmocka_unit_test(test_nothing_found),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
