/* Rendering reports: the JSON document, NDJSON lines, the text report,
 * colour, hostile log text, write errors. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>
#include <cmocka.h>

#include "fields.h"
#include "helpers.h"
#include "render.h"
#include "render_markdown.h"

static struct od_ruleset *rs;
static struct od_job *job;
static struct od_report *rep;
static struct msgs msgs;
static char *out;
static size_t out_len;

#define OOM_LINE                                                                                                       \
    "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of "           \
    "79.15 GiB of which 1.06 GiB is free. Of the allocated memory 74.33 GiB is allocated by PyTorch, and 3.12 "        \
    "GiB is reserved by PyTorch but unallocated."
static const char train_log[] = "step 1\n" OOM_LINE "\n";

static int load_rules(const char *path)
{
    memset(&msgs, 0, sizeof msgs);
    rs = od_ruleset_create(collect_msg, &msgs);
    if (od_ruleset_add_path(rs, path) != 0 || od_ruleset_finish(rs) != 0) {
        dump_msgs(&msgs);
        return -1;
    }
    struct od_scan_opts opts = {0, 0, 1}; /* with trace, which --trace renders */
    job = od_job_create(rs, &opts, collect_msg, &msgs);
    return job ? 0 : -1;
}

static int setup(void **state)
{
    (void)state;
    return load_rules(TEST_DATA "/rules/basic.json");
}

static int setup_inject(void **state)
{
    (void)state;
    return load_rules(TEST_DATA "/render/inject.json");
}

static int teardown(void **state)
{
    (void)state;
    od_report_free(rep);
    od_job_free(job);
    od_ruleset_free(rs);
    free(out);
    rep = NULL;
    job = NULL;
    rs = NULL;
    out = NULL;
    return 0;
}

/* Scans TEXT (through a pipe) as one job shown as PATH, and classifies. */
static struct od_report *scan(const char *text, size_t len, const char *path)
{
    od_job_reset(job);
    int fd = pipe_with(text, len);
    assert_int_equal(od_job_add_fd(job, fd, path), 0);
    close(fd);
    struct od_report *r = od_classify(job);
    assert_non_null(r);
    return r;
}

/* Renders the reports REPS (N of them) in FORMAT into `out`. */
static void render(enum od_format format, int color, int trace, struct od_report **reps, size_t n)
{
    free(out);
    out = NULL;
    FILE *f = open_memstream(&out, &out_len);
    assert_non_null(f);
    struct od_render_opts opts = {format, color, trace, 5, "test-1", NULL, NULL, 0, NULL};
    struct od_renderer *r = od_renderer_create(f, &opts);
    assert_non_null(r);
    for (size_t i = 0; i < n; i++)
        assert_int_equal(od_render_job(r, reps[i]), 0);
    assert_int_equal(od_renderer_finish(r), 0);
    od_renderer_free(r);
    assert_int_equal(fclose(f), 0);
}

static void render_one(enum od_format format, int color, int trace)
{
    render(format, color, trace, &rep, 1);
}

static const cJSON *get(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    if (v == NULL)
        fail_msg("no key \"%s\"", key);
    return v;
}

static void assert_json_string(const cJSON *o, const char *key, const char *want)
{
    const cJSON *v = get(o, key);
    assert_true(cJSON_IsString(v));
    assert_string_equal(v->valuestring, want);
}

static void assert_json_number(const cJSON *o, const char *key, double want)
{
    const cJSON *v = get(o, key);
    assert_true(cJSON_IsNumber(v));
    if (v->valuedouble != want)
        fail_msg("\"%s\" is %.17g, not %.17g", key, v->valuedouble, want);
}

/* ---- JSON ------------------------------------------------------------------------------ */

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

    const cJSON *diags = get(j, "diagnoses");
    assert_int_equal(cJSON_GetArraySize(diags), 1);
    const cJSON *d = cJSON_GetArrayItem(diags, 0);
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

/* ---- a report built by hand ----------------------------------------------------------- */

static struct od_fields big_fields, no_fields;
static struct od_evidence evidence[7], cons_evidence[4];
static struct od_step steps[8], cons_steps[1];
static char step_text[8][2][32];
static char ev_text[11][16];
static int ranks01[] = {0, 1}, ranks1[] = {1};
static struct od_diagnosis diags[2];
static struct od_input_info inputs[2] = {{"rank0.log", 10, 100, 0, 0, NULL, NULL},
                                         {"rank1.log", 1, 10, 1, 1, "unreadable", "Input/output error"}};
static struct od_report manual = {inputs, 2, diags, 2, {NULL, 0, NULL}, NULL, 0};

static void build_manual(void)
{
    fields_init(&big_fields);
    fields_init(&no_fields);
    /* Past 2^53: a double would print it as ...992. */
    assert_int_equal(fields_set_num(&big_fields, "requested_bytes", OD_FIELD_BYTES, 9007199254740993LL), 0);
    assert_int_equal(fields_set_str(&big_fields, "who", "al\"ice", 6), 0);
    for (int i = 0; i < 7; i++) {
        snprintf(ev_text[i], sizeof ev_text[i], "line %d", i + 1);
        evidence[i] = (struct od_evidence){
            i < 2 ? "rank0.log" : "rank1.log", (unsigned long)i + 1, "r", ev_text[i], i < 2 ? 0 : 1,
            i == 0 ? &big_fields : &no_fields};
    }
    for (int i = 0; i < 4; i++) {
        snprintf(ev_text[7 + i], sizeof ev_text[0], "c%d", i + 1);
        cons_evidence[i] = (struct od_evidence){"rank1.log", (unsigned long)i + 5, "w", ev_text[7 + i], 1, &no_fields};
    }
    for (int i = 0; i < 8; i++) {
        snprintf(step_text[i][0], sizeof step_text[i][0], "Step %d", i + 1);
        snprintf(step_text[i][1], sizeof step_text[i][1], "Detail %d", i + 1);
        steps[i] = (struct od_step){"s", step_text[i][0], i == 0 ? step_text[i][1] : NULL};
    }
    cons_steps[0] = (struct od_step){"look", step_text[0][0], NULL};
    memset(diags, 0, sizeof diags);
    diags[0] = (struct od_diagnosis){.cause = "gpu-oom",
                                     .variant = "capacity",
                                     .role = OD_ROLE_ROOT,
                                     .title = "GPU memory exhausted",
                                     .explanation = "x",
                                     .summary = (char *)"Sum.",
                                     .confidence = OD_CONF_HIGH,
                                     .evidence = evidence,
                                     .evidence_count = 7,
                                     .match_count = 30,
                                     .steps = steps,
                                     .step_count = 8,
                                     .ranks = ranks01,
                                     .rank_count = 2,
                                     .last_step = -1,
                                     .consequence_of = -1,
                                     .fields = big_fields};
    diags[1] = (struct od_diagnosis){.cause = "nccl-timeout",
                                     .role = OD_ROLE_CONSEQUENCE,
                                     .title = "A collective timed out",
                                     .explanation = "x",
                                     .confidence = OD_CONF_LOW,
                                     .framework = "nccl",
                                     .evidence = cons_evidence,
                                     .evidence_count = 4,
                                     .match_count = 4,
                                     .steps = cons_steps,
                                     .step_count = 1,
                                     .ranks = ranks1,
                                     .rank_count = 1,
                                     .last_step = 12,
                                     .consequence_of = 0};
}

static void free_manual(void)
{
    fields_free(&big_fields);
    fields_free(&no_fields);
}

static void render_manual(enum od_format format, int max_evidence)
{
    free(out);
    out = NULL;
    FILE *f = open_memstream(&out, &out_len);
    assert_non_null(f);
    struct od_render_opts opts = {format, 0, 0, max_evidence, NULL, NULL, NULL, 0, NULL};
    struct od_renderer *r = od_renderer_create(f, &opts);
    assert_int_equal(od_render_job(r, &manual), 0);
    assert_int_equal(od_renderer_finish(r), 0);
    od_renderer_free(r);
    fclose(f);
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

/* ---- text -------------------------------------------------------------------------------- */

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

/* ---- hostile text --------------------------------------------------------------------------- */

/* S holds no terminal control: valid UTF-8, no C0 byte but "\n" (and "\t"
 * when ALLOW_TAB), no DEL, no C1 (U+0080..U+009F) character. */
static void assert_inert(const char *s, size_t len, int allow_tab)
{
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        if ((c < 0x20 && c != '\n' && !(allow_tab && c == '\t')) || c == 0x7f)
            fail_msg("raw control byte 0x%02x at %zu: ...%.40s", c, i, s + (i > 20 ? i - 20 : 0));
        if (c == 0xc2 && i + 1 < len && (unsigned char)s[i + 1] >= 0x80 && (unsigned char)s[i + 1] <= 0x9f)
            fail_msg("C1 control at %zu", i);
        if (c >= 0x80) { /* a whole, minimal UTF-8 sequence */
            size_t n = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc2 ? 2 : 0;
            if (n == 0 || i + n > len || c > 0xf4)
                fail_msg("bad UTF-8 byte 0x%02x at %zu", c, i);
            for (size_t k = 1; k < n; k++)
                if (((unsigned char)s[i + k] & 0xc0) != 0x80)
                    fail_msg("bad UTF-8 sequence at %zu", i);
            i += n - 1;
        }
    }
}

static const char hostile[] = "\x1b]0;evil title\x07worker w\x07\x08\x1b[2Jx\x7f died: \x1b[31mboom\x1b[0m \x9b"
                              "31m \xc2\x9b"
                              "2J \xff\xfe tail\x07\x1b";

static void test_control_chars_never_reach_output(void **state)
{
    (void)state;
    rep = scan(hostile, sizeof hostile - 1, "job.log");
    assert_int_equal(rep->count, 1);
    const struct od_diagnosis *d = &rep->diagnoses[0];
    assert_string_equal(d->cause, "worker-died");
    assert_string_equal(d->evidence[0].text, "worker wx died: boom \xef\xbf\xbd"
                                             "31m \xef\xbf\xbd\xef\xbf\xbd"
                                             "2J \xef\xbf\xbd\xef\xbf\xbd tail");
    assert_string_equal(d->summary, "Worker wx died: boom \xef\xbf\xbd"
                                    "31m \xef\xbf\xbd\xef\xbf\xbd"
                                    "2J \xef\xbf\xbd\xef\xbf\xbd tail");
    static const enum od_format formats[] = {OD_FMT_TEXT, OD_FMT_JSON, OD_FMT_NDJSON};
    for (size_t i = 0; i < 3; i++) {
        render_one(formats[i], 0, 1);
        assert_inert(out, out_len, formats[i] == OD_FMT_JSON);
        assert_non_null(strstr(out, "wx"));
    }
}

static void test_control_chars_in_path(void **state)
{
    (void)state;
    /* A file name found in a directory walk is as hostile as log text:
     * neither the headline nor the evidence lines print it raw. */
    rep = scan("worker 3 died: bus error\n", 25, "evil\x1b]0;pwned\x07\x1b[2J.log");
    render_one(OD_FMT_TEXT, 0, 0);
    assert_inert(out, out_len, 0);
    assert_non_null(strstr(out, "evil]0;pwned[2J.log"));
    render_one(OD_FMT_JSON, 0, 0);
    assert_inert(out, out_len, 1);
}

/* ---- write errors ---------------------------------------------------------------------------- */

static void test_write_error_is_reported(void **state)
{
    (void)state;
    FILE *full = fopen("/dev/full", "w");
    if (full == NULL)
        skip();
    rep = scan(train_log, sizeof train_log - 1, "train.log");
    struct od_render_opts opts = {OD_FMT_TEXT, 0, 0, 5, NULL, NULL, NULL, 0, NULL};
    struct od_renderer *r = od_renderer_create(full, &opts);
    od_render_job(r, rep); /* may be buffered */
    assert_int_equal(od_renderer_finish(r), -1);
    od_renderer_free(r);
    fclose(full);

    full = fopen("/dev/full", "w");
    opts.format = OD_FMT_JSON;
    r = od_renderer_create(full, &opts);
    assert_int_equal(od_render_job(r, rep), 0); /* JSON is held until the end */
    assert_int_equal(od_renderer_finish(r), -1);
    od_renderer_free(r);
    fclose(full);
}

/* ---- JSON written as cJSON lays it out ---------------------------------------------------- */

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

/* Scans TEXT as PATH with a job of its own (a report borrows from its job). */
static struct od_report *scan_own(struct od_job *j, const char *text, size_t len, const char *path)
{
    int fd = pipe_with(text, len);
    assert_int_equal(od_job_add_fd(j, fd, path), 0);
    close(fd);
    struct od_report *r = od_classify(j);
    assert_non_null(r);
    return r;
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
    struct od_report r = {&in, 1, &d, 1, {NULL, 0, NULL}, NULL, 0};
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

/* ---- the table of formats ----------------------------------------------------------------- */

static void test_format_table(void **state)
{
    (void)state;
    rep = scan(train_log, sizeof train_log - 1, "train.log");
    size_t n = 0;
    for (; render_formats[n] != NULL; n++) {
        const struct render_format *f = render_formats[n];
        assert_ptr_equal(render_format_named(f->name), f);
        for (size_t k = 0; k < n; k++) {
            assert_string_not_equal(render_formats[k]->name, f->name);
            assert_int_not_equal(render_formats[k]->id, f->id);
        }
        /* Each renders a job, and an empty document, on its own state. */
        render_one(f->id, 0, 0);
        assert_true(out_len > 0);
        render(f->id, 0, 0, NULL, 0);
    }
    assert_int_equal(n, OD_FMT_JUNIT + 1);
    assert_string_equal(render_formats[0]->name, "text"); /* the default comes first */
    assert_null(render_format_named("xml"));
    assert_null(render_format_named(""));
    struct od_render_opts opts = {(enum od_format)99, 0, 0, 5, NULL, NULL, NULL, 0, NULL};
    assert_null(od_renderer_create(stdout, &opts));
}

/* The GitHub format appends the Markdown report to the step summary it is
 * given, its budget counting what earlier steps wrote there. */
static void test_github_step_summary(void **state)
{
    (void)state;
    rep = scan(train_log, sizeof train_log - 1, "train.log");
    FILE *sum = tmpfile();
    assert_non_null(sum);
    fputs("earlier step\n", sum);
    struct od_render_opts opts = {OD_FMT_GITHUB, 0, 0, 5, NULL, NULL, NULL, 0, sum};
    free(out);
    FILE *f = open_memstream(&out, &out_len);
    struct od_renderer *r = od_renderer_create(f, &opts);
    assert_non_null(r);
    assert_int_equal(od_render_job(r, rep), 0);
    assert_int_equal(od_renderer_finish(r), 0);
    od_renderer_free(r);
    fclose(f);
    assert_non_null(strstr(out, "::error "));
    assert_null(strstr(out, "## oomdiag")); /* the Markdown goes to the summary only */
    char text[8192];
    rewind(sum);
    size_t len = fread(text, 1, sizeof text - 1, sum);
    text[len] = '\0';
    static const char head[] = "earlier step\n## oomdiag: train.log\n";
    assert_memory_equal(text, head, sizeof head - 1);
    assert_non_null(strstr(text, "*oomdiag "));
    assert_null(strstr(text, "left out"));

    /* A summary already at its limit takes the job no more. */
    rewind(sum);
    for (size_t i = 0; i < MD_SUMMARY_LIMIT; i += 64)
        fputs("...............................................................\n", sum);
    free(out);
    f = open_memstream(&out, &out_len);
    r = od_renderer_create(f, &opts);
    assert_int_equal(od_render_job(r, rep), 0);
    assert_int_equal(od_renderer_finish(r), 0);
    od_renderer_free(r);
    fclose(f);
    fseek(sum, -400, SEEK_END);
    len = fread(text, 1, sizeof text - 1, sum);
    text[len] = '\0';
    assert_non_null(strstr(text, "**1 more job left out:**"));
    fclose(sum);
}

int main(void)
{
#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)
    const struct CMUnitTest tests[] = {
        T(test_json_document),
        T(test_json_trace),
        T(test_json_no_jobs_and_empty_jobs),
        T(test_ndjson_one_line_per_job),
        T(test_text_manual_report),
        T(test_json_manual_report),
        T(test_text_report),
        T(test_text_nothing_diagnosed),
        T(test_text_colour_only_when_asked),
        T(test_text_trace),
        cmocka_unit_test_setup_teardown(test_control_chars_never_reach_output, setup_inject, teardown),
        cmocka_unit_test_setup_teardown(test_control_chars_in_path, setup_inject, teardown),
        T(test_write_error_is_reported),
        T(test_format_table),
        T(test_json_layout_is_cjsons),
        T(test_json_escapes_are_cjsons),
        T(test_github_step_summary),
    };
#undef T
    return cmocka_run_group_tests(tests, NULL, NULL);
}
