/* render_text.c: the report for people: the headline, its evidence
 * and steps, input errors, the report when nothing was found, colour only
 * when asked, the trace, and the concise form at a terminal's width. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "helpers.h"
#include "render_helpers.h"

static void test_text_report(void **state)
{
    (void)state;
    rep = scan(train_log, sizeof train_log - 1, "train.log");
    render_one(OD_FMT_TEXT, 0, 0);
    assert_string_equal(out, "train.log: 1 root cause, 0 consequences (2 lines read)\n"
                             "\n"
                             "ROOT CAUSE gpu-oom (fragmentation): GPU memory exhausted [high confidence, pytorch]\n"
                             "  Asked for 2.00 GiB with 1.06 GiB free of 79.15 GiB.\n"
                             "  last step reached: 1\n"
                             "  evidence:\n"
                             "    train.log:2: " OOM_LINE "\n"
                             "  what to do:\n"
                             "    1. Set PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True\n"
                             "       3.12 GiB is reserved but unallocated.\n"
                             "    2. Halve the batch size\n");
    assert_null(strchr(out, '\033'));
}

static void test_text_manual_report(void **state)
{
    (void)state;
    build_manual();
    render_manual(OD_FMT_TEXT, 3);
    assert_string_equal(out, "rank1.log: read in part: Input/output error (unreadable)\n"
                             "2 inputs: 1 root cause, 1 consequence (11 lines read)\n"
                             "\n"
                             "ROOT CAUSE gpu-oom (capacity): GPU memory exhausted on ranks 0, 1 [high confidence]\n"
                             "  Sum.\n"
                             "  evidence:\n"
                             "    rank0.log:1: line 1\n"
                             "    rank0.log:2: line 2\n"
                             "    rank1.log:3: line 3\n"
                             "    (30 matching lines in all)\n"
                             "  what to do:\n"
                             "    1. Step 1\n"
                             "       Detail 1\n"
                             "    2. Step 2\n"
                             "    3. Step 3\n"
                             "    4. Step 4\n"
                             "    5. Step 5\n"
                             "    6. Step 6\n"
                             "    (2 more steps in --format json; all of them: oomdiag --explain gpu-oom)\n"
                             "\n"
                             "CONSEQUENCE nccl-timeout: A collective timed out on rank 1 [low confidence, nccl]\n"
                             "  follows from: gpu-oom\n"
                             "  A collective timed out\n"
                             "  last step reached: 12\n"
                             "  evidence:\n"
                             "    rank1.log:5: c1\n"
                             "    rank1.log:6: c2\n"
                             "    rank1.log:7: c3\n"
                             "    (4 matching lines in all)\n");
    /* With room for more, a root shows more; a consequence never more than 3. */
    render_manual(OD_FMT_TEXT, 10);
    assert_non_null(strstr(out, "    rank1.log:7: line 7\n    (30 matching lines in all)\n"));
    assert_non_null(strstr(out, "    rank1.log:7: c3\n    (4 matching lines in all)\n"));
    assert_null(strstr(out, ": c4"));
    free_manual();
}

static void test_text_nothing_diagnosed(void **state)
{
    (void)state;
    rep = scan("all good\n", 9, "quiet.log");
    render_one(OD_FMT_TEXT, 0, 0);
    assert_string_equal(out, "quiet.log: no failure diagnosed (1 line read)\n");
    od_report_free(rep);
    rep = scan("", 0, "empty.log");
    render_one(OD_FMT_TEXT, 1, 0);
    assert_string_equal(out, "\033[1;33mempty.log: nothing to read: the input is empty (empty)\033[0m\n");
}

static void test_text_colour_only_when_asked(void **state)
{
    (void)state;
    rep = scan(train_log, sizeof train_log - 1, "train.log");
    render_one(OD_FMT_TEXT, 0, 0);
    assert_null(strchr(out, '\033'));
    render_one(OD_FMT_TEXT, 1, 0);
    assert_non_null(strstr(out, "\033[1;31mROOT CAUSE\033[0m \033[1mgpu-oom (fragmentation): "));
    assert_non_null(strstr(out, "    \033[2mtrain.log:2:\033[0m torch.OutOfMemoryError"));
    assert_non_null(strstr(out, "    \033[32m1. Set PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True\033[0m\n"));
    /* JSON never carries colour. */
    render_one(OD_FMT_JSON, 1, 0);
    assert_null(strchr(out, '\033'));
}

static void test_text_trace(void **state)
{
    (void)state;
    rep = scan(train_log, sizeof train_log - 1, "train.log");
    render_one(OD_FMT_TEXT, 0, 1);
    assert_non_null(
        strstr(out, "  trace:\n    - lead line train.log:2 matched test-torch-oom (root, high confidence)\n"));
}

/* With a terminal's width, the concise report: no line wider than it,
 * one evidence line and the first three fixes per diagnosis. */
static void test_text_concise_at_width(void **state)
{
    (void)state;
    build_manual();
    static const int widths[] = {40, 60, 100};
    for (size_t w = 0; w < 3; w++) {
        struct od_render_opts opts = {OD_FMT_TEXT, 0, 0, 5, NULL, NULL, NULL, widths[w], NULL};
        struct od_report *reps[] = {&manual};
        render_with(&opts, reps, 1);
        for (const char *line = out; *line;) {
            const char *nl = strchr(line, '\n');
            assert_non_null(nl);
            if (nl - line > widths[w]) /* the manual report is ASCII: a byte is a column */
                fail_msg("line wider than %d: %.*s", widths[w], (int)(nl - line), line);
            line = nl + 1;
        }
        assert_non_null(strstr(out, "ROOT CAUSE"));
        assert_non_null(strstr(out, "CONSEQUENCE"));
        assert_non_null(strstr(out, "rank0.log:1: line 1"));
        assert_null(strstr(out, "line 2")); /* one evidence line */
        assert_non_null(strstr(out, "3. Step 3"));
        assert_null(strstr(out, "4. Step 4"));                   /* three fixes */
        assert_non_null(strstr(out, "rank1.log: read in part")); /* input errors still shown */
    }
    /* The full report (width 0) is the same at any terminal. */
    render_manual(OD_FMT_TEXT, 5);
    assert_non_null(strstr(out, "    6. Step 6\n"));
    free_manual();
}

int main(void)
{
#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)
    const struct CMUnitTest tests[] = {
        T(test_text_report),
        T(test_text_manual_report),
        T(test_text_nothing_diagnosed),
        T(test_text_colour_only_when_asked),
        T(test_text_trace),
        T(test_text_concise_at_width),

    };
#undef T
    return cmocka_run_group_tests(tests, NULL, NULL);
}
