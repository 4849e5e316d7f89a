/* A report to bytes and back (-j's workers to the parent): every field
 * comes back, NULL strings stay NULL, cut bytes are refused. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "wire.h"

static char *bytes_of(const struct od_report *rep, size_t *n)
{
    char *data = NULL;
    FILE *f = open_memstream(&data, n);
    assert_non_null(f);
    assert_int_equal(wire_write(f, rep), 0);
    assert_int_equal(fclose(f), 0);
    return data;
}

static void test_round_trip(void **state)
{
    (void)state;
    struct od_field fi = {"requested_bytes", OD_FIELD_BYTES, 1024, NULL};
    struct od_fields fields = {1, 1, &fi};
    struct od_evidence ev = {"a.log", 7, "sig.one", "CUDA out of memory", 3, &fields};
    struct od_step step = {"s1", "lower the batch", NULL};
    int ranks[] = {0, 3};
    double series[] = {1.5, 2.5};
    char *trace[] = {"why"};
    struct od_diagnosis d = {.cause = "gpu-oom", .variant = NULL, .role = OD_ROLE_ROOT, .title = "T",
                             .summary = "S", .confidence = OD_CONF_HIGH, .evidence = &ev, .evidence_count = 1,
                             .match_count = 9, .steps = &step, .step_count = 1, .ranks = ranks, .rank_count = 2,
                             .last_step = -1, .consequence_of = -1, .decision = 2, .series = series,
                             .series_count = 2, .series_percent = 1, .fields = fields, .trace = trace,
                             .trace_count = 1};
    struct od_input_info in = {"a.log", 10, 200, -1, 0, NULL, NULL};
    struct od_near_miss nm = {"r", "c", "a.log", 4, 2, "t"};
    struct od_report rep = {&in, 1, &d, 1, {"a.log", 5, "boom"}, &nm, 1, "job", NULL, 0};
    size_t n = 0;
    char *data = bytes_of(&rep, &n);
    struct wire_report w;
    assert_int_equal(wire_read(data, n, &w), 0);
    const struct od_report *r = &w.rep;
    assert_string_equal(r->name, "job");
    assert_int_equal(r->input_count, 1);
    assert_int_equal(r->inputs[0].bytes, 200);
    assert_null(r->inputs[0].error_kind);
    assert_int_equal(r->count, 1);
    const struct od_diagnosis *g = &r->diagnoses[0];
    assert_string_equal(g->cause, "gpu-oom");
    assert_null(g->variant);
    assert_null(g->explanation);
    assert_int_equal(g->evidence[0].line, 7);
    assert_int_equal(g->evidence[0].fields->items[0].num, 1024);
    assert_string_equal(g->steps[0].action, "lower the batch");
    assert_null(g->steps[0].detail);
    assert_int_equal(g->ranks[1], 3);
    assert_true(g->series[1] == 2.5);
    assert_int_equal(g->decision, 2);
    assert_int_equal(g->last_step, -1);
    assert_string_equal(g->trace[0], "why");
    assert_string_equal(r->last_error.text, "boom");
    assert_int_equal(r->near_miss_count, 1);
    assert_int_equal(r->near_misses[0].count, 2);
    assert_int_equal(r->limit_hit_count, 0);
    wire_free(&w);
    for (size_t cut = 0; cut < n; cut += 7)
        assert_int_equal(wire_read(data, cut, &w), -1);
    free(data);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_round_trip)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
