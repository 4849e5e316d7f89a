/* What the formats share (render_util.c): text cut to a width, the
 * headline and confidence, a job's counts and label, how much evidence a
 * diagnosis shows, text built in memory. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "render_util.h"

/* Output captured in memory: capture_end returns it (the caller frees). */
static void capture_begin(struct render_mem *m)
{
    assert_int_equal(render_mem_begin(m), 0);
}

static char *capture_end(struct render_mem *m)
{
    size_t len = 0;
    char *text = render_mem_end(m, &len);
    assert_non_null(text);
    assert_int_equal(strlen(text), len);
    return text;
}

static void test_put_cut(void **state)
{
    (void)state;
    struct render_mem m;
    capture_begin(&m);
    render_put_cut(m.f, "short", 10);
    char *text = capture_end(&m);
    assert_string_equal(text, "short");
    free(text);

    capture_begin(&m);
    render_put_cut(m.f, "abcdefghijklmnop", 8);
    text = capture_end(&m);
    /* cut to at most 8 columns, and it says so */
    assert_true(strlen(text) < strlen("abcdefghijklmnop"));
    assert_non_null(strstr(text, "\xe2\x80\xa6")); /* ... */
    assert_memory_equal(text, "abcdefg", 7);
    free(text);

    /* a wide character counts two columns and is never split */
    capture_begin(&m);
    render_put_cut(m.f, "\xe5\x86\x85\xe5\xad\x98\xe4\xb8\x8d\xe8\xb6\xb3", 5); /* four CJK characters */
    text = capture_end(&m);
    assert_memory_equal(text, "\xe5\x86\x85\xe5\xad\x98", 6);
    assert_non_null(strstr(text, "\xe2\x80\xa6"));
    free(text);
}

static void test_counts(void **state)
{
    (void)state;
    struct render_mem m;
    capture_begin(&m);
    render_counts(m.f, 1, 2, 0);
    char *text = capture_end(&m);
    assert_non_null(strstr(text, "1 root cause"));
    assert_null(strstr(text, "1 root causes"));
    assert_non_null(strstr(text, "2 consequences"));
    assert_null(strstr(text, "recovered"));
    free(text);

    capture_begin(&m);
    render_counts(m.f, 2, 1, 3);
    text = capture_end(&m);
    assert_non_null(strstr(text, "2 root causes"));
    assert_non_null(strstr(text, "3 recovered"));
    free(text);
}

static void test_job_totals_and_label(void **state)
{
    (void)state;
    struct od_input_info inputs[2] = {{.path = "logs/a.log", .lines = 10, .rank = -1},
                                      {.path = "logs/b.log", .lines = 5, .rank = -1}};
    struct od_diagnosis d[3] = {{.cause = "gpu-oom", .role = OD_ROLE_ROOT},
                                {.cause = "nccl-timeout", .role = OD_ROLE_CONSEQUENCE},
                                {.cause = "gpu-oom", .role = OD_ROLE_RECOVERED}};
    struct od_report rep = {.inputs = inputs, .input_count = 2, .diagnoses = d, .count = 3};
    assert_int_equal(render_job_lines(&rep), 15);
    assert_int_equal(render_job_roots(&rep), 1);
    assert_int_equal(render_job_recovered(&rep), 1);

    char label[128];
    render_job_label(&rep, label, sizeof label, NULL, 1);
    assert_non_null(strstr(label, "logs/"));
    assert_non_null(strstr(label, "2"));
    render_job_label(&rep, label, sizeof label, NULL, 0);
    assert_non_null(strstr(label, "2 inputs"));
    rep.input_count = 1;
    render_job_label(&rep, label, sizeof label, NULL, 1);
    assert_string_equal(label, "logs/a.log");
}

static void test_evidence_shown(void **state)
{
    (void)state;
    struct od_evidence ev[8] = {{0}};
    struct od_diagnosis root = {.role = OD_ROLE_ROOT, .evidence = ev, .evidence_count = 8};
    struct od_diagnosis cons = {.role = OD_ROLE_CONSEQUENCE, .evidence = ev, .evidence_count = 8};
    assert_int_equal(render_evidence_shown(&root, 5), 5);
    assert_int_equal(render_evidence_shown(&root, 20), 8);
    assert_int_equal(render_evidence_shown(&cons, 5), RENDER_CONSEQUENCE_EVIDENCE);
    root.evidence_count = 2;
    assert_int_equal(render_evidence_shown(&root, 5), 2);
}

static void test_headline_and_confidence(void **state)
{
    (void)state;
    int ranks[2] = {1, 3};
    struct od_diagnosis d = {.cause = "gpu-oom",
                             .variant = "fragmentation",
                             .role = OD_ROLE_ROOT,
                             .title = "GPU memory exhausted",
                             .confidence = OD_CONF_HIGH,
                             .framework = "pytorch",
                             .ranks = ranks,
                             .rank_count = 2};
    struct render_mem m;
    capture_begin(&m);
    render_headline(m.f, &d, NULL);
    render_confidence(m.f, &d, NULL);
    char *text = capture_end(&m);
    assert_non_null(strstr(text, "gpu-oom"));
    assert_non_null(strstr(text, "fragmentation"));
    assert_non_null(strstr(text, "GPU memory exhausted"));
    assert_non_null(strstr(text, "1"));
    assert_non_null(strstr(text, "3"));
    assert_non_null(strstr(text, "high confidence"));
    assert_non_null(strstr(text, "pytorch"));
    free(text);
}

static void test_sparkline(void **state)
{
    (void)state;
    double growing[] = {1073741824.0, 2147483648.0, 3221225472.0, 8589934592.0};
    double flat[] = {100.0, 99.0, 100.0};
    struct od_diagnosis d = {0};
    char spark[64], first[32], last[32];
    d.series = growing;
    d.series_count = 4;
    assert_int_equal(render_sparkline(&d, 32, spark, sizeof spark, first, last, sizeof first), 0);
    assert_string_equal(spark, "\u2581\u2582\u2583\u2588");
    assert_string_equal(first, "1.00 GiB");
    assert_string_equal(last, "8.00 GiB");
    assert_int_equal(render_sparkline(&d, 2, spark, sizeof spark, first, last, sizeof first), 0);
    assert_string_equal(spark, "\u2581\u2588"); /* fewer columns: the first and the last stay */
    d.series = flat;
    d.series_count = 3;
    d.series_percent = 1;
    assert_int_equal(render_sparkline(&d, 32, spark, sizeof spark, first, last, sizeof first), 0);
    assert_string_equal(spark, "\u2588\u2587\u2588"); /* within 10% of the top: drawn near flat */
    assert_string_equal(first, "100.0%");
    d.series_count = 1;
    assert_int_equal(render_sparkline(&d, 32, spark, sizeof spark, first, last, sizeof first), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_put_cut),
        cmocka_unit_test(test_counts),
        cmocka_unit_test(test_job_totals_and_label),
        cmocka_unit_test(test_evidence_shown),
        cmocka_unit_test(test_headline_and_confidence),
        cmocka_unit_test(test_sparkline),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
