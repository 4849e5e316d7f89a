/* --follow --stall: no stall before the log had data, one fact line per
 * quiet spell with the last progress step, the pseudo-input ended. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "feed.h"
#include "job.h"
#include "follow_stall.h"
#include "helpers.h"

static void test_spells(void **state)
{
    struct job_fixture *fx = *state;
    struct od_job *job = od_job_create(fx->rs, NULL, collect_msg, &fx->msgs);
    assert_non_null(job);
    long in = od_job_feed_begin(job, "train.log");
    assert_true(in >= 0);
    job->inputs[in].last_step = 41;
    struct follow_stall s;
    follow_stall_init(&s, 2, 100);
    assert_int_equal(follow_stall_check(&s, job, 100, 105), 0); /* no data yet */
    assert_int_equal(follow_stall_check(&s, job, 101, 102), 0); /* data, quiet 1 s */
    assert_int_equal(follow_stall_check(&s, job, 101, 103.5), 1);
    assert_int_equal(job->input_count, 2);
    assert_string_equal(job->inputs[1].path, FOLLOW_STALL_INPUT);
    assert_int_equal(job->inputs[1].lines, 2);
    assert_int_equal(follow_stall_check(&s, job, 101, 110), 0); /* once per spell */
    assert_int_equal(follow_stall_check(&s, job, 111, 112), 0);
    assert_int_equal(follow_stall_check(&s, job, 111, 113), 1); /* a new spell */
    assert_int_equal(job->inputs[1].lines, 4);
    follow_stall_end(&s);
    assert_null(s.feed);
    follow_stall_init(&s, 0, 0);
    assert_int_equal(follow_stall_check(&s, job, 1, 1000), 0); /* off */
    od_job_free(job);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_spells),
    };
    return cmocka_run_group_tests(tests, job_fixture_setup, job_fixture_teardown);
}
