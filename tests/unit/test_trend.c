/* What memory readings before a failure say: steady growth with its rate
 * per step, a flat series then a boundary, neither; and as a diagnosis:
 * variant, fields, the series. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "fields.h"
#include "helpers.h"
#include "trend.h"

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

/* Readings of MiB for steps 1.. (each after its step line), LINE_EXTRA after them. */
static const struct input *scan_mib(const int *mib, size_t n, const char *extra)
{
    char text[4096];
    size_t o = 0;
    for (size_t i = 0; i < n; i++)
        o += (size_t)snprintf(text + o, sizeof text - o, "step %zu\nMB used %d\n", i + 1, mib[i]);
    snprintf(text + o, sizeof text - o, "%s", extra);
    write_file(dir, "job.log", text, strlen(text));
    assert_int_equal(od_job_add_path(job, dir), 0);
    return &job->inputs[0];
}

static void test_growth(void **state)
{
    (void)state;
    static const int mib[] = {1000, 1100, 1200, 1290, 1400, 1500};
    const struct input *in = scan_mib(mib, 6, "out of memory\n");
    struct trend t;
    assert_int_equal(trend_of(in, 1000, &t), 0);
    assert_int_equal(t.points, 6);
    assert_true(t.growing);
    assert_int_equal(t.steps, 5);
    assert_true(t.growth_per_step == 100.0 * 1024 * 1024);
    assert_null(t.boundary);
}

static void test_flat_then_boundary(void **state)
{
    (void)state;
    static const int mib[] = {1000, 1002, 998, 1001, 1000};
    const struct input *in = scan_mib(mib, 5, "evaluating\nout of memory\n");
    struct trend t;
    assert_int_equal(trend_of(in, 1000, &t), 0);
    assert_false(t.growing);
    assert_non_null(t.boundary);
    assert_string_equal(t.boundary, "evaluation");
}

static void test_boundary_long_before(void **state)
{
    (void)state;
    static const char text[] =
        "MB used 1000\nMB used 1001\nMB used 1000\nevaluating\nMB used 1000\nMB used 1001\nout of memory\n";
    write_file(dir, "job.log", text, strlen(text));
    assert_int_equal(od_job_add_path(job, dir), 0);
    struct trend t;
    assert_int_equal(trend_of(&job->inputs[0], 1000, &t), 0);
    assert_null(t.boundary); /* flat readings after the evaluation: it is not where memory ran out */
}

static void test_flat_no_boundary_and_too_few(void **state)
{
    (void)state;
    static const int mib[] = {1000, 1002, 998, 1001};
    const struct input *in = scan_mib(mib, 4, "out of memory\n");
    struct trend t;
    assert_int_equal(trend_of(in, 1000, &t), 0);
    assert_false(t.growing);
    assert_null(t.boundary);
    assert_int_equal(trend_of(in, 4, &t), -1); /* only readings before line 4 count: one */
}

static void test_sawtooth_is_no_growth(void **state)
{
    (void)state;
    static const int mib[] = {1000, 1500, 1000, 1500, 1000, 1600};
    const struct input *in = scan_mib(mib, 6, "out of memory\n");
    struct trend t;
    assert_int_equal(trend_of(in, 1000, &t), 0);
    assert_false(t.growing);
}

static void test_one_jump_is_no_growth(void **state)
{
    (void)state;
    static const int mib[] = {1000, 2000, 2010, 2020, 2030, 2040};
    const struct input *in = scan_mib(mib, 6, "out of memory\n");
    struct trend t;
    assert_int_equal(trend_of(in, 1000, &t), 0);
    assert_false(t.growing); /* the first step's allocation, then nearly flat */
}

static void test_diagnosis(void **state)
{
    (void)state;
    static const int mib[] = {1000, 1100, 1200, 1300, 1400};
    scan_mib(mib, 5, "out of memory\n");
    struct od_report *rep = od_classify(job);
    assert_non_null(rep);
    const struct od_diagnosis *d = &rep->diagnoses[0];
    assert_string_equal(d->variant, "leak");
    assert_int_equal(fields_get(&d->fields, "growth_per_step_bytes")->num, 100LL * 1024 * 1024);
    assert_int_equal(fields_get(&d->fields, "growth_steps")->num, 4);
    assert_int_equal(d->series_count, 5);
    assert_true(d->series[4] == 1400.0 * 1024 * 1024);
    od_report_free(rep);
}

int main(void)
{
#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)
    const struct CMUnitTest tests[] = {
        T(test_growth),
        T(test_flat_then_boundary),
        T(test_boundary_long_before),
        T(test_flat_no_boundary_and_too_few),
        T(test_sawtooth_is_no_growth),
        T(test_one_jump_is_no_growth),
        T(test_diagnosis),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
