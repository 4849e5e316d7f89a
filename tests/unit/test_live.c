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

#include "cli.h"
#include "helpers.h"
#include "live.h"

static struct job_fixture *fx; /* the group's: its rules and directory */

static int setup(void **state)
{
    int rc = job_fixture_setup(state);
    fx = *state;
    return rc;
}

static struct cli_opts parse(int argc, char **argv)
{
    struct cli_opts o;
    memset(&o, 0, sizeof o);
    assert_int_equal(cli_parse(argc, argv, &o, stderr), 0);
    return o;
}

static const struct live_spec *spec_of(const struct cli_opts *o)
{
    static struct live_spec spec;
    cli_live_spec(o, &spec);
    return &spec;
}

static void test_report(void **state)
{
    (void)state;
    char *argv[] = {"oomdiag", "x.log", NULL};
    struct cli_opts o = parse(2, argv);
    struct live_words lw = {"en", NULL, NULL};
    struct od_job *job = od_job_create(fx->rs, NULL, collect_msg, &fx->msgs);
    int fd = pipe_with("step 3\nKilled\n", 14);
    assert_int_equal(od_job_add_fd(job, fd, "job.log"), 0);
    close(fd);
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    int diagnosed = 0;
    assert_int_equal(live_report(job, spec_of(&o), fx->rs, &lw, out, 0, &diagnosed), 0);
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
    assert_int_equal(live_report(job, spec_of(&o), fx->rs, &lw, out, 0, &diagnosed), 0);
    fclose(out);
    assert_int_equal(diagnosed, 0);
    assert_int_equal(len, 0);
    free(buf);
    /* ... but JSON always says something. */
    char *jargv[] = {"oomdiag", "--format", "json", "x.log", NULL};
    struct cli_opts jo = parse(4, jargv);
    out = open_memstream(&buf, &len);
    diagnosed = -1;
    assert_int_equal(live_report(job, spec_of(&jo), fx->rs, &lw, out, 0, &diagnosed), 0);
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
    pid_t pid = fork_redirected(fx->dir, stdin_text);
    if (pid == 0) {
        struct cli_opts opts;
        memset(&opts, 0, sizeof opts);
        if (cli_parse(argc, argv, &opts, stderr) != 0)
            _exit(99);
        struct live_spec spec;
        cli_live_spec(&opts, &spec);
        int status = tee ? live_tee(&spec, fx->rs, "en", NULL, NULL, print_msg_stderr, NULL)
                         : live_run(&spec, fx->rs, "en", NULL, NULL, print_msg_stderr, NULL);
        fflush(stdout);
        fflush(stderr);
        _exit(status);
    }
    int st = 0;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    assert_true(WIFEXITED(st));
    return WEXITSTATUS(st);
}

static void test_tee(void **state)
{
    (void)state;
    char *argv[] = {"oomdiag", "--tee", "--color=never", NULL};
    const char *input = "step 1\n\033[1mbold\033[0m\nKilled\nno newline";
    assert_int_equal(in_child(1, 3, argv, input), 0);
    char *out = read_in(fx->dir, "out"), *err = read_in(fx->dir, "err");
    assert_string_equal(out, input); /* byte for byte, escapes and all */
    assert_non_null(strstr(err, "Killed for memory"));
    free(out);
    free(err);
    /* Nothing found: status 1. */
    assert_int_equal(in_child(1, 3, argv, "fine\n"), 1);
    out = read_in(fx->dir, "out");
    assert_string_equal(out, "fine\n");
    free(out);
}

static void test_run(void **state)
{
    (void)state;
    char *fails[] = {"oomdiag", "run", "--color=never", "--", "sh", "-c", "echo Killed; exit 137", NULL};
    assert_int_equal(in_child(0, 7, fails, ""), 137); /* the job's status */
    char *out = read_in(fx->dir, "out"), *err = read_in(fx->dir, "err");
    assert_string_equal(out, "Killed\n"); /* passed through */
    assert_non_null(strstr(err, "Killed for memory"));
    free(out);
    free(err);
    /* It succeeded: no diagnosis (without --always). */
    char *ok[] = {"oomdiag", "run", "--", "sh", "-c", "echo Killed", NULL};
    assert_int_equal(in_child(0, 6, ok, ""), 0);
    err = read_in(fx->dir, "err");
    assert_string_equal(err, "");
    free(err);
    /* --report FILE: the diagnosis there, whatever the status. */
    char report[4096];
    snprintf(report, sizeof report, "%s/report.json", fx->dir);
    char *rep[] = {"oomdiag", "run", "--format", "json", "--report", report, "--", "sh", "-c", "echo Killed", NULL};
    assert_int_equal(in_child(0, 10, rep, ""), 0);
    char *json = read_whole_file(report, NULL);
    assert_non_null(strstr(json, "\"host-oom-kill\""));
    assert_non_null(strstr(json, "(oomdiag run)")); /* the parent's facts are an input */
    free(json);
    /* A command that cannot start: 127. */
    char *bad[] = {"oomdiag", "run", "--", "/nonexistent/oomdiag-cmd", NULL};
    assert_int_equal(in_child(0, 4, bad, ""), 127);
    err = read_in(fx->dir, "err");
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
    return cmocka_run_group_tests(tests, setup, job_fixture_teardown);
}
