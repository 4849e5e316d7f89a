/* The live ways: live_report (classify and render one job; a text report
 * with nothing in it left to the caller), --tee (stdin copied to stdout
 * byte for byte, the diagnosis on stderr) and `run -- CMD` (the job's own
 * exit status, the diagnosis only when it failed, --report FILE).  The
 * modes that own stdin, stdout and stderr run in a child process. */
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
#include <unistd.h>

#include "helpers.h"
#include "live.h"
#include "msg.h"

/* As main does: every message printed on stderr. */
static void print_msg(void *ctx, const struct od_message *m)
{
    (void)ctx;
    msg_print(stderr, m, 0);
}

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

static struct cli_opts parse(int argc, char **argv)
{
    struct cli_opts o;
    memset(&o, 0, sizeof o);
    assert_int_equal(cli_parse(argc, argv, &o, stderr), 0);
    return o;
}

static void test_report(void **state)
{
    (void)state;
    char *argv[] = {"oomdiag", "x.log", NULL};
    struct cli_opts o = parse(2, argv);
    struct live_words lw = {"en", NULL};
    struct od_job *job = od_job_create(rs, NULL, collect_msg, &ms);
    int fd = pipe_with("step 3\nKilled\n", 14);
    assert_int_equal(od_job_add_fd(job, fd, "job.log"), 0);
    close(fd);
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    int diagnosed = 0;
    assert_int_equal(live_report(job, &o, rs, &lw, out, 0, &diagnosed), 0);
    fclose(out);
    assert_int_equal(diagnosed, 1);
    assert_non_null(strstr(buf, "Killed for memory"));
    assert_non_null(strstr(buf, "job.log:2"));
    free(buf);

    /* Nothing found, text, *DIAGNOSED -1: nothing written, 0. */
    od_job_reset(job);
    fd = pipe_with("all is well\n", 12);
    od_job_add_fd(job, fd, "ok.log");
    close(fd);
    out = open_memstream(&buf, &len);
    diagnosed = -1;
    assert_int_equal(live_report(job, &o, rs, &lw, out, 0, &diagnosed), 0);
    fclose(out);
    assert_int_equal(diagnosed, 0);
    assert_int_equal(len, 0);
    free(buf);
    /* ... but JSON always says something. */
    char *jargv[] = {"oomdiag", "--format", "json", "x.log", NULL};
    struct cli_opts jo = parse(4, jargv);
    out = open_memstream(&buf, &len);
    diagnosed = -1;
    assert_int_equal(live_report(job, &jo, rs, &lw, out, 0, &diagnosed), 0);
    fclose(out);
    assert_int_equal(diagnosed, 0);
    assert_true(len > 0);
    assert_int_equal(buf[0], '{');
    free(buf);
    cli_free(&jo);
    cli_free(&o);
    od_job_free(job);
}

/* Runs a live mode in a child with STDIN_TEXT on stdin and stdout and
 * stderr in DIR/out and DIR/err; the mode's status. */
static int in_child(int tee, int argc, char **argv, const char *stdin_text)
{
    char out[4096], err[4096];
    snprintf(out, sizeof out, "%s/out", dir);
    snprintf(err, sizeof err, "%s/err", dir);
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        /* A crash must end the child, not run cmocka's recovery in it. */
        signal(SIGSEGV, SIG_DFL);
        signal(SIGABRT, SIG_DFL);
        signal(SIGBUS, SIG_DFL);
        int in = pipe_with(stdin_text, strlen(stdin_text));
        dup2(in, 0);
        int o = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0600), e = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        dup2(o, 1);
        dup2(e, 2);
        struct cli_opts opts;
        memset(&opts, 0, sizeof opts);
        if (cli_parse(argc, argv, &opts, stderr) != 0)
            _exit(99);
        int status =
            tee ? live_tee(&opts, rs, "en", NULL, print_msg, NULL) : live_run(&opts, rs, "en", NULL, print_msg, NULL);
        fflush(stdout);
        fflush(stderr);
        _exit(status);
    }
    int st = 0;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    assert_true(WIFEXITED(st));
    return WEXITSTATUS(st);
}

static char *child_file(const char *name)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return read_whole_file(path, NULL);
}

static void test_tee(void **state)
{
    (void)state;
    char *argv[] = {"oomdiag", "--tee", "--color=never", NULL};
    const char *input = "step 1\n\033[1mbold\033[0m\nKilled\nno newline";
    assert_int_equal(in_child(1, 3, argv, input), 0);
    char *out = child_file("out"), *err = child_file("err");
    assert_string_equal(out, input); /* byte for byte, escapes and all */
    assert_non_null(strstr(err, "Killed for memory"));
    free(out);
    free(err);
    /* Nothing found: status 1. */
    assert_int_equal(in_child(1, 3, argv, "fine\n"), 1);
    out = child_file("out");
    assert_string_equal(out, "fine\n");
    free(out);
}

static void test_run(void **state)
{
    (void)state;
    char *fails[] = {"oomdiag", "run", "--color=never", "--", "sh", "-c", "echo Killed; exit 137", NULL};
    assert_int_equal(in_child(0, 7, fails, ""), 137); /* the job's status */
    char *out = child_file("out"), *err = child_file("err");
    assert_string_equal(out, "Killed\n"); /* passed through */
    assert_non_null(strstr(err, "Killed for memory"));
    free(out);
    free(err);
    /* It succeeded: no diagnosis (without --always). */
    char *ok[] = {"oomdiag", "run", "--", "sh", "-c", "echo Killed", NULL};
    assert_int_equal(in_child(0, 6, ok, ""), 0);
    err = child_file("err");
    assert_string_equal(err, "");
    free(err);
    /* --report FILE: the diagnosis there, whatever the status. */
    char report[4096];
    snprintf(report, sizeof report, "%s/report.json", dir);
    char *rep[] = {"oomdiag", "run", "--format", "json", "--report", report, "--", "sh", "-c", "echo Killed", NULL};
    assert_int_equal(in_child(0, 10, rep, ""), 0);
    char *json = read_whole_file(report, NULL);
    assert_non_null(strstr(json, "\"host-oom-kill\""));
    assert_non_null(strstr(json, "(oomdiag run)")); /* the parent's facts are an input */
    free(json);
    /* A command that cannot start: 127. */
    char *bad[] = {"oomdiag", "run", "--", "/nonexistent/oomdiag-cmd", NULL};
    assert_int_equal(in_child(0, 4, bad, ""), 127);
    err = child_file("err");
    assert_string_equal(err, "oomdiag: error: cannot run /nonexistent/oomdiag-cmd: No such file or directory\n");
    free(err);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_report),
        cmocka_unit_test(test_tee),
        cmocka_unit_test(test_run),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
