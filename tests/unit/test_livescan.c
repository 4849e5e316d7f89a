/* The live scan: bytes handed over in pieces (a line split across them,
 * two streams interleaved) become one input's lines, scanned in the order
 * they were completed; bytes written straight into the pipe count too. */
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
#include "job.h"
#include "oomdiag/livescan.h"

static void put(struct livescan *ls, int stream, const char *s)
{
    livescan_put(ls, stream, s, strlen(s));
}

static void test_pieces_and_streams(void **state)
{
    struct job_fixture *fx = *state;
    struct livescan *ls = livescan_start(fx->job, "(output)", 2);
    assert_non_null(ls);
    put(ls, 0, "step 1\nSegmen");
    put(ls, 1, "step 2\n");
    put(ls, 0, "tation fault\n");
    put(ls, 1, "Killed\nno newline at the end");
    struct livescan_stats st;
    assert_int_equal(livescan_finish(ls, &st), 0);
    assert_int_equal(st.bytes, strlen("step 1\nSegmentation fault\nstep 2\nKilled\nno newline at the end"));
    assert_int_equal(st.skipped_bytes, 0);
    assert_int_equal(st.skipped_newlines, 0);
    assert_int_equal(fx->job->input_count, 1);
    assert_string_equal(fx->job->inputs[0].path, "(output)");
    assert_int_equal(fx->job->inputs[0].lines, 5);
    assert_int_equal(fx->job->inputs[0].progress_lines, 2);
    assert_int_equal(fx->job->finding_count, 2);
    /* Both streams' lines are one input; each finding is whole. */
    int segv = strcmp(fx->job->findings[0].sig->id, "segv") == 0 ? 0 : 1;
    assert_string_equal(fx->job->findings[segv].sig->id, "segv");
    assert_string_equal(fx->job->findings[1 - segv].sig->id, "killed");
    assert_string_equal(fx->job->findings[segv].text, "Segmentation fault");
}

static void test_fd_and_many_lines(void **state)
{
    struct job_fixture *fx = *state;
    struct livescan *ls = livescan_start(fx->job, "-", 1);
    assert_non_null(ls);
    int fd = livescan_fd(ls, 0);
    assert_true(fd >= 0);
    const char *direct = "Killed\n";
    assert_int_equal(write(fd, direct, strlen(direct)), (ssize_t)strlen(direct));
    /* Far more than a pipe holds, in small pieces: nothing is lost or
     * counted twice (skipping, when it happens, still counts lines). */
    char line[64];
    for (int i = 0; i < 50000; i++) {
        int n = snprintf(line, sizeof line, "step %d of a long run\n", i);
        livescan_put(ls, 0, line, (size_t)n);
    }
    put(ls, 0, "Segmentation fault\n");
    struct livescan_stats st;
    assert_int_equal(livescan_finish(ls, &st), 0);
    /* Skipped lines are counted as lines too (line numbers stay right). */
    assert_int_equal(fx->job->inputs[0].lines, 50002);
    assert_true(st.skipped_newlines <= 50002);
    assert_true(st.skipped_bytes <= st.bytes);
    assert_true(fx->job->finding_count >= 1);
    assert_string_equal(fx->job->findings[0].sig->id, "killed");
    if (st.skipped_bytes == 0)
        assert_int_equal(fx->job->finding_count, 2);
}

static void test_nothing(void **state)
{
    struct job_fixture *fx = *state;
    struct livescan *ls = livescan_start(fx->job, "(output)", 2);
    assert_non_null(ls);
    assert_int_equal(livescan_finish(ls, NULL), 0);
    assert_int_equal(fx->job->input_count, 1);
    assert_int_equal(fx->job->inputs[0].lines, 0);
    assert_int_equal(fx->job->finding_count, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_pieces_and_streams, job_fixture_setup, job_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_fd_and_many_lines, job_fixture_setup, job_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_nothing, job_fixture_setup, job_fixture_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
