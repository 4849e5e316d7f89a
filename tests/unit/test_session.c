/* The one pipeline: a job -> classify, --fail-on, render, exit status;
 * -q renders nothing; --follow's new root causes only, each once. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <unistd.h>

#include "helpers.h"
#include "session.h"

static struct job_fixture *fx; /* the group's: its rules and directory */

static int setup(void **state)
{
    int rc = job_fixture_setup(state);
    fx = *state;
    return rc;
}

static struct od_job *job_of(const char *text, const char *name)
{
    struct od_job *job = od_job_create(fx->rs, NULL, collect_msg, &fx->msgs);
    int fd = pipe_with(text, strlen(text));
    assert_int_equal(od_job_add_fd(job, fd, name), 0);
    close(fd);
    return job;
}

static struct session_opts opts_to(FILE *out, const struct fail_on *f, int quiet)
{
    struct session_opts o = {out, {OD_FMT_TEXT, 0, 0, 5, NULL, "en", NULL, 0, NULL}, f, quiet, NULL, NULL, NULL, 0, 0, 0};
    return o;
}

static void test_job_and_status(void **state)
{
    (void)state;
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    struct session_opts o = opts_to(out, NULL, 0);
    struct session s;
    assert_int_equal(session_init(&s, &o), 0);
    struct od_job *job = job_of("step 3\nKilled\n", "job.log");
    assert_true(session_job(&s, job, "job.log", 0) > 0);
    assert_int_equal(session_finish(&s), 0);
    assert_int_equal(session_status(&s), OD_EXIT_DIAGNOSED);
    session_free(&s);
    fclose(out);
    assert_non_null(strstr(buf, "job.log:2"));
    free(buf);
    od_job_free(job);
}

static int known(const void *ctx, const char *id)
{
    (void)ctx;
    return id[0] != 'x';
}

static void test_fail_on_and_quiet(void **state)
{
    (void)state;
    struct fail_on f;
    const char *bad = NULL;
    assert_int_equal(fail_on_parse(&f, "nccl-timeout", known, NULL, &bad), 0);
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    struct session_opts o = opts_to(out, &f, 1);
    struct session s;
    assert_int_equal(session_init(&s, &o), 0);
    struct od_job *job = job_of("step 3\nKilled\n", "job.log");
    assert_true(session_job(&s, job, "job.log", 0) > 0);
    assert_int_equal(session_finish(&s), 0);
    assert_int_equal(session_status(&s), OD_EXIT_NONE); /* not a cause --fail-on names */
    session_free(&s);
    fclose(out);
    assert_int_equal(len, 0); /* -q */
    free(buf);
    od_job_free(job);
    fail_on_free(&f);
}

static void test_new_roots_once(void **state)
{
    (void)state;
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    struct session_opts o = opts_to(out, NULL, 0);
    struct session s;
    assert_int_equal(session_init(&s, &o), 0);
    struct od_job *job = job_of("step 3\nKilled\n", "job.log");
    assert_true(session_job(&s, job, "job.log", SESSION_NEW_ROOTS) > 0);
    fflush(out);
    size_t first = len;
    assert_true(first > 0);
    assert_true(session_job(&s, job, "job.log", SESSION_NEW_ROOTS) > 0);
    fflush(out);
    assert_int_equal(len, first); /* reported once */
    assert_int_equal(session_status(&s), OD_EXIT_DIAGNOSED);
    session_free(&s);
    fclose(out);
    free(buf);
    od_job_free(job);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_job_and_status),
        cmocka_unit_test(test_fail_on_and_quiet),
        cmocka_unit_test(test_new_roots_once),
    };
    return cmocka_run_group_tests(tests, setup, job_fixture_teardown);
}
