/* render_json.c: the JSON document and NDJSON lines: they parse,
 * carry schema_version and every input (with its error), one record per
 * line for NDJSON, exact integers, and escaping as cJSON writes it. */
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

static void test_json_document(void **state)
{
    (void)state;
    rep = scan(train_log, sizeof train_log - 1, "train.log");
    render_one(OD_FMT_JSON, 0, 0);
    cJSON *doc = cJSON_Parse(out);
    assert_non_null(doc);

    assert_json_number(doc, "schema_version", 1);
    const cJSON *tool = get(doc, "tool");
    assert_json_string(tool, "name", "oomdiag");
    assert_json_string(tool, "version", od_version());
    assert_json_string(tool, "rules_version", "test-1");

    const cJSON *jobs = get(doc, "jobs");
    assert_int_equal(cJSON_GetArraySize(jobs), 1);
    const cJSON *j = cJSON_GetArrayItem(jobs, 0);
    const cJSON *in = cJSON_GetArrayItem(get(j, "inputs"), 0);
    assert_int_equal(cJSON_GetArraySize(get(j, "inputs")), 1);
    assert_json_string(in, "path", "train.log");
    assert_json_number(in, "lines", 2);
    assert_json_number(in, "bytes", (double)(sizeof train_log - 1));
    assert_null(cJSON_GetObjectItem(in, "rank"));
    assert_null(cJSON_GetObjectItem(in, "error"));

    const cJSON *diagnoses = get(j, "diagnoses");
    assert_int_equal(cJSON_GetArraySize(diagnoses), 1);
    const cJSON *d = cJSON_GetArrayItem(diagnoses, 0);
    assert_json_string(d, "cause", "gpu-oom");
    assert_json_string(d, "variant", "fragmentation");
    assert_json_string(d, "role", "root");
    assert_json_string(d, "title", "GPU memory exhausted");
    assert_json_string(d, "summary", "Asked for 2.00 GiB with 1.06 GiB free of 79.15 GiB.");
    assert_json_string(d, "confidence", "high");
    assert_json_string(d, "framework", "pytorch");
    assert_int_equal(cJSON_GetArraySize(get(d, "ranks")), 0);
    assert_json_number(d, "last_step", 1);
    assert_json_number(d, "match_count", 1);
    assert_null(cJSON_GetObjectItem(d, "consequence_of"));
    assert_null(cJSON_GetObjectItem(d, "trace"));
    const cJSON *fields = get(d, "fields");
    assert_json_number(fields, "requested_bytes", 2147483648.0);
    assert_json_number(fields, "device", 0);
    assert_json_number(fields, "reserved_unallocated_bytes", 3350074491.0);
    assert_json_number(fields, "free_bytes", 1138166333.0);

    const cJSON *ev = get(d, "evidence");
    assert_int_equal(cJSON_GetArraySize(ev), 1);
    const cJSON *e = cJSON_GetArrayItem(ev, 0);
    assert_json_string(e, "path", "train.log");
    assert_json_number(e, "line", 2);
    assert_json_string(e, "rule", "test-torch-oom");
    assert_json_string(e, "text", OOM_LINE);
    assert_null(cJSON_GetObjectItem(e, "rank"));
    assert_json_number(get(e, "fields"), "requested_bytes", 2147483648.0);

    const cJSON *rem = get(d, "remediation");
    assert_int_equal(cJSON_GetArraySize(rem), 2);
    const cJSON *s0 = cJSON_GetArrayItem(rem, 0), *s1 = cJSON_GetArrayItem(rem, 1);
    assert_json_number(s0, "rank", 1);
    assert_json_string(s0, "id", "expandable");
    assert_json_string(s0, "action", "Set PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True");
    assert_json_string(s0, "detail", "3.12 GiB is reserved but unallocated.");
    assert_json_number(s1, "rank", 2);
    assert_json_string(s1, "id", "batch");
    assert_true(cJSON_IsNull(get(s1, "detail")));
    cJSON_Delete(doc);
}

static void test_json_trace(void **state)
{
    (void)state;
    rep = scan(train_log, sizeof train_log - 1, "train.log");
    render_one(OD_FMT_JSON, 0, 1);
    cJSON *doc = cJSON_Parse(out);
    assert_non_null(doc);
    const cJSON *d = cJSON_GetArrayItem(get(cJSON_GetArrayItem(get(doc, "jobs"), 0), "diagnoses"), 0);
    const cJSON *trace = get(d, "trace");
    assert_true(cJSON_GetArraySize(trace) > 0);
    assert_string_equal(cJSON_GetArrayItem(trace, 0)->valuestring,
                        "lead line train.log:2 matched test-torch-oom (root, high confidence)");
    cJSON_Delete(doc);
}

static void test_json_no_jobs_and_empty_jobs(void **state)
{
    (void)state;
    render(OD_FMT_JSON, 0, 0, NULL, 0);
    cJSON *doc = cJSON_Parse(out);
    assert_non_null(doc);
    assert_int_equal(cJSON_GetArraySize(get(doc, "jobs")), 0);
    cJSON_Delete(doc);

    rep = scan("nothing here\n", 13, "quiet.log");
    render_one(OD_FMT_JSON, 0, 0);
    doc = cJSON_Parse(out);
    assert_non_null(doc);
    const cJSON *j = cJSON_GetArrayItem(get(doc, "jobs"), 0);
    assert_int_equal(cJSON_GetArraySize(get(j, "diagnoses")), 0);
    assert_json_number(cJSON_GetArrayItem(get(j, "inputs"), 0), "lines", 1);
    cJSON_Delete(doc);
}

static void test_ndjson_one_line_per_job(void **state)
{
    (void)state;
    /* A report borrows from its job: two live reports need two jobs. */
    struct od_job *job2 = od_job_create(rs, NULL, collect_msg, &msgs);
    assert_non_null(job2);
    struct od_report *reps[2];
    reps[0] = scan(train_log, sizeof train_log - 1, "a.log");
    int fd = pipe_with("clean\nrun\n", 10);
    assert_int_equal(od_job_add_fd(job2, fd, "b.log"), 0);
    close(fd);
    reps[1] = od_classify(job2);
    assert_non_null(reps[1]);
    render(OD_FMT_NDJSON, 0, 0, reps, 2);

    const char *paths[2] = {"a.log", "b.log"};
    const char *line = out;
    for (int i = 0; i < 2; i++) {
        const char *nl = strchr(line, '\n');
        assert_non_null(nl);
        char *one = strndup(line, (size_t)(nl - line));
        cJSON *j = cJSON_Parse(one);
        assert_non_null(j);
        assert_json_number(j, "schema_version", 1);
        assert_json_string(cJSON_GetArrayItem(get(j, "inputs"), 0), "path", paths[i]);
        assert_int_equal(cJSON_GetArraySize(get(j, "diagnoses")), i == 0 ? 1 : 0);
        cJSON_Delete(j);
        free(one);
        line = nl + 1;
    }
    assert_string_equal(line, ""); /* exactly two lines */
    od_report_free(reps[0]);
    od_report_free(reps[1]);
    od_job_free(job2);
}

static void test_json_manual_report(void **state)
{
    (void)state;
    build_manual();
    render_manual(OD_FMT_JSON, 0);
    free_manual();
    /* Integers are exact, beyond what a double holds. */
    assert_non_null(strstr(out, "9007199254740993"));
    cJSON *doc = cJSON_Parse(out);
    assert_non_null(doc);
    assert_null(cJSON_GetObjectItem(get(doc, "tool"), "rules_version"));
    const cJSON *j = cJSON_GetArrayItem(get(doc, "jobs"), 0);
    const cJSON *in1 = cJSON_GetArrayItem(get(j, "inputs"), 1);
    assert_json_number(in1, "rank", 1);
    assert_json_string(get(in1, "error"), "kind", "unreadable");
    assert_json_string(get(in1, "error"), "message", "Input/output error");
    assert_null(cJSON_GetObjectItem(cJSON_GetArrayItem(get(j, "inputs"), 0), "error"));
    const cJSON *d0 = cJSON_GetArrayItem(get(j, "diagnoses"), 0), *d1 = cJSON_GetArrayItem(get(j, "diagnoses"), 1);
    assert_true(cJSON_IsNull(get(d0, "framework")));
    assert_true(cJSON_IsNull(get(d0, "last_step")));
    assert_int_equal(cJSON_GetArraySize(get(d0, "evidence")), 7); /* max_evidence is for text only */
    assert_int_equal(cJSON_GetArraySize(get(d0, "remediation")), 8);
    assert_json_number(cJSON_GetArrayItem(get(d0, "remediation"), 7), "rank", 8);
    assert_json_string(get(d0, "fields"), "who", "al\"ice");
    const cJSON *ranks = get(d0, "ranks");
    assert_int_equal(cJSON_GetArraySize(ranks), 2);
    assert_int_equal(cJSON_GetArrayItem(ranks, 1)->valueint, 1);
    assert_true(cJSON_IsNull(get(d1, "variant")));
    assert_json_string(d1, "role", "consequence");
    assert_json_string(d1, "summary", "A collective timed out");
    assert_json_number(d1, "consequence_of", 0);
    assert_json_number(cJSON_GetArrayItem(get(d1, "evidence"), 0), "rank", 1);
    cJSON_Delete(doc);
}

/* OUT, the JSON document or NDJSON lines just rendered, is what cJSON
 * prints for the same values (the layout scripts and goldens saw). */
static void assert_cjson_layout(int ndjson)
{
    char *copy = strdup(out), *save = NULL;
    size_t lines = 0;
    for (char *line = ndjson ? strtok_r(copy, "\n", &save) : copy; line;
         line = ndjson ? strtok_r(NULL, "\n", &save) : NULL) {
        cJSON *doc = cJSON_Parse(line);
        assert_non_null(doc);
        char *again = ndjson ? cJSON_PrintUnformatted(doc) : cJSON_Print(doc);
        size_t n = strlen(again);
        if (ndjson)
            assert_string_equal(line, again);
        else {
            assert_int_equal(out_len, n + 1);
            assert_memory_equal(out, again, n);
            assert_int_equal(out[n], '\n');
        }
        cJSON_free(again);
        cJSON_Delete(doc);
        lines++;
    }
    assert_true(lines > 0);
    free(copy);
}

static void test_json_layout_is_cjsons(void **state)
{
    (void)state;
    struct od_report *reps[3];
    reps[0] = rep = scan(train_log, sizeof train_log - 1, "train.log");
    for (int trace = 0; trace < 2; trace++) {
        render(OD_FMT_JSON, 0, trace, reps, 1);
        assert_cjson_layout(0);
        render(OD_FMT_NDJSON, 0, trace, reps, 1);
        assert_cjson_layout(1);
    }
    render(OD_FMT_JSON, 0, 0, reps, 0); /* no jobs: "jobs": [] */
    assert_cjson_layout(0);
    /* Several jobs, with empty arrays and objects. */
    struct od_job *j1 = od_job_create(rs, NULL, collect_msg, &msgs), *j2 = od_job_create(rs, NULL, collect_msg, &msgs);
    assert_non_null(j1);
    assert_non_null(j2);
    reps[1] = scan_own(j1, "nothing to see\n", 15, "quiet.log");
    reps[2] = scan_own(j2, "", 0, "empty.log");
    render(OD_FMT_JSON, 0, 1, reps, 3);
    assert_cjson_layout(0);
    render(OD_FMT_NDJSON, 0, 1, reps, 3);
    assert_cjson_layout(1);
    od_report_free(reps[1]);
    od_report_free(reps[2]);
    od_job_free(j1);
    od_job_free(j2);
}

/* Every byte a JSON string must escape, where the report has it raw (the
 * scanner cleans log text and paths; a library caller need not). */
static void test_json_escapes_are_cjsons(void **state)
{
    (void)state;
    static const char nasty[] = "tab\there \"quoted\" back\\slash \x01\x1f\b\f\r\n\x7f \xe6\x97\xa5/";
    struct od_fields f;
    fields_init(&f);
    assert_int_equal(fields_set_str(&f, nasty, nasty, strlen(nasty)), 0);
    struct od_input_info in = {nasty, 1, 2, -1, 0, "binary", nasty};
    struct od_diagnosis d = {
        .cause = "c", .title = (char *)nasty, .role = OD_ROLE_ROOT, .fields = f, .last_step = -1, .consequence_of = -1};
    struct od_report r = {&in, 1, &d, 1, {NULL, 0, NULL}, NULL, 0, NULL, NULL, 0};
    struct od_report *reps[] = {&r};
    render(OD_FMT_JSON, 0, 1, reps, 1);
    assert_cjson_layout(0);
    static const char want[] = "tab\\there \\\"quoted\\\" back\\\\slash \\u0001\\u001f\\b\\f\\r\\n\x7f \xe6\x97\xa5/";
    assert_non_null(strstr(out, want));
    assert_non_null(strstr(strstr(out, "\"fields\""), want)); /* in a key too */
    render(OD_FMT_NDJSON, 0, 1, reps, 1);
    assert_cjson_layout(1);
    fields_free(&f);
}

/* Every input of a job is listed, in order, an input that gave no text
 * with its error; in NDJSON too. */
static void test_json_every_input_listed(void **state)
{
    (void)state;
    od_job_reset(job);
    static const char *const texts[] = {train_log, "", "quiet\n"};
    static const char *const paths[] = {"a.log", "b.log", "c.log"};
    for (size_t i = 0; i < 3; i++) {
        int fd = pipe_with(texts[i], strlen(texts[i]));
        assert_int_equal(od_job_add_fd(job, fd, paths[i]), 0);
        close(fd);
    }
    rep = od_classify(job);
    assert_non_null(rep);
    for (int nd = 0; nd < 2; nd++) {
        render_one(nd ? OD_FMT_NDJSON : OD_FMT_JSON, 0, 0);
        if (nd)
            assert_int_equal(strchr(out, '\n') - out, (ptrdiff_t)out_len - 1); /* one line */
        cJSON *doc = cJSON_Parse(out);
        assert_non_null(doc);
        assert_json_number(doc, "schema_version", 1);
        const cJSON *j = nd ? doc : cJSON_GetArrayItem(get(doc, "jobs"), 0);
        const cJSON *ins = get(j, "inputs");
        assert_int_equal(cJSON_GetArraySize(ins), 3);
        for (int i = 0; i < 3; i++) {
            const cJSON *in = cJSON_GetArrayItem(ins, i);
            assert_json_string(in, "path", paths[i]);
            if (i == 1) {
                assert_json_string(get(in, "error"), "kind", "empty");
                assert_true(cJSON_IsString(get(get(in, "error"), "message")));
            } else {
                assert_null(cJSON_GetObjectItem(in, "error"));
            }
        }
        assert_int_equal(cJSON_GetArraySize(get(j, "diagnoses")), 1);
        cJSON_Delete(doc);
    }
}

/* Log text the scanner cleaned, and a path it did not, come back through
 * a JSON parser as they went in. */
static void test_json_hostile_round_trip(void **state)
{
    (void)state;
    static const char hostile[] = HOSTILE_LOG;
    static const char path[] = "ev\"il\\\x1b]0;x\x07.log";
    rep = scan(hostile, sizeof hostile - 1, path);
    assert_int_equal(rep->count, 1);
    render_one(OD_FMT_NDJSON, 0, 0);
    assert_int_equal(strchr(out, '\n') - out, (ptrdiff_t)out_len - 1);
    cJSON *doc = cJSON_Parse(out);
    assert_non_null(doc);
    const cJSON *e = cJSON_GetArrayItem(get(cJSON_GetArrayItem(get(doc, "diagnoses"), 0), "evidence"), 0);
    assert_json_string(e, "text", rep->diagnoses[0].evidence[0].text);
    assert_json_string(e, "path", rep->diagnoses[0].evidence[0].path);
    assert_json_string(cJSON_GetArrayItem(get(doc, "inputs"), 0), "path", rep->inputs[0].path);
    cJSON_Delete(doc);
}

int main(void)
{
#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)
    const struct CMUnitTest tests[] = {
        T(test_json_document),
        T(test_json_trace),
        T(test_json_no_jobs_and_empty_jobs),
        T(test_ndjson_one_line_per_job),
        T(test_json_manual_report),
        T(test_json_layout_is_cjsons),
        T(test_json_escapes_are_cjsons),
        T(test_json_every_input_listed),
        cmocka_unit_test_setup_teardown(test_json_hostile_round_trip, setup_inject, teardown),

    };
#undef T
    return cmocka_run_group_tests(tests, NULL, NULL);
}
