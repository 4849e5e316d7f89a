/* Decisions: a root takes its variant's decision, else its cause's, else
 * stop; consequences have none; exit codes per decision, and a job's
 * status under --exit-by-decision. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "decision.h"
#include "helpers.h"

static struct od_ruleset *rs;
static struct msgs msgs;
static struct od_job *job;
static char *dir;

static int setup(void **state)
{
    (void)state;
    return rules_job_open("decision/rules.json", &rs, &msgs, &job, &dir);
}

static int teardown(void **state)
{
    (void)state;
    rules_job_close(&rs, &job, &dir);
    return 0;
}

static void scan(const char *text)
{
    write_file(dir, "job.log", text, strlen(text));
    assert_int_equal(od_job_add_path(job, dir), 0);
}

/* The decision of the first diagnosis of TEXT. */
static int first_decision(const char *text)
{
    scan(text);
    struct od_report *rep = od_classify(job);
    assert_non_null(rep);
    assert_true(rep->count > 0);
    assert_int_equal(rep->diagnoses[0].role, OD_ROLE_ROOT);
    int d = rep->diagnoses[0].decision;
    od_report_free(rep);
    return d;
}

static void test_cause_decision(void **state)
{
    (void)state;
    assert_int_equal(first_decision("step 1\nboom\n"), OD_DECISION_RETRY);
}

static void test_variant_decision_wins(void **state)
{
    (void)state;
    assert_int_equal(first_decision("boom on device 3\n"), OD_DECISION_RETRY_ELSEWHERE);
}

static void test_no_decision_is_stop(void **state)
{
    (void)state;
    assert_int_equal(first_decision("bang\n"), OD_DECISION_STOP);
}

static void test_names_and_codes(void **state)
{
    (void)state;
    assert_string_equal(od_decision_name(OD_DECISION_RETRY), "retry");
    assert_string_equal(od_decision_name(OD_DECISION_RETRY_ELSEWHERE), "retry-elsewhere");
    assert_string_equal(od_decision_name(OD_DECISION_CHANGE_AND_RETRY), "change-and-retry");
    assert_string_equal(od_decision_name(OD_DECISION_STOP), "stop");
    assert_null(od_decision_name(OD_DECISION_NONE));
    assert_int_equal(decision_exit_code(OD_DECISION_RETRY), 75);
    assert_int_equal(decision_exit_code(OD_DECISION_RETRY_ELSEWHERE), 76);
    assert_int_equal(decision_exit_code(OD_DECISION_CHANGE_AND_RETRY), 77);
    assert_int_equal(decision_exit_code(OD_DECISION_STOP), 78);
    assert_int_equal(decision_exit_code(OD_DECISION_NONE), -1);
}

static void test_job_status(void **state)
{
    (void)state;
    scan("boom on device 0\n");
    assert_int_equal(decision_job_status(job, 0), 0);  /* the job passed: its status */
    assert_int_equal(decision_job_status(job, 1), 76); /* failed: the decision */
    assert_int_equal(decision_job_status(job, 137), 76);
}

static void test_job_status_undiagnosed(void **state)
{
    (void)state;
    scan("nothing to see\n");
    assert_int_equal(decision_job_status(job, 3), 3);
}

int main(void)
{
#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)
    const struct CMUnitTest tests[] = {
        T(test_cause_decision), T(test_variant_decision_wins),  T(test_no_decision_is_stop), T(test_names_and_codes),
        T(test_job_status),     T(test_job_status_undiagnosed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
