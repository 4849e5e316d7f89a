/* Shared by the renderer suites (test_render*.c): reports scanned from
 * tests/data rules, rendered through od_renderer into memory, a report
 * built by hand, and the checks every format's output must pass.  Include
 * after helpers.h; each suite's setup/teardown are these. */
#ifndef OOMDIAG_TEST_RENDER_HELPERS_H
#define OOMDIAG_TEST_RENDER_HELPERS_H

#include <cjson/cJSON.h>

#include "fields.h"
#include "render.h"

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

static inline int load_rules(const char *path)
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

static inline int setup(void **state)
{
    (void)state;
    return load_rules(TEST_DATA "/rules/basic.json");
}

static inline int setup_inject(void **state)
{
    (void)state;
    return load_rules(TEST_DATA "/render/inject.json");
}

static inline int teardown(void **state)
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
static inline struct od_report *scan(const char *text, size_t len, const char *path)
{
    od_job_reset(job);
    int fd = pipe_with(text, len);
    assert_int_equal(od_job_add_fd(job, fd, path), 0);
    close(fd);
    struct od_report *r = od_classify(job);
    assert_non_null(r);
    return r;
}

/* Renders the reports REPS (N of them) with OPTS into `out`. */
static inline void render_with(const struct od_render_opts *opts, struct od_report *const *reps, size_t n)
{
    free(out);
    out = NULL;
    FILE *f = open_memstream(&out, &out_len);
    assert_non_null(f);
    struct od_renderer *r = od_renderer_create(f, opts);
    assert_non_null(r);
    for (size_t i = 0; i < n; i++)
        assert_int_equal(od_render_job(r, reps[i]), 0);
    assert_int_equal(od_renderer_finish(r), 0);
    od_renderer_free(r);
    assert_int_equal(fclose(f), 0);
}

/* Renders the reports REPS (N of them) in FORMAT into `out`. */
static inline void render(enum od_format format, int color, int trace, struct od_report *const *reps, size_t n)
{
    struct od_render_opts opts = {format, color, trace, 5, "test-1", NULL, NULL, 0, NULL};
    render_with(&opts, reps, n);
}

static inline void render_one(enum od_format format, int color, int trace)
{
    render(format, color, trace, &rep, 1);
}

static inline const cJSON *get(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    if (v == NULL)
        fail_msg("no key \"%s\"", key);
    return v;
}

static inline void assert_json_string(const cJSON *o, const char *key, const char *want)
{
    const cJSON *v = get(o, key);
    assert_true(cJSON_IsString(v));
    assert_string_equal(v->valuestring, want);
}

static inline void assert_json_number(const cJSON *o, const char *key, double want)
{
    const cJSON *v = get(o, key);
    assert_true(cJSON_IsNumber(v));
    if (v->valuedouble != want)
        fail_msg("\"%s\" is %.17g, not %.17g", key, v->valuedouble, want);
}

/* ---- a report built by hand: two inputs (one unreadable), a root cause with 7
 * evidence lines and 8 steps, and a consequence of it ----------------------- */

static struct od_fields big_fields, no_fields;
static struct od_evidence evidence[7], cons_evidence[4];
static struct od_step steps[8], cons_steps[1];
static char step_text[8][2][32];
static char ev_text[11][16];
static int ranks01[] = {0, 1}, ranks1[] = {1};
static struct od_diagnosis diags[2];
static struct od_input_info inputs[2] = {{"rank0.log", 10, 100, 0, 0, NULL, NULL},
                                         {"rank1.log", 1, 10, 1, 1, "unreadable", "Input/output error"}};
static struct od_report manual = {inputs, 2, diags, 2, {NULL, 0, NULL}, NULL, 0, NULL, NULL, 0};

static inline void build_manual(void)
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

static inline void free_manual(void)
{
    fields_free(&big_fields);
    fields_free(&no_fields);
}

static inline void render_manual(enum od_format format, int max_evidence)
{
    struct od_render_opts opts = {format, 0, 0, max_evidence, NULL, NULL, NULL, 0, NULL};
    struct od_report *reps[] = {&manual};
    render_with(&opts, reps, 1);
}

/* ---- hostile text ---------------------------------------------------------- */

/* S holds no terminal control: valid UTF-8, no C0 byte but "\n" (and "\t"
 * when ALLOW_TAB), no DEL, no C1 (U+0080..U+009F) character. */
static inline void assert_inert(const char *s, size_t len, int allow_tab)
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

/* Scans TEXT as PATH with a job of its own (a report borrows from its job). */
static inline struct od_report *scan_own(struct od_job *j, const char *text, size_t len, const char *path)
{
    int fd = pipe_with(text, len);
    assert_int_equal(od_job_add_fd(j, fd, path), 0);
    close(fd);
    struct od_report *r = od_classify(j);
    assert_non_null(r);
    return r;
}

/* ---- a one-diagnosis report of raw text ------------------------------------ */

/* A report a library caller builds, its text not cleaned by the scanner:
 * input PATH, one root cause "c" whose title, summary, evidence line
 * (PATH:3) and one step are TEXT; a second input that gave no text is
 * added by one_report_unread.  Tests change the fields they need. */
struct one_report {
    struct od_fields fields;
    struct od_evidence ev;
    struct od_step step;
    struct od_input_info in[2];
    struct od_diagnosis d;
    struct od_report r;
    struct od_report *reps[1]; /* for render() */
};

static inline void one_report_init(struct one_report *o, const char *path, const char *text)
{
    memset(o, 0, sizeof *o);
    fields_init(&o->fields);
    o->ev = (struct od_evidence){path, 3, "r", text, -1, &o->fields};
    o->step = (struct od_step){"s", (char *)text, NULL};
    o->in[0] = (struct od_input_info){path, 1, 2, -1, 0, NULL, NULL};
    o->d = (struct od_diagnosis){.cause = "c",
                                 .title = (char *)text,
                                 .summary = (char *)text,
                                 .role = OD_ROLE_ROOT,
                                 .confidence = OD_CONF_HIGH,
                                 .evidence = &o->ev,
                                 .evidence_count = 1,
                                 .match_count = 1,
                                 .steps = &o->step,
                                 .step_count = 1,
                                 .fields = o->fields,
                                 .last_step = -1,
                                 .consequence_of = -1};
    o->r = (struct od_report){o->in, 1, &o->d, 1, {NULL, 0, NULL}, NULL, 0, NULL, NULL, 0};
    o->reps[0] = &o->r;
}

/* Adds the input PATH that could not be read: KIND, MESSAGE. */
static inline void one_report_unread(struct one_report *o, const char *path, const char *kind, const char *message)
{
    o->in[1] = (struct od_input_info){path, 0, 0, -1, 1, kind, message};
    o->r.input_count = 2;
}

/* Occurrences of WHAT in S. */
static inline size_t occurrences(const char *s, const char *what)
{
    size_t n = 0;
    for (const char *p = strstr(s, what); p; p = strstr(p + 1, what))
        n++;
    return n;
}

/* Log text with every kind of terminal control the scanner must clean
 * (basic.json's inject rules find a worker death in it). */
#define HOSTILE_LOG                                                                                                    \
    "\x1b]0;evil title\x07worker w\x07\x08\x1b[2Jx\x7f died: \x1b[31mboom\x1b[0m \x9b"                                 \
    "31m \xc2\x9b"                                                                                                     \
    "2J \xff\xfe tail\x07\x1b"

#endif
