/* The classifier: logs scanned into a job (files in a temporary directory,
 * or a pipe), then od_classify: roots and consequences, ranks, evidence,
 * variants, steps, summaries, progress, confidence, counts. */
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

static struct od_ruleset *rs;
static struct msgs msgs;
static struct od_job *job;
static struct od_report *rep;
static char *dir;

static int setup(void **state)
{
    (void)state;
    memset(&msgs, 0, sizeof msgs);
    rs = od_ruleset_create(collect_msg, &msgs);
    size_t len;
    char *text = read_whole_file(TEST_DATA "/classify/rules.json", &len);
    int rc = od_ruleset_add_buffer(rs, "rules.json", text, len);
    free(text);
    if (rc != 0 || od_ruleset_finish(rs) != 0) {
        dump_msgs(&msgs);
        return -1;
    }
    struct od_scan_opts opts = {0, 0, 1}; /* with trace, which these tests read */
    job = od_job_create(rs, &opts, collect_msg, &msgs);
    dir = tmpdir_create();
    return job ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    od_report_free(rep);
    od_job_free(job);
    od_ruleset_free(rs);
    tmpdir_remove(dir);
    rep = NULL;
    job = NULL;
    rs = NULL;
    dir = NULL;
    return 0;
}

static void add_file(const char *name, const char *text)
{
    write_file(dir, name, text, strlen(text));
}

/* Scans the temporary directory as one job and classifies it. */
static void classify_dir(void)
{
    assert_int_equal(od_job_add_path(job, dir), 0);
    rep = od_classify(job);
    assert_non_null(rep);
    if (msgs.count)
        dump_msgs(&msgs);
    assert_int_equal(msgs.count, 0);
}

/* One file as the whole job. */
static void classify_text(const char *text)
{
    add_file("job.log", text);
    classify_dir();
}

/* DIR/NAME, for comparing with paths in the report. */
static const char *path_of(const char *name)
{
    static char buf[4][4096];
    static int next;
    char *p = buf[next++ % 4];
    snprintf(p, sizeof buf[0], "%s/%s", dir, name);
    return p;
}

static void assert_ranks(const struct od_diagnosis *d, const int *ranks, size_t n)
{
    assert_int_equal(d->rank_count, n);
    for (size_t i = 0; i < n; i++)
        assert_int_equal(d->ranks[i], ranks[i]);
}

static void assert_steps(const struct od_diagnosis *d, const char *const *ids, size_t n)
{
    if (d->step_count != n)
        for (size_t i = 0; i < d->step_count; i++)
            print_message("step %zu: %s\n", i, d->steps[i].id);
    assert_int_equal(d->step_count, n);
    for (size_t i = 0; i < n; i++)
        assert_string_equal(d->steps[i].id, ids[i]);
}

#define RANKS(d, ...) assert_ranks(d, (const int[]){__VA_ARGS__}, sizeof((const int[]){__VA_ARGS__}) / sizeof(int))
#define STEPS(d, ...)                                                                                                  \
    assert_steps(d, (const char *const[]){__VA_ARGS__},                                                                \
                 sizeof((const char *const[]){__VA_ARGS__}) / sizeof(const char *))

static void assert_evidence(const struct od_diagnosis *d, size_t i, const char *path, unsigned long line,
                            const char *rule)
{
    assert_true(i < d->evidence_count);
    assert_string_equal(d->evidence[i].path, path);
    assert_int_equal(d->evidence[i].line, line);
    assert_string_equal(d->evidence[i].rule, rule);
}

static int has_trace(const struct od_diagnosis *d, const char *text)
{
    for (size_t i = 0; i < d->trace_count; i++)
        if (strcmp(d->trace[i], text) == 0)
            return 1;
    return 0;
}

static long long field_num(const struct od_diagnosis *d, const char *name)
{
    const struct od_field *f = fields_get(&d->fields, name);
    if (f == NULL)
        fail_msg("field %s is missing", name);
    return f->num;
}

#define OOM_FULL "CUDA out of memory. Tried to allocate 2.00 GiB; 1.00 GiB free; 3.00 GiB reserved but unallocated"
#define WATCHDOG(r) "[Rank " #r "] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=7)"

/* ---- roots and consequences ------------------------------------------------------------ */

static void test_root_and_consequence_across_ranks(void **state)
{
    (void)state;
    add_file("rank0.log", "step 1\nstep 2\n" WATCHDOG(0) "\n");
    add_file("rank3.log", "step 1\nstep 2\nstep 3\n" OOM_FULL "\n"
                          "CUDA kernel errors might be asynchronously reported at some other API call\n");
    classify_dir();

    assert_int_equal(rep->input_count, 2);
    assert_string_equal(rep->inputs[0].path, path_of("rank0.log"));
    assert_int_equal(rep->inputs[0].lines, 3);
    assert_int_equal(rep->inputs[0].rank, 0);
    assert_string_equal(rep->inputs[1].path, path_of("rank3.log"));
    assert_int_equal(rep->inputs[1].lines, 5);
    assert_int_equal(rep->inputs[1].rank, 3);
    assert_int_equal(rep->inputs[1].error, 0);

    assert_int_equal(rep->count, 2);
    const struct od_diagnosis *d = &rep->diagnoses[0];
    assert_string_equal(d->cause, "gpu-oom");
    assert_int_equal(d->role, OD_ROLE_ROOT);
    assert_string_equal(d->variant, "fragmentation");
    assert_string_equal(d->title, "GPU memory fragmented");
    assert_string_equal(d->explanation, "The GPU had no room for an allocation.");
    assert_string_equal(d->summary, "Rank 3 asked for 2.00 GiB with 1.00 GiB free.");
    assert_int_equal(d->confidence, OD_CONF_HIGH);
    assert_string_equal(d->framework, "pytorch");
    RANKS(d, 3);
    assert_int_equal(d->last_step, 3);
    assert_int_equal(d->consequence_of, -1);
    assert_int_equal(d->evidence_count, 2);
    assert_evidence(d, 0, path_of("rank3.log"), 4, "oom");
    assert_evidence(d, 1, path_of("rank3.log"), 5, "oom-hint");
    assert_string_equal(d->evidence[0].text, OOM_FULL);
    assert_int_equal(d->evidence[0].rank, 3);
    assert_int_equal(d->match_count, 2);
    assert_int_equal(field_num(d, "requested_bytes"), 2147483648LL);
    assert_int_equal(field_num(d, "free_bytes"), 1073741824LL);
    assert_int_equal(field_num(d, "reserved_unallocated_bytes"), 3221225472LL);
    assert_int_equal(field_num(d, "rank"), 3);
    STEPS(d, "expandable", "checkpoint", "batch", "frag-only");
    assert_string_equal(d->steps[0].action, "Set expandable_segments");
    assert_string_equal(d->steps[0].detail, "3.00 GiB is reserved but unallocated.");
    assert_null(d->steps[1].detail);
    assert_string_equal(d->steps[3].action, "Call empty_cache on rank 3");

    const struct od_diagnosis *c = &rep->diagnoses[1];
    assert_string_equal(c->cause, "nccl-timeout");
    assert_int_equal(c->role, OD_ROLE_CONSEQUENCE);
    assert_int_equal(c->consequence_of, 0);
    assert_null(c->variant);
    assert_string_equal(c->summary, "A collective timed out"); /* no summaries: the title */
    assert_int_equal(c->confidence, OD_CONF_HIGH);
    assert_string_equal(c->framework, "nccl");
    RANKS(c, 0);
    assert_int_equal(c->last_step, 2);
    assert_int_equal(c->evidence_count, 1);
    assert_evidence(c, 0, path_of("rank0.log"), 3, "watchdog");
    STEPS(c, "look");
    assert_string_equal(c->steps[0].action, "Look at ranks 0");
}

static void test_consequence_only_is_promoted(void **state)
{
    (void)state;
    classify_text(WATCHDOG(1) "\n" WATCHDOG(0) "\nunrelated\n" WATCHDOG(1) "\n");
    assert_int_equal(rep->count, 1);
    const struct od_diagnosis *d = &rep->diagnoses[0];
    assert_string_equal(d->cause, "nccl-timeout");
    assert_int_equal(d->role, OD_ROLE_ROOT);
    assert_int_equal(d->consequence_of, -1);
    assert_int_equal(d->confidence, OD_CONF_MEDIUM); /* high, lowered one step */
    RANKS(d, 0, 1);
    assert_int_equal(d->evidence_count, 3);
    assert_evidence(d, 0, path_of("job.log"), 1, "watchdog");
    assert_evidence(d, 1, path_of("job.log"), 2, "watchdog");
    assert_evidence(d, 2, path_of("job.log"), 4, "watchdog");
    assert_int_equal(d->match_count, 3);
    assert_string_equal(d->steps[0].action, "Look at ranks 0, 1");
    assert_true(has_trace(d, "confidence lowered: only consequences are visible, no initiating failure"));
    assert_true(has_trace(d, "ranked as root: no initiating failure was found, this consequence is the best evidence"));
}

/* A fallback signature decides only where no specific one found
 * anything, and says so in the trace. */
static void test_fallback_alone_decides(void **state)
{
    (void)state;
    classify_text("step 1\nERROR: the device ran out of memory\n");
    assert_int_equal(rep->count, 1);
    const struct od_diagnosis *d = &rep->diagnoses[0];
    assert_string_equal(d->cause, "gpu-oom");
    assert_int_equal(d->role, OD_ROLE_ROOT);
    assert_int_equal(d->confidence, OD_CONF_MEDIUM);
    assert_evidence(d, 0, path_of("job.log"), 2, "fallback-oom");
    assert_true(has_trace(d, "a fallback decided: no specific signature explained the failure; fallback-oom is a "
                             "generic signature built from the shared lexicon (what the line means, not its wording)"));
}

/* On the line of a specific signature, a fallback does not run; a cause
 * that only a fallback found, on an earlier line, is left out beside a
 * specific finding. */
static void test_fallback_never_outranks(void **state)
{
    (void)state;
    classify_text("ERROR: worker 3 died\nERROR: CUDA out of memory. Tried to allocate 2.00 GiB\n");
    assert_int_equal(rep->count, 1);
    const struct od_diagnosis *d = &rep->diagnoses[0];
    assert_string_equal(d->cause, "gpu-oom");
    assert_int_equal(d->evidence_count, 1);
    assert_evidence(d, 0, path_of("job.log"), 2, "oom");
    assert_int_equal(d->confidence, OD_CONF_HIGH);
    assert_false(has_trace(d, "a fallback decided"));
}

/* Fallback findings add nothing to a cause a specific signature found. */
static void test_fallback_adds_nothing_to_a_specific_cause(void **state)
{
    (void)state;
    classify_text("ERROR: the device ran out of memory\nCUDA out of memory.\n");
    assert_int_equal(rep->count, 1);
    const struct od_diagnosis *d = &rep->diagnoses[0];
    assert_string_equal(d->cause, "gpu-oom");
    assert_int_equal(d->evidence_count, 1);
    assert_evidence(d, 0, path_of("job.log"), 2, "oom");
}

/* The notes of why a diagnosis stands where it does are made only for a
 * job scanned with trace on; the diagnosis is the same either way. */
static void test_trace_only_when_asked(void **state)
{
    (void)state;
    classify_text(WATCHDOG(1) "\n" WATCHDOG(0) "\n");
    assert_true(rep->diagnoses[0].trace_count > 0);
    struct od_job *plain = od_job_create(rs, NULL, collect_msg, &msgs);
    assert_non_null(plain);
    assert_int_equal(od_job_add_path(plain, dir), 0);
    struct od_report *r = od_classify(plain);
    assert_non_null(r);
    assert_int_equal(r->count, 1);
    assert_string_equal(r->diagnoses[0].cause, rep->diagnoses[0].cause);
    assert_int_equal(r->diagnoses[0].confidence, rep->diagnoses[0].confidence);
    assert_string_equal(r->diagnoses[0].steps[0].action, rep->diagnoses[0].steps[0].action);
    assert_int_equal(r->diagnoses[0].trace_count, 0);
    assert_null(r->diagnoses[0].trace);
    od_report_free(r);
    od_job_free(plain);
}

static void test_several_roots_ordered_by_first_line(void **state)
{
    (void)state;
    classify_text("Killed\n" WATCHDOG(2) "\n"
                                         "CUDA out of memory. Tried to allocate 1.00 GiB\n");
    assert_int_equal(rep->count, 3);
    assert_string_equal(rep->diagnoses[0].cause, "host-oom-kill");
    assert_int_equal(rep->diagnoses[0].role, OD_ROLE_ROOT);
    assert_int_equal(rep->diagnoses[0].confidence, OD_CONF_MEDIUM);
    assert_string_equal(rep->diagnoses[1].cause, "gpu-oom");
    assert_int_equal(rep->diagnoses[1].role, OD_ROLE_ROOT);
    assert_int_equal(rep->diagnoses[1].consequence_of, -1);
    assert_string_equal(rep->diagnoses[2].cause, "nccl-timeout");
    assert_int_equal(rep->diagnoses[2].role, OD_ROLE_CONSEQUENCE);
    assert_int_equal(rep->diagnoses[2].consequence_of, 0);
    assert_true(has_trace(&rep->diagnoses[1], "ranked as root #2 by its earliest initiating line"));
}

static void test_several_roots_reversed(void **state)
{
    (void)state;
    classify_text("CUDA out of memory. Tried to allocate 1.00 GiB\n"
                  "Killed\n");
    assert_int_equal(rep->count, 2);
    assert_string_equal(rep->diagnoses[0].cause, "gpu-oom");
    assert_string_equal(rep->diagnoses[1].cause, "host-oom-kill");
    assert_int_equal(rep->diagnoses[1].role, OD_ROLE_ROOT);
}

/* ---- a root that follows another root ("follows") ---------------------------------------- */

#define FILLER "loading shard\n"
#define FILLER10 FILLER FILLER FILLER FILLER FILLER FILLER FILLER FILLER FILLER FILLER

static void test_crash_after_a_root_is_its_consequence(void **state)
{
    (void)state;
    classify_text("CUDA out of memory. Tried to allocate 1.00 GiB\n"
                  "Segmentation fault (core dumped)\n");
    assert_int_equal(rep->count, 2);
    assert_string_equal(rep->diagnoses[0].cause, "gpu-oom");
    assert_int_equal(rep->diagnoses[0].role, OD_ROLE_ROOT);
    const struct od_diagnosis *d = &rep->diagnoses[1];
    assert_string_equal(d->cause, "crash");
    assert_int_equal(d->role, OD_ROLE_CONSEQUENCE);
    assert_int_equal(d->consequence_of, 0);
    assert_int_equal(d->confidence, OD_CONF_MEDIUM);
    assert_true(has_trace(d, "ranked as a consequence of gpu-oom: its cause can follow gpu-oom (the rules' "
                             "\"follows\") and its lines come after that root's first line, or quote it just "
                             "before"));
}

static void test_crash_well_before_a_root_stays_a_root(void **state)
{
    (void)state;
    classify_text("Segmentation fault (core dumped)\n" FILLER10 "CUDA out of memory. Tried to allocate 1.00 GiB\n");
    assert_int_equal(rep->count, 2);
    assert_string_equal(rep->diagnoses[0].cause, "crash");
    assert_int_equal(rep->diagnoses[0].role, OD_ROLE_ROOT);
    assert_string_equal(rep->diagnoses[1].cause, "gpu-oom");
    assert_int_equal(rep->diagnoses[1].role, OD_ROLE_ROOT);
}

static void test_crash_quoting_the_root_just_after_it_is_its_consequence(void **state)
{
    (void)state;
    /* A wrapper's error first, the failure under it on the next lines. */
    classify_text("Segmentation fault (core dumped)\nLast error:\nCUDA out of memory. Tried to allocate 1.00 GiB\n");
    assert_int_equal(rep->count, 2);
    assert_string_equal(rep->diagnoses[0].cause, "gpu-oom");
    assert_int_equal(rep->diagnoses[1].role, OD_ROLE_CONSEQUENCE);
    assert_int_equal(rep->diagnoses[1].consequence_of, 0);
}

static void test_crash_on_another_rank_follows_the_root(void **state)
{
    (void)state;
    /* No clock between the files: the crash cannot come first in a way the
     * rules allow (gpu-oom does not follow crash), so it follows. */
    add_file("rank0.log", "Segmentation fault (core dumped)\n");
    add_file("rank1.log", "CUDA out of memory. Tried to allocate 1.00 GiB\n");
    classify_dir();
    assert_int_equal(rep->count, 2);
    assert_string_equal(rep->diagnoses[0].cause, "gpu-oom");
    RANKS(&rep->diagnoses[0], 1);
    assert_string_equal(rep->diagnoses[1].cause, "crash");
    assert_int_equal(rep->diagnoses[1].role, OD_ROLE_CONSEQUENCE);
    RANKS(&rep->diagnoses[1], 0);
}

static void test_crash_after_a_recovered_failure_stays_a_root(void **state)
{
    (void)state;
    classify_text(OOM_FULL "\nout of memory, retrying with batch size 8\nstep 4\nSegmentation fault (core dumped)\n");
    assert_int_equal(rep->count, 2);
    assert_string_equal(rep->diagnoses[0].cause, "crash");
    assert_int_equal(rep->diagnoses[0].role, OD_ROLE_ROOT);
    assert_int_equal(rep->diagnoses[1].role, OD_ROLE_RECOVERED);
}

static void test_follower_joins_the_first_root_it_can_follow(void **state)
{
    (void)state;
    /* The crash can follow the OOM and the kill (a root of its own): the first wins. */
    classify_text("CUDA out of memory. Tried to allocate 1.00 GiB\n" FILLER10 FILLER10 "Killed\n"
                  "Segmentation fault (core dumped)\n");
    assert_int_equal(rep->count, 3);
    assert_string_equal(rep->diagnoses[0].cause, "gpu-oom");
    assert_string_equal(rep->diagnoses[1].cause, "host-oom-kill");
    assert_int_equal(rep->diagnoses[1].role, OD_ROLE_ROOT);
    assert_string_equal(rep->diagnoses[2].cause, "crash");
    assert_int_equal(rep->diagnoses[2].consequence_of, 0); /* the first root its cause can follow */
}

static void test_crash_after_a_watchdog_timeout_follows_it(void **state)
{
    (void)state;
    /* The watchdog aborts the process: the timeout stands in as the root. */
    classify_text(WATCHDOG(0) "\nSegmentation fault (core dumped)\n");
    assert_int_equal(rep->count, 2);
    assert_string_equal(rep->diagnoses[0].cause, "nccl-timeout");
    assert_int_equal(rep->diagnoses[0].role, OD_ROLE_ROOT);
    assert_int_equal(rep->diagnoses[0].confidence, OD_CONF_MEDIUM); /* lowered: a consequence stands in */
    assert_string_equal(rep->diagnoses[1].cause, "crash");
    assert_int_equal(rep->diagnoses[1].role, OD_ROLE_CONSEQUENCE);
    assert_int_equal(rep->diagnoses[1].consequence_of, 0);
}

static void test_crash_before_a_watchdog_timeout_stays_the_root(void **state)
{
    (void)state;
    classify_text("Segmentation fault (core dumped)\n" WATCHDOG(0) "\n");
    assert_int_equal(rep->count, 2);
    assert_string_equal(rep->diagnoses[0].cause, "crash");
    assert_int_equal(rep->diagnoses[0].role, OD_ROLE_ROOT);
    assert_string_equal(rep->diagnoses[1].cause, "nccl-timeout");
    assert_int_equal(rep->diagnoses[1].consequence_of, 0);
}

static void test_root_after_a_less_sure_consequence_stays_the_root(void **state)
{
    (void)state;
    /* The worker's death (medium) is no surer than the crash (medium). */
    classify_text("RuntimeError: DataLoader worker (pid 4242) is killed by signal: Killed.\n"
                  "Segmentation fault (core dumped)\n");
    assert_int_equal(rep->count, 2);
    assert_string_equal(rep->diagnoses[0].cause, "crash");
    assert_int_equal(rep->diagnoses[0].role, OD_ROLE_ROOT);
    assert_string_equal(rep->diagnoses[1].cause, "dataloader-killed");
    assert_int_equal(rep->diagnoses[1].consequence_of, 0);
}

static void test_crash_on_the_watchdog_line_stays_the_root(void **state)
{
    (void)state;
    /* Lines on one physical line have no order. */
    classify_text(WATCHDOG(0) " Segmentation fault (core dumped)\n");
    assert_string_equal(rep->diagnoses[0].cause, "crash");
    assert_int_equal(rep->diagnoses[0].role, OD_ROLE_ROOT);
}

static void test_crash_after_a_watchdog_follows_a_real_root(void **state)
{
    (void)state;
    add_file("rank0.log", "CUDA out of memory. Tried to allocate 1.00 GiB\n");
    add_file("rank1.log", WATCHDOG(1) "\nSegmentation fault (core dumped)\n");
    classify_dir();
    assert_int_equal(rep->count, 3);
    assert_string_equal(rep->diagnoses[0].cause, "gpu-oom");
    for (size_t i = 1; i < 3; i++) {
        assert_int_equal(rep->diagnoses[i].role, OD_ROLE_CONSEQUENCE);
        assert_int_equal(rep->diagnoses[i].consequence_of, 0);
    }
}

static void test_consequence_follows_the_root_its_cause_names(void **state)
{
    (void)state;
    classify_text("CUDA out of memory. Tried to allocate 1.00 GiB\nKilled\n"
                  "RuntimeError: DataLoader worker (pid 4242) is killed by signal: Killed.\n");
    assert_int_equal(rep->count, 3);
    assert_string_equal(rep->diagnoses[2].cause, "dataloader-killed");
    assert_int_equal(rep->diagnoses[2].role, OD_ROLE_CONSEQUENCE);
    assert_int_equal(rep->diagnoses[2].consequence_of, 1); /* host-oom-kill, not the first root */
}

static void test_hint_and_progress_alone_diagnose_nothing(void **state)
{
    (void)state;
    classify_text("step 1\nCUDA kernel errors might be asynchronously reported at some other API call\nstep 2\n");
    assert_int_equal(rep->count, 0);
    assert_int_equal(rep->input_count, 1);
    assert_int_equal(rep->inputs[0].lines, 3);
}

/* ---- confirmation and confidence ------------------------------------------------------- */

static void test_confirmation_raises_confidence(void **state)
{
    (void)state;
    classify_text("[12345.678] Out of memory: Killed process 1234 (python)\n"
                  "Killed\n");
    assert_int_equal(rep->count, 1);
    const struct od_diagnosis *d = &rep->diagnoses[0];
    assert_string_equal(d->cause, "host-oom-kill");
    assert_int_equal(d->role, OD_ROLE_ROOT);
    assert_int_equal(d->confidence, OD_CONF_HIGH);
    /* Evidence: the root line first, then the confirmation, though the
     * confirmation came first in the log. */
    assert_int_equal(d->evidence_count, 2);
    assert_evidence(d, 0, path_of("job.log"), 2, "killed");
    assert_evidence(d, 1, path_of("job.log"), 1, "kernel-kill");
    assert_string_equal(d->summary, "The kernel killed process 1234.");
    assert_true(has_trace(d, "confidence raised to high: a confirmation line supports the root"));
}

static void test_bare_root_keeps_its_confidence(void **state)
{
    (void)state;
    classify_text("Killed\n");
    assert_int_equal(rep->count, 1);
    const struct od_diagnosis *d = &rep->diagnoses[0];
    assert_int_equal(d->confidence, OD_CONF_MEDIUM);
    assert_string_equal(d->summary, "Killed for memory"); /* {pid} has no value */
}

static void test_confirmation_alone_is_a_root(void **state)
{
    (void)state;
    classify_text("Out of memory: Killed process 99 (python)\n");
    assert_int_equal(rep->count, 1);
    const struct od_diagnosis *d = &rep->diagnoses[0];
    assert_int_equal(d->role, OD_ROLE_ROOT);
    assert_int_equal(d->confidence, OD_CONF_HIGH);
    assert_string_equal(d->summary, "The kernel killed process 99.");
}

/* ---- variants, steps, summaries ---------------------------------------------------------- */

static void test_variant_at_threshold(void **state)
{
    (void)state;
    /* reserved_unallocated_bytes == requested_bytes: ">=" holds. */
    classify_text("CUDA out of memory. Tried to allocate 2.00 GiB; 1.00 GiB free; 2048.00 MiB reserved but "
                  "unallocated\n");
    assert_string_equal(rep->diagnoses[0].variant, "fragmentation");
    assert_string_equal(rep->diagnoses[0].title, "GPU memory fragmented");
}

static void test_variant_below_threshold(void **state)
{
    (void)state;
    classify_text("CUDA out of memory. Tried to allocate 2.00 GiB; 1.00 GiB free; 1.50 GiB reserved but "
                  "unallocated\n");
    const struct od_diagnosis *d = &rep->diagnoses[0];
    assert_string_equal(d->variant, "capacity");
    assert_string_equal(d->title, "GPU memory exhausted");
    /* No progress: last_step has no value, "batch" stays where written;
     * "expandable" holds (has the field) but is not put first; "frag-only"
     * is out; "other" names a value the evidence lacks. */
    assert_int_equal(d->last_step, -1);
    STEPS(d, "checkpoint", "batch", "expandable");
    assert_string_equal(d->steps[2].detail, "1.50 GiB is reserved but unallocated.");
    assert_true(has_trace(d, "step frag-only left out: variant == \"fragmentation\" is false"));
    assert_true(has_trace(d, "step other left out: it names a value the evidence lacks"));
}

static void test_variant_without_the_field(void **state)
{
    (void)state;
    /* A comparison with a missing field is false: the default variant. */
    classify_text("CUDA out of memory. Tried to allocate 2.00 GiB; 1.00 GiB free\n");
    const struct od_diagnosis *d = &rep->diagnoses[0];
    assert_string_equal(d->variant, "capacity");
    STEPS(d, "checkpoint", "batch");
}

static void test_first_when_moves_a_step_up(void **state)
{
    (void)state;
    classify_text("step 0\nstep 1\nCUDA out of memory. Tried to allocate 2.00 GiB\nstep 2\n");
    const struct od_diagnosis *d = &rep->diagnoses[0];
    assert_int_equal(d->last_step, 1);
    assert_string_equal(d->variant, "capacity");
    STEPS(d, "batch", "checkpoint");
    assert_true(has_trace(d, "step batch moved up: last_step <= 1"));
}

static void test_variant_first_then_first_when_then_rest(void **state)
{
    (void)state;
    classify_text("step 1\n" OOM_FULL "\n");
    const struct od_diagnosis *d = &rep->diagnoses[0];
    assert_string_equal(d->variant, "fragmentation");
    STEPS(d, "expandable", "batch", "checkpoint");
    /* frag-only names {rank}: this file has no rank, so it is left out. */
}

static void test_summary_fallbacks(void **state)
{
    (void)state;
    /* The first summary holds but names {rank}, which has no value. */
    classify_text(OOM_FULL "\n");
    assert_string_equal(rep->diagnoses[0].summary, "Asked for 2.00 GiB.");
}

static void test_summary_falls_back_to_title(void **state)
{
    (void)state;
    classify_text("RuntimeError: CUDA out of memory.\n");
    const struct od_diagnosis *d = &rep->diagnoses[0];
    assert_string_equal(d->summary, "GPU memory exhausted");
    assert_int_equal(d->fields.count, 0);
}

/* ---- fields, ranks, progress -------------------------------------------------------------- */

static void test_fields_merged_first_root_wins(void **state)
{
    (void)state;
    classify_text("CUDA out of memory. Tried to allocate 1.00 GiB\n"
                  "CUDA out of memory. Tried to allocate 2.00 GiB; 512.00 MiB free\n");
    const struct od_diagnosis *d = &rep->diagnoses[0];
    assert_int_equal(field_num(d, "requested_bytes"), 1073741824LL);
    assert_int_equal(field_num(d, "free_bytes"), 536870912LL);
    assert_int_equal(d->evidence_count, 2);
    assert_int_equal(d->evidence[1].line, 2);
    assert_int_equal(fields_get(d->evidence[1].fields, "requested_bytes")->num, 2147483648LL);
}

static void test_rank_sources_in_order(void **state)
{
    (void)state;
    /* The signature's own capture, then the line prefix, then the path. */
    add_file("rank5.log", "[rank2]: [Rank 4] Watchdog caught collective operation timeout\n"
                          "[rank2]: CUDA out of memory. Tried to allocate 1.00 GiB\n"
                          "CUDA out of memory. Tried to allocate 1.00 GiB\n");
    classify_dir();
    assert_int_equal(rep->count, 2);
    const struct od_diagnosis *oom = &rep->diagnoses[0], *nccl = &rep->diagnoses[1];
    assert_int_equal(oom->evidence[0].rank, 2);
    assert_int_equal(oom->evidence[1].rank, 5);
    RANKS(oom, 2, 5);
    assert_int_equal(field_num(oom, "rank"), 2);
    assert_int_equal(nccl->evidence[0].rank, 4);
    RANKS(nccl, 4);
}

static void test_last_step_before_the_failure(void **state)
{
    (void)state;
    classify_text("step 5\nstep 6\nCUDA out of memory.\nstep 7\n");
    assert_int_equal(rep->diagnoses[0].last_step, 6);
}

static void test_last_step_from_progress_bar_updates(void **state)
{
    (void)state;
    /* "\r" updates: the last one of the physical line counts. */
    classify_text("step 5\rstep 6\rstep 7\nCUDA out of memory.\n");
    assert_int_equal(rep->diagnoses[0].last_step, 7);
}

static void test_last_step_is_per_input(void **state)
{
    (void)state;
    add_file("rank0.log", "step 40\n");
    add_file("rank1.log", "step 1\nCUDA out of memory.\n");
    classify_dir();
    assert_int_equal(rep->diagnoses[0].last_step, 1);
}

/* ---- counts --------------------------------------------------------------------------------- */

static char *repeat_line(const char *line, int n)
{
    size_t len = strlen(line);
    char *text = malloc((len + 1) * (size_t)n + 1);
    assert_non_null(text);
    for (int i = 0; i < n; i++) {
        memcpy(text + (len + 1) * (size_t)i, line, len);
        text[(len + 1) * (size_t)i + len] = '\n';
    }
    text[(len + 1) * (size_t)n] = '\0';
    return text;
}

static void test_match_count_beyond_the_kept_findings(void **state)
{
    (void)state;
    char *text = repeat_line("CUDA out of memory. Tried to allocate 1.00 GiB", 12);
    classify_text(text);
    free(text);
    const struct od_diagnosis *d = &rep->diagnoses[0];
    assert_int_equal(d->evidence_count, JOB_KEEP_PER_SIG_INPUT);
    assert_int_equal(d->match_count, 12);
    for (size_t i = 0; i < d->evidence_count; i++)
        assert_int_equal(d->evidence[i].line, i + 1);
}

static void test_match_count_over_inputs(void **state)
{
    (void)state;
    char *text = repeat_line("CUDA out of memory. Tried to allocate 1.00 GiB", 12);
    add_file("rank0.log", text);
    add_file("rank1.log", text);
    add_file("rank2.log", text);
    free(text);
    classify_dir();
    const struct od_diagnosis *d = &rep->diagnoses[0];
    assert_int_equal(d->match_count, 36);
    assert_int_equal(d->evidence_count, 20); /* 24 kept, 20 shown at most */
    RANKS(d, 0, 1, 2);
    assert_string_equal(d->evidence[0].path, path_of("rank0.log"));
    assert_string_equal(d->evidence[8].path, path_of("rank1.log"));
    assert_int_equal(d->evidence[8].line, 1);
    assert_string_equal(d->evidence[19].path, path_of("rank2.log"));
    assert_int_equal(d->evidence[19].line, 4);
}

/* ---- inputs --------------------------------------------------------------------------------- */

static void test_pipe_input(void **state)
{
    (void)state;
    static const char text[] = "\x1b[31mCUDA out of memory.\x1b[0m Tried to allocate 2.00 GiB\n";
    int fd = pipe_with(text, sizeof text - 1);
    assert_int_equal(od_job_add_fd(job, fd, "-"), 0);
    close(fd);
    rep = od_classify(job);
    assert_non_null(rep);
    assert_int_equal(rep->input_count, 1);
    assert_string_equal(rep->inputs[0].path, "-");
    assert_int_equal(rep->inputs[0].rank, -1);
    assert_int_equal(rep->inputs[0].lines, 1);
    assert_int_equal(rep->inputs[0].bytes, sizeof text - 1);
    assert_int_equal(rep->count, 1);
    const struct od_diagnosis *d = &rep->diagnoses[0];
    assert_int_equal(d->rank_count, 0);
    assert_int_equal(d->evidence[0].rank, -1);
    /* Matched through its colours; shown without them. */
    assert_string_equal(d->evidence[0].text, "CUDA out of memory. Tried to allocate 2.00 GiB");
    assert_string_equal(d->summary, "Asked for 2.00 GiB.");
}

static void test_job_reset(void **state)
{
    (void)state;
    classify_text("Killed\n");
    assert_int_equal(rep->count, 1);
    od_report_free(rep);
    rep = NULL;
    od_job_reset(job);
    int fd = pipe_with("Segmentation fault\n", 19);
    assert_int_equal(od_job_add_fd(job, fd, "second"), 0);
    close(fd);
    rep = od_classify(job);
    assert_int_equal(rep->input_count, 1);
    assert_string_equal(rep->inputs[0].path, "second");
    assert_int_equal(rep->count, 1);
    assert_string_equal(rep->diagnoses[0].cause, "crash");
    assert_int_equal(rep->diagnoses[0].match_count, 1);
    /* {path}, {line} and the counts, as the template names them. */
    assert_string_equal(rep->diagnoses[0].steps[0].detail, "It crashed at second:1 (0 ranks, 1 lines).");
}

#define DL_KILLED "RuntimeError: DataLoader worker (pid 4242) is killed by signal: Killed."
#define DL_HINT "ERROR: bus error in worker. This might be caused by insufficient shared memory (shm)."

static void test_consequences_ordered_by_first_line(void **state)
{
    (void)state;
    classify_text(DL_KILLED "\n" WATCHDOG(0) "\nChildFailedError:\nCUDA out of memory.\n");
    assert_int_equal(rep->count, 4);
    static const char *const causes[] = {"gpu-oom", "dataloader-killed", "nccl-timeout", "crash"};
    for (size_t i = 0; i < 4; i++) {
        assert_string_equal(rep->diagnoses[i].cause, causes[i]);
        assert_int_equal(rep->diagnoses[i].role, i == 0 ? OD_ROLE_ROOT : OD_ROLE_CONSEQUENCE);
        assert_int_equal(rep->diagnoses[i].consequence_of, i == 0 ? -1 : 0);
    }
}

static void test_hints_do_not_order_consequences(void **state)
{
    (void)state;
    /* The data loader's first line is a hint: its group begins at line 3. */
    classify_text(DL_HINT "\n" WATCHDOG(0) "\n" DL_KILLED "\nCUDA out of memory.\n");
    assert_int_equal(rep->count, 3);
    assert_string_equal(rep->diagnoses[1].cause, "nccl-timeout");
    assert_string_equal(rep->diagnoses[2].cause, "dataloader-killed");
    /* The hint still joins its diagnosis, after the consequence line. */
    assert_int_equal(rep->diagnoses[2].evidence_count, 2);
    assert_evidence(&rep->diagnoses[2], 0, path_of("job.log"), 3, "dl-killed");
    assert_evidence(&rep->diagnoses[2], 1, path_of("job.log"), 1, "dl-hint");
}

static void test_most_confident_consequence_is_promoted(void **state)
{
    (void)state;
    classify_text(DL_KILLED "\n" WATCHDOG(1) "\n");
    assert_int_equal(rep->count, 2);
    assert_string_equal(rep->diagnoses[0].cause, "nccl-timeout"); /* high beats medium */
    assert_int_equal(rep->diagnoses[0].role, OD_ROLE_ROOT);
    assert_int_equal(rep->diagnoses[0].confidence, OD_CONF_MEDIUM);
    assert_string_equal(rep->diagnoses[1].cause, "dataloader-killed");
    assert_int_equal(rep->diagnoses[1].role, OD_ROLE_CONSEQUENCE);
    assert_int_equal(rep->diagnoses[1].consequence_of, 0);
    assert_int_equal(rep->diagnoses[1].confidence, OD_CONF_MEDIUM);
}

static void test_hint_confidence_does_not_promote(void **state)
{
    (void)state;
    /* Both consequence groups are medium; the data loader's hint is high
     * (the default) but does not count: the tie goes to the earlier one. */
    classify_text("ChildFailedError:\n" DL_HINT "\n" DL_KILLED "\n");
    assert_int_equal(rep->count, 2);
    assert_string_equal(rep->diagnoses[0].cause, "crash");
    assert_int_equal(rep->diagnoses[0].role, OD_ROLE_ROOT);
    assert_string_equal(rep->diagnoses[1].cause, "dataloader-killed");
}

static void test_earliest_consequence_wins_a_tie(void **state)
{
    (void)state;
    classify_text("ChildFailedError:\n" DL_KILLED "\n");
    assert_int_equal(rep->count, 2);
    assert_string_equal(rep->diagnoses[0].cause, "crash");
    assert_int_equal(rep->diagnoses[0].role, OD_ROLE_ROOT);
    assert_int_equal(rep->diagnoses[0].confidence, OD_CONF_LOW); /* medium, lowered */
    assert_string_equal(rep->diagnoses[1].cause, "dataloader-killed");
    od_report_free(rep);
    rep = NULL;
    od_job_reset(job);
    const char *text = DL_KILLED "\nChildFailedError:\n";
    int fd = pipe_with(text, strlen(text));
    assert_int_equal(od_job_add_fd(job, fd, "-"), 0);
    close(fd);
    rep = od_classify(job);
    assert_string_equal(rep->diagnoses[0].cause, "dataloader-killed");
    assert_string_equal(rep->diagnoses[1].cause, "crash");
}

static void test_last_step_from_cr_ended_updates(void **state)
{
    (void)state;
    /* Regression (fixed): src/scan.c passes MATCHER_SKIP_PROGRESS for every segment that
     * a lone "\r" ends (ln.cr_ended), so progress printed with a trailing
     * "\r" (print(..., end="\r")) is never evaluated unless a "\n"
     * follows it directly: here the physical line is "step 1\rstep 2\r
     * step 3\rTraceback ...\n", no segment is evaluated, and last_step is
     * -1 instead of 3.  docs/classifier.md says the last \r update of each
     * physical line is evaluated. */
    classify_text("step 1\rstep 2\rstep 3\rTraceback (most recent call last):\nCUDA out of memory.\n");
    assert_int_equal(rep->diagnoses[0].last_step, 3);
}

/* ---- failures the program survived ------------------------------------------------------ */

#define RETRY "out of memory, retrying with batch size 8"

static void test_retry_then_progress_is_recovered(void **state)
{
    (void)state;
    classify_text("step 1\n" OOM_FULL "\n" RETRY "\nstep 2\nstep 3\n");
    assert_int_equal(rep->count, 1);
    const struct od_diagnosis *d = &rep->diagnoses[0];
    assert_string_equal(d->cause, "gpu-oom");
    assert_int_equal(d->role, OD_ROLE_RECOVERED);
    assert_string_equal(od_role_name(d->role), "recovered");
    assert_int_equal(d->consequence_of, -1);
    assert_int_equal(d->evidence_count, 2);
    assert_evidence(d, 0, path_of("job.log"), 2, "oom");
    assert_evidence(d, 1, path_of("job.log"), 3, "oom-retry");
    assert_int_equal(field_num(d, "next_batch_size"), 8);
    assert_true(has_trace(d, "recovered: the program retried after the failure and made progress afterwards, with "
                             "no failure after the retry"));
}

static void test_retry_line_alone_then_progress_is_recovered(void **state)
{
    (void)state;
    classify_text(RETRY "\nstep 1\n");
    assert_int_equal(rep->count, 1);
    assert_int_equal(rep->diagnoses[0].role, OD_ROLE_RECOVERED);
    assert_int_equal(rep->diagnoses[0].confidence, OD_CONF_HIGH);
}

static void test_failure_after_the_retry_is_root(void **state)
{
    (void)state;
    classify_text(OOM_FULL "\n" RETRY "\nstep 1\nstep 2\n" OOM_FULL "\nTraceback (most recent call last):\n");
    assert_int_equal(rep->count, 1);
    const struct od_diagnosis *d = &rep->diagnoses[0];
    assert_int_equal(d->role, OD_ROLE_ROOT);
    assert_int_equal(d->confidence, OD_CONF_HIGH);
    assert_true(has_trace(d, "not recovered: the log shows a failure with no retry after it"));
}

static void test_retry_without_progress_after_is_root(void **state)
{
    (void)state;
    classify_text("step 1\nstep 2\n" OOM_FULL "\n" RETRY "\nTraceback (most recent call last):\n");
    assert_int_equal(rep->count, 1);
    const struct od_diagnosis *d = &rep->diagnoses[0];
    assert_int_equal(d->role, OD_ROLE_ROOT);
    assert_int_equal(d->confidence, OD_CONF_HIGH);
    assert_int_equal(d->last_step, 2);
    assert_true(has_trace(d, "not recovered: the log shows no progress after the last retry"));
}

static void test_retry_alone_without_progress_is_a_lowered_root(void **state)
{
    (void)state;
    classify_text("step 1\n" RETRY "\n");
    assert_int_equal(rep->count, 1);
    const struct od_diagnosis *d = &rep->diagnoses[0];
    assert_int_equal(d->role, OD_ROLE_ROOT);
    assert_int_equal(d->confidence, OD_CONF_MEDIUM);
    assert_true(has_trace(d, "confidence lowered: only a retry is visible, not the failure it retried"));
}

static void test_recovered_and_another_root(void **state)
{
    (void)state;
    classify_text(OOM_FULL "\n" RETRY "\nstep 4\nSegmentation fault (core dumped)\n");
    assert_int_equal(rep->count, 2);
    assert_string_equal(rep->diagnoses[0].cause, "crash");
    assert_int_equal(rep->diagnoses[0].role, OD_ROLE_ROOT);
    assert_string_equal(rep->diagnoses[1].cause, "gpu-oom");
    assert_int_equal(rep->diagnoses[1].role, OD_ROLE_RECOVERED);
    assert_int_equal(rep->diagnoses[1].consequence_of, -1);
}

static void test_recovered_is_not_a_root_for_consequences(void **state)
{
    (void)state;
    /* The OOM was survived; the watchdog timeout later is the best evidence
     * of what ended the job, so it stands in as the root. */
    classify_text(OOM_FULL "\n" RETRY "\nstep 9\n" WATCHDOG(0) "\n");
    assert_int_equal(rep->count, 2);
    assert_string_equal(rep->diagnoses[0].cause, "nccl-timeout");
    assert_int_equal(rep->diagnoses[0].role, OD_ROLE_ROOT);
    assert_int_equal(rep->diagnoses[1].role, OD_ROLE_RECOVERED);
}

static void test_retries_beyond_the_kept_findings(void **state)
{
    (void)state;
    /* 12 failures and retries: only 8 of each are kept as findings, but the
     * last failure (after the last retry) must still be seen. */
    char text[8192] = "";
    for (int i = 0; i < 12; i++)
        strcat(text, OOM_FULL "\n" RETRY "\nstep 3\n");
    strcat(text, OOM_FULL "\n");
    classify_text(text);
    assert_int_equal(rep->count, 1);
    assert_int_equal(rep->diagnoses[0].role, OD_ROLE_ROOT);
    assert_int_equal(rep->diagnoses[0].match_count, 25);
}

static void test_many_retries_then_progress_are_recovered(void **state)
{
    (void)state;
    char text[8192] = "";
    for (int i = 0; i < 12; i++)
        strcat(text, OOM_FULL "\n" RETRY "\n");
    strcat(text, "step 40\n");
    classify_text(text);
    assert_int_equal(rep->count, 1);
    assert_int_equal(rep->diagnoses[0].role, OD_ROLE_RECOVERED);
}

static void test_retry_covers_only_its_own_input(void **state)
{
    (void)state;
    add_file("rank0.log", OOM_FULL "\nTraceback (most recent call last):\n");
    add_file("rank1.log", OOM_FULL "\n" RETRY "\nstep 5\n");
    classify_dir();
    assert_int_equal(rep->count, 1);
    assert_int_equal(rep->diagnoses[0].role, OD_ROLE_ROOT);
    RANKS(&rep->diagnoses[0], 0, 1);
}

static void test_progress_update_before_the_retry_is_not_after_it(void **state)
{
    (void)state;
    /* "step 1\r" is kept aside and counted only when the retry line follows
     * it; it still came before the retry. */
    classify_text(OOM_FULL "\nstep 1\r" RETRY "\n");
    assert_int_equal(rep->count, 1);
    assert_int_equal(rep->diagnoses[0].role, OD_ROLE_ROOT);
}

static void test_recovery_is_generic(void **state)
{
    (void)state;
    classify_text("Killed\nworker killed, restarting the worker\nstep 7\n");
    assert_int_equal(rep->count, 1);
    assert_string_equal(rep->diagnoses[0].cause, "host-oom-kill");
    assert_int_equal(rep->diagnoses[0].role, OD_ROLE_RECOVERED);
}

/* ---- going on without a retry line ------------------------------------------------------ */

static void test_progress_after_the_failure_is_recovered(void **state)
{
    (void)state;
    classify_text("step 1\n" OOM_FULL "\nstep 2\nstep 3\nstep 4\n");
    assert_int_equal(rep->count, 1);
    const struct od_diagnosis *d = &rep->diagnoses[0];
    assert_int_equal(d->role, OD_ROLE_RECOVERED);
    assert_true(has_trace(d, "recovered: the program went on after the failure (3 or more progress lines after its "
                             "last line, steps moving forward, no other failure before them)"));
}

static void test_failure_at_the_end_stays_a_root(void **state)
{
    (void)state;
    classify_text("step 1\nstep 2\nstep 3\nstep 4\n" OOM_FULL "\n");
    assert_int_equal(rep->count, 1);
    assert_int_equal(rep->diagnoses[0].role, OD_ROLE_ROOT);
}

static void test_progress_before_the_failure_does_not_count(void **state)
{
    (void)state;
    classify_text("step 1\nstep 2\nstep 3\n" OOM_FULL "\nstep 4\nstep 5\n" OOM_FULL "\nTraceback\n");
    assert_int_equal(rep->count, 1);
    assert_int_equal(rep->diagnoses[0].role, OD_ROLE_ROOT);
}

static void test_too_little_progress_after_the_failure_is_a_root(void **state)
{
    (void)state;
    classify_text(OOM_FULL "\nstep 2\nstep 3\n");
    assert_int_equal(rep->count, 1);
    assert_int_equal(rep->diagnoses[0].role, OD_ROLE_ROOT);
}

static void test_steps_that_do_not_move_are_not_going_on(void **state)
{
    (void)state;
    /* The same step shown again (a buffered log repeating itself) is no progress. */
    classify_text("step 5\n" OOM_FULL "\nstep 5\nstep 5\nstep 5\n");
    assert_int_equal(rep->count, 1);
    assert_int_equal(rep->diagnoses[0].role, OD_ROLE_ROOT);
}

static void test_progress_without_steps_counts(void **state)
{
    (void)state;
    classify_text(OOM_FULL "\nepoch header\nepoch header\nepoch header\n");
    assert_int_equal(rep->count, 1);
    assert_int_equal(rep->diagnoses[0].role, OD_ROLE_RECOVERED);
}

static void test_one_line_without_steps_is_not_enough(void **state)
{
    (void)state;
    classify_text(OOM_FULL "\nepoch header\n");
    assert_int_equal(rep->count, 1);
    assert_int_equal(rep->diagnoses[0].role, OD_ROLE_ROOT);
}

static void test_a_finished_phase_is_enough(void **state)
{
    (void)state;
    /* A progress line marked goes_on shows by itself that the program went on. */
    classify_text("step 4\n" OOM_FULL "\nphase finished\n");
    assert_int_equal(rep->count, 1);
    assert_int_equal(rep->diagnoses[0].role, OD_ROLE_RECOVERED);
}

static void test_a_finished_phase_before_the_failure_does_not_count(void **state)
{
    (void)state;
    classify_text("phase finished\n" OOM_FULL "\n");
    assert_int_equal(rep->count, 1);
    assert_int_equal(rep->diagnoses[0].role, OD_ROLE_ROOT);
}

static void test_another_failure_stops_the_count(void **state)
{
    (void)state;
    classify_text(OOM_FULL "\nKilled\nstep 2\nstep 3\nstep 4\n");
    assert_int_equal(rep->count, 2);
    assert_string_equal(rep->diagnoses[0].cause, "gpu-oom");
    assert_int_equal(rep->diagnoses[0].role, OD_ROLE_ROOT);
    assert_string_equal(rep->diagnoses[1].cause, "host-oom-kill");
    assert_int_equal(rep->diagnoses[1].role, OD_ROLE_RECOVERED);
}

static void test_progress_of_another_rank_does_not_count(void **state)
{
    (void)state;
    classify_text("[rank1]: " OOM_FULL "\n[rank0]: iter 2\n[rank0]: iter 3\n[rank0]: iter 4\n");
    assert_int_equal(rep->count, 1);
    assert_int_equal(rep->diagnoses[0].role, OD_ROLE_ROOT);
}

static void test_progress_of_the_same_rank_counts(void **state)
{
    (void)state;
    classify_text("[rank1]: " OOM_FULL "\n[rank1]: iter 2\n[rank1]: iter 3\n[rank1]: iter 4\n");
    assert_int_equal(rep->count, 1);
    assert_int_equal(rep->diagnoses[0].role, OD_ROLE_RECOVERED);
}

static void test_going_on_is_judged_per_input(void **state)
{
    (void)state;
    add_file("rank0.log", OOM_FULL "\nstep 2\nstep 3\nstep 4\n");
    add_file("rank1.log", OOM_FULL "\n");
    classify_dir();
    assert_int_equal(rep->count, 1);
    assert_int_equal(rep->diagnoses[0].role, OD_ROLE_ROOT);
}

static void test_progress_update_before_the_failure_is_not_after_it(void **state)
{
    (void)state;
    /* "step 3\r" is counted only when the failure line arrives. */
    classify_text("step 1\nstep 2\rstep 3\r" OOM_FULL "\nstep 4\nstep 5\n");
    assert_int_equal(rep->count, 1);
    assert_int_equal(rep->diagnoses[0].role, OD_ROLE_ROOT);
}

static void test_consequence_then_progress_is_recovered(void **state)
{
    (void)state;
    classify_text(WATCHDOG(0) "\nstep 2\nstep 3\nstep 4\n");
    assert_int_equal(rep->count, 1);
    assert_int_equal(rep->diagnoses[0].role, OD_ROLE_RECOVERED);
}

/* ---- a retry line that says the program went on ("goes_on") ------------------------------- */

#define SKIP "Skipping tactic 3 due to insufficient memory"

static void test_goes_on_retry_recovers_without_progress(void **state)
{
    (void)state;
    classify_text(OOM_FULL "\n" SKIP "\n");
    assert_int_equal(rep->count, 1);
    assert_int_equal(rep->diagnoses[0].role, OD_ROLE_RECOVERED);
}

static void test_failure_after_goes_on_retry_is_a_root(void **state)
{
    (void)state;
    classify_text(OOM_FULL "\n" SKIP "\n" OOM_FULL "\n");
    assert_int_equal(rep->count, 1);
    assert_int_equal(rep->diagnoses[0].role, OD_ROLE_ROOT);
}

static void test_goes_on_retry_alone_diagnoses_nothing(void **state)
{
    (void)state;
    classify_text(SKIP "\n" SKIP "\n");
    assert_int_equal(rep->count, 0);
}

int main(void)
{
#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)
    const struct CMUnitTest tests[] = {
        T(test_root_and_consequence_across_ranks),
        T(test_consequence_only_is_promoted),
        T(test_fallback_alone_decides),
        T(test_fallback_never_outranks),
        T(test_fallback_adds_nothing_to_a_specific_cause),
        T(test_trace_only_when_asked),
        T(test_several_roots_ordered_by_first_line),
        T(test_several_roots_reversed),
        T(test_crash_after_a_root_is_its_consequence),
        T(test_crash_well_before_a_root_stays_a_root),
        T(test_crash_quoting_the_root_just_after_it_is_its_consequence),
        T(test_crash_on_another_rank_follows_the_root),
        T(test_crash_after_a_recovered_failure_stays_a_root),
        T(test_follower_joins_the_first_root_it_can_follow),
        T(test_consequence_follows_the_root_its_cause_names),
        T(test_crash_after_a_watchdog_timeout_follows_it),
        T(test_crash_before_a_watchdog_timeout_stays_the_root),
        T(test_crash_after_a_watchdog_follows_a_real_root),
        T(test_root_after_a_less_sure_consequence_stays_the_root),
        T(test_crash_on_the_watchdog_line_stays_the_root),
        T(test_hint_and_progress_alone_diagnose_nothing),
        T(test_confirmation_raises_confidence),
        T(test_bare_root_keeps_its_confidence),
        T(test_confirmation_alone_is_a_root),
        T(test_variant_at_threshold),
        T(test_variant_below_threshold),
        T(test_variant_without_the_field),
        T(test_first_when_moves_a_step_up),
        T(test_variant_first_then_first_when_then_rest),
        T(test_summary_fallbacks),
        T(test_summary_falls_back_to_title),
        T(test_fields_merged_first_root_wins),
        T(test_rank_sources_in_order),
        T(test_last_step_before_the_failure),
        T(test_last_step_from_progress_bar_updates),
        T(test_last_step_is_per_input),
        T(test_match_count_beyond_the_kept_findings),
        T(test_match_count_over_inputs),
        T(test_pipe_input),
        T(test_job_reset),
        T(test_consequences_ordered_by_first_line),
        T(test_hints_do_not_order_consequences),
        T(test_most_confident_consequence_is_promoted),
        T(test_hint_confidence_does_not_promote),
        T(test_earliest_consequence_wins_a_tie),
        T(test_last_step_from_cr_ended_updates),
        T(test_retry_then_progress_is_recovered),
        T(test_retry_line_alone_then_progress_is_recovered),
        T(test_failure_after_the_retry_is_root),
        T(test_retry_without_progress_after_is_root),
        T(test_retry_alone_without_progress_is_a_lowered_root),
        T(test_recovered_and_another_root),
        T(test_recovered_is_not_a_root_for_consequences),
        T(test_retries_beyond_the_kept_findings),
        T(test_many_retries_then_progress_are_recovered),
        T(test_retry_covers_only_its_own_input),
        T(test_progress_update_before_the_retry_is_not_after_it),
        T(test_recovery_is_generic),
        T(test_progress_after_the_failure_is_recovered),
        T(test_failure_at_the_end_stays_a_root),
        T(test_progress_before_the_failure_does_not_count),
        T(test_too_little_progress_after_the_failure_is_a_root),
        T(test_steps_that_do_not_move_are_not_going_on),
        T(test_progress_without_steps_counts),
        T(test_one_line_without_steps_is_not_enough),
        T(test_a_finished_phase_is_enough),
        T(test_a_finished_phase_before_the_failure_does_not_count),
        T(test_another_failure_stops_the_count),
        T(test_progress_of_another_rank_does_not_count),
        T(test_progress_of_the_same_rank_counts),
        T(test_going_on_is_judged_per_input),
        T(test_progress_update_before_the_failure_is_not_after_it),
        T(test_consequence_then_progress_is_recovered),
        T(test_goes_on_retry_recovers_without_progress),
        T(test_failure_after_goes_on_retry_is_a_root),
        T(test_goes_on_retry_alone_diagnoses_nothing),
    };
#undef T
    return cmocka_run_group_tests(tests, NULL, NULL);
}
