/* A job's records: inputs, findings kept within their caps while counts
 * go on, taking findings back, inputs that gave no text, retry marks. */
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
#include "job.h"

static const struct sig *sig_named(const struct od_ruleset *rs, const char *id)
{
    for (size_t i = 0; i < rs->sig_count; i++)
        if (strcmp(rs->sigs[i]->id, id) == 0)
            return rs->sigs[i];
    fail_msg("no signature %s", id);
    return NULL;
}

static void test_inputs(void **state)
{
    struct job_fixture *fx = *state;
    assert_int_equal(job_add_input(fx->job, "a.log"), 0);
    assert_int_equal(job_add_input(fx->job, "dir/\033[2Jb.log"), 1);
    assert_string_equal(fx->job->inputs[0].path, "a.log");
    assert_null(strchr(fx->job->inputs[1].path, '\033')); /* a hostile file name is shown safely */
    assert_int_equal(fx->job->inputs[1].rank, -1);
    assert_int_equal(fx->job->inputs[1].last_step, -1);
    for (int i = 2; i < 50; i++)
        assert_int_equal(job_add_input(fx->job, "more.log"), i);
    assert_int_equal(fx->job->input_count, 50);
}

static void test_input_errors(void **state)
{
    struct job_fixture *fx = *state;
    assert_int_equal(job_input_error(fx->job, -1, "gone.log", "not-found", "No such file"), 0);
    assert_int_equal(fx->job->inputs[0].error, 1);
    assert_int_equal(fx->job->had_error, 1);
    assert_string_equal(fx->job->inputs[0].error_message, "No such file");
    long i = job_add_input(fx->job, "e.log");
    assert_int_equal(job_input_error(fx->job, i, NULL, "empty", "nothing in it"), i);
    assert_int_equal(fx->job->inputs[i].error, 0); /* empty and binary are not trouble */
    assert_int_equal(job_input_error(fx->job, i, NULL, "binary", "a binary file"), i);
    assert_string_equal(fx->job->inputs[i].error_kind, "binary");
    assert_string_equal(fx->job->inputs[i].error_message, "a binary file");
    od_job_reset(fx->job);
    assert_int_equal(fx->job->had_error, 0);
    assert_int_equal(fx->job->input_count, 0);
}

static void test_record_caps(void **state)
{
    struct job_fixture *fx = *state;
    const struct sig *segv = sig_named(fx->rs, "segv");
    struct od_fields f;
    fields_init(&f);
    fields_set_num(&f, "n", OD_FIELD_INT, 1);
    job_add_input(fx->job, "a.log");
    for (int i = 0; i < JOB_KEEP_PER_SIG_INPUT + 5; i++)
        assert_int_equal(job_record(fx->job, 0, segv, &f, "Segmentation fault", 18, (unsigned long long)i + 1, -1), 0);
    assert_int_equal(fx->job->finding_count, JOB_KEEP_PER_SIG_INPUT);               /* kept: capped */
    assert_int_equal(fx->job->sig_counts[segv->index], JOB_KEEP_PER_SIG_INPUT + 5); /* counted: all */
    assert_int_equal(fx->job->findings[0].seq, 0);
    assert_int_equal(fields_get(&fx->job->findings[0].fields, "n")->num, 1);
    /* The cap is per input: a new input keeps its own. */
    job_add_input(fx->job, "b.log");
    assert_int_equal(job_record(fx->job, 1, segv, &f, "x", 1, 1, 2), 0);
    assert_int_equal(fx->job->finding_count, JOB_KEEP_PER_SIG_INPUT + 1);
    assert_int_equal(fx->job->findings[JOB_KEEP_PER_SIG_INPUT].rank, 2);
    /* A long text is bounded. */
    char *big = malloc(100000);
    memset(big, 'x', 100000);
    const struct sig *killed = sig_named(fx->rs, "killed");
    assert_int_equal(job_record(fx->job, 1, killed, &f, big, 100000, 2, -1), 0);
    const char *kept = fx->job->findings[fx->job->finding_count - 1].text;
    assert_true(strlen(kept) <= JOB_TEXT_MAX + 3);                /* and an ellipsis */
    assert_string_equal(kept + strlen(kept) - 3, "\xe2\x80\xa6"); /* says it was cut */
    free(big);
    /* Taking back: the last findings and their counts. */
    job_unrecord(fx->job, 2);
    assert_int_equal(fx->job->finding_count, JOB_KEEP_PER_SIG_INPUT);
    assert_int_equal(fx->job->sig_counts[killed->index], 0);
    assert_int_equal(fx->job->sig_counts[segv->index], JOB_KEEP_PER_SIG_INPUT + 5);
    job_unrecord(fx->job, 1000); /* more than there are: stops at none */
    assert_int_equal(fx->job->finding_count, 0);
    fields_free(&f);
}

static void test_retry_marks(void **state)
{
    struct job_fixture *fx = *state;
    const struct sig *retry = sig_named(fx->rs, "oom-retry"), *oom = sig_named(fx->rs, "oom");
    struct od_fields f;
    fields_init(&f);
    job_add_input(fx->job, "t.log");
    struct input *in = &fx->job->inputs[0];
    assert_null(job_retry_mark(in, oom->cause));
    job_record(fx->job, 0, oom, &f, "oom", 3, 10, 2); /* a failure before any retry: no retry yet */
    const struct retry_mark *m = job_retry_mark(in, oom->cause);
    assert_non_null(m);
    assert_int_equal(m->retry_line, 0);
    assert_int_equal(m->last_line, 10);
    assert_int_equal(m->rank, 2);
    /* Progress after it, of its rank or of none known; another rank's is not counted. */
    job_progress_after(fx->job, 0, 3, 2, 0);
    job_progress_after(fx->job, 0, 4, -1, 0);
    job_progress_after(fx->job, 0, 9, 5, 0);
    assert_int_equal(m->went_on, 2);
    assert_int_equal(m->step_first, 3);
    assert_int_equal(m->step_last, 4);
    assert_true(job_progress_wants_rank(fx->job, 0));
    in->progress_lines = 4;
    job_record(fx->job, 0, retry, &f, "retry", 5, 11, -1);
    assert_int_equal(m->went_on, 0); /* counted again from the retry line */
    assert_int_equal(m->retry_line, 11);
    assert_int_equal(m->fail_line, 0);
    assert_int_equal(m->progress_at, 4);
    job_record(fx->job, 0, oom, &f, "oom", 3, 20, -1);
    assert_int_equal(m->fail_line, 20);
    /* A progress update counted late belongs before the retry line's findings. */
    in->progress_lines = 5;
    job_progress_before(fx->job, 0, 11);
    assert_int_equal(m->progress_at, 5);
    job_progress_before(fx->job, 0, 12); /* another line: untouched */
    assert_int_equal(m->progress_at, 5);
    /* Another cause's marks are its own; its line stops this one's count. */
    assert_null(job_retry_mark(in, sig_named(fx->rs, "killed")->cause));
    job_progress_after(fx->job, 0, 5, -1, 0);
    job_record(fx->job, 0, sig_named(fx->rs, "killed"), &f, "Killed", 6, 30, -1);
    assert_int_equal(m->cut_line, 30);
    job_progress_after(fx->job, 0, 6, -1, 0);
    assert_int_equal(m->went_on, 1);
    assert_non_null(job_retry_mark(in, sig_named(fx->rs, "killed")->cause));
    fields_free(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_inputs, job_fixture_setup, job_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_input_errors, job_fixture_setup, job_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_record_caps, job_fixture_setup, job_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_retry_marks, job_fixture_setup, job_fixture_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
