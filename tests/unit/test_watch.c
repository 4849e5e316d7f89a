/* What `oomdiag run` watches: nothing without NVML or --stall; with
 * --stall, a quiet job's stall report and its facts at the end (only while
 * the job stays quiet after it). */
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

#include "cli.h"
#include "helpers.h"
#include "live.h"
#include "watch.h"

static struct job_fixture *fx;

static int setup(void **state)
{
    int rc = job_fixture_setup(state);
    fx = *state;
    return rc;
}

static struct live_spec parse(int argc, char **argv)
{
    struct cli_opts o;
    struct live_spec spec;
    memset(&o, 0, sizeof o);
    assert_int_equal(cli_parse(argc, argv, &o, stderr), 0);
    cli_live_spec(&o, &spec);
    return spec;
}

static void test_nothing_to_watch(void **state)
{
    (void)state;
    char *argv[] = {"oomdiag", "run", "--no-nvml", "--", "true", NULL};
    struct live_spec o = parse(5, argv);
    struct live_words lw = {"en", NULL, NULL};
    assert_null(watch_start(&o, fx->rs, &lw, collect_msg, &fx->msgs));
    assert_null(watch_hooks(NULL));
    char facts[16] = "x";
    assert_int_equal(watch_finish(NULL, facts, 1, sizeof facts), 1);
}

static void test_stall_facts(void **state)
{
    (void)state;
    char *argv[] = {"oomdiag", "run", "-q", "--no-nvml", "--stall=1s", "--stall-signal=TERM", "--", "x", NULL};
    struct live_spec o = parse(8, argv);
    struct live_words lw = {"en", NULL, NULL};
    struct watch *w = watch_start(&o, fx->rs, &lw, collect_msg, &fx->msgs);
    assert_non_null(w);
    const struct run_hooks *h = watch_hooks(w);
    pid_t pid = fork();
    if (pid == 0) {
        setpgid(0, 0);
        pause();
        _exit(0);
    }
    setpgid(pid, pid);
    h->started(h->ctx, pid);
    h->output(h->ctx, "step 3\nwaiting", 14);
    assert_true(h->quiet(h->ctx, pid, 0.25) > 0);
    assert_int_equal(h->quiet(h->ctx, pid, 1.5), -1);
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM);
    static char facts[65536];
    strcpy(facts, "oomdiag-run: command: x\n");
    size_t len = watch_finish(w, facts, strlen(facts), sizeof facts);
    assert_int_equal(len, strlen(facts));
    assert_non_null(strstr(facts, "oomdiag-run: stall: no output for 1.500 s at "));
    assert_non_null(strstr(facts, "oomdiag-run: stall line -2: step 3\noomdiag-run: stall line -1: waiting\n"));
    assert_non_null(strstr(facts, "oomdiag-run: stall signal SIGTERM sent to the job's process group\n"));

    /* The job printed again after the stall: no stall in its facts. */
    w = watch_start(&o, fx->rs, &lw, collect_msg, &fx->msgs);
    h = watch_hooks(w);
    h->started(h->ctx, 0);
    w = (struct watch *)h->ctx;
    assert_int_equal(h->quiet(h->ctx, 0, 0.1) > 0, 1);
    strcpy(facts, "");
    assert_int_equal(watch_finish(w, facts, 0, sizeof facts), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_nothing_to_watch),
        cmocka_unit_test(test_stall_facts),
    };
    return cmocka_run_group_tests(tests, setup, job_fixture_teardown);
}
