/* Memory readings and boundaries of an input: values in bytes from a
 * _bytes capture, from a bare number and its unit, percentages; the ring
 * of the last readings; boundaries; the step each reading came at. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "helpers.h"
#include "memseries.h"

static struct od_ruleset *rs;
static struct msgs msgs;
static struct od_job *job;
static char *dir;

static int setup(void **state)
{
    (void)state;
    return rules_job_open("series/rules.json", &rs, &msgs, &job, &dir);
}

static int teardown(void **state)
{
    (void)state;
    rules_job_close(&rs, &job, &dir);
    return 0;
}

static const struct input *scan(const char *text)
{
    write_file(dir, "job.log", text, strlen(text));
    assert_int_equal(od_job_add_path(job, dir), 0);
    assert_int_equal(job->input_count, 1);
    return &job->inputs[0];
}

static void test_bytes_and_steps(void **state)
{
    (void)state;
    const struct input *in = scan("step 1\nused: 1 GiB\nstep 2\nused: 1.5 GiB\n");
    assert_int_equal(memseries_kept(in), 2);
    assert_true(memseries_at(in, 0)->value == 1073741824.0);
    assert_int_equal(memseries_at(in, 0)->step, 1);
    assert_true(memseries_at(in, 1)->value == 1610612736.0);
    assert_int_equal(memseries_at(in, 1)->step, 2);
    assert_int_equal(memseries_at(in, 1)->line, 4);
    assert_int_equal(in->series.percent, 0);
}

static void test_bare_number_with_unit(void **state)
{
    (void)state;
    const struct input *in = scan("MB used 512.5\n");
    assert_int_equal(memseries_kept(in), 1);
    assert_true(memseries_at(in, 0)->value == 512.5 * 1024 * 1024);
}

static void test_percent_and_no_mixing(void **state)
{
    (void)state;
    const struct input *in = scan("usage 45.5%\nused: 1 GiB\nusage 50%\n");
    assert_int_equal(memseries_kept(in), 2); /* the bytes reading is of another kind */
    assert_int_equal(in->series.percent, 1);
    assert_true(memseries_at(in, 1)->value == 50.0);
}

static void test_ring_keeps_the_last(void **state)
{
    (void)state;
    char text[JOB_SERIES_MAX * 3 * 24];
    size_t o = 0;
    for (int i = 1; i <= JOB_SERIES_MAX * 2; i++)
        o += (size_t)snprintf(text + o, sizeof text - o, "MB used %d\n", i);
    const struct input *in = scan(text);
    assert_int_equal(in->series.count, JOB_SERIES_MAX * 2);
    assert_int_equal(memseries_kept(in), JOB_SERIES_MAX);
    assert_true(memseries_at(in, 0)->value == (JOB_SERIES_MAX + 1) * 1024.0 * 1024);
    assert_true(memseries_at(in, JOB_SERIES_MAX - 1)->value == JOB_SERIES_MAX * 2 * 1024.0 * 1024);
}

static void test_boundary_and_not_progress(void **state)
{
    (void)state;
    const struct input *in = scan("used: 1 GiB\nevaluating\n");
    assert_int_equal(in->series.boundary_count, 1);
    assert_string_equal(in->series.boundaries[0].name, "evaluation");
    assert_int_equal(in->series.boundaries[0].line, 2);
    assert_int_equal(in->progress_lines, 0); /* readings and boundaries are no progress lines */
}

int main(void)
{
#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)
    const struct CMUnitTest tests[] = {
        T(test_bytes_and_steps),     T(test_bare_number_with_unit),     T(test_percent_and_no_mixing),
        T(test_ring_keeps_the_last), T(test_boundary_and_not_progress),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
