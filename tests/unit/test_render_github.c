/* render_github.c: workflow commands (::error per root cause, ::warning
 * per consequence, capped, a ::notice for the rest), log text that cannot
 * break a command line or start one, and the step summary, appended and
 * bounded. */
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
#include "render_markdown.h"

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

/* Every line of OUT is a workflow command or the "oomdiag: " line, so
 * that nothing from a log can start a command of its own. */
static void assert_lines_are_ours(void)
{
    for (const char *line = out; *line;) {
        const char *nl = strchr(line, '\n');
        assert_non_null(nl);
        if (strncmp(line, "::error ", 8) && strncmp(line, "::warning ", 10) && strncmp(line, "::notice", 8) &&
            strncmp(line, "oomdiag: ", 9))
            fail_msg("a line that is not ours: %.*s", (int)(nl - line), line);
        line = nl + 1;
    }
}

static void test_github_annotations(void **state)
{
    (void)state;
    build_manual();
    render_manual(OD_FMT_GITHUB, 5);
    free_manual();
    assert_string_equal(out, "oomdiag: 2 inputs: 1 root cause, 1 consequence (11 lines read)\n"
                             "::error file=rank1.log,title=oomdiag::rank1.log: read in part: Input/output error "
                             "(unreadable)\n"
                             "::error file=rank0.log,line=1,title=gpu-oom (capacity)%3A GPU memory exhausted on ranks "
                             "0%2C 1::Sum. [high confidence]%0ATry first: Step 1 \xe2\x80\x94 Detail 1%0AEvidence: "
                             "rank0.log:1: line 1 (30 matching lines in all)\n"
                             "::warning file=rank1.log,line=5,title=nccl-timeout%3A A collective timed out on rank "
                             "1::A collective timed out [low confidence, nccl]%0AFollows from gpu-oom: fix that "
                             "first.%0AEvidence: rank1.log:5: c1 (4 matching lines in all)\n");
    assert_lines_are_ours();
}

/* Text a library caller hands in raw (newlines, "::", '%', "##[") breaks
 * no command line and starts none. */
static void test_github_injection(void **state)
{
    (void)state;
    static const char nasty[] = "a\n::error::pwned\r\n%0A::set-output name=x::y ##[error]z,w:v\x1b\x07\tend";
    struct one_report o;
    one_report_init(&o, nasty, nasty);
    one_report_unread(&o, nasty, "unreadable", nasty);
    render(OD_FMT_GITHUB, 0, 0, o.reps, 1);
    assert_lines_are_ours();
    assert_int_equal(occurrences(out, "\n"), 3); /* the job's line, the input's error, the root cause */
    assert_null(strchr(out, '\r'));
    assert_null(strchr(out, '\x1b'));
    assert_null(strstr(out, "##["));
    /* In a message: '%' first, then CR and LF, encoded. */
    assert_non_null(
        strstr(out, "::a%0A::error::pwned%0D%0A%250A::set-output name=x::y #\xe2\x80\x8b#[error]z,w:v end"));
    /* In a property, ':' and ',' too. */
    assert_non_null(strstr(out, "file=a%0A%3A%3Aerror%3A%3Apwned%0D%0A%250A%3A%3Aset-output name=x%3A%3Ay "
                                "#\xe2\x80\x8b#[error]z%2Cw%3Av end,line=3,"));
    fields_free(&o.fields);
}

/* At most ten ::error and ten ::warning lines a step; a ::notice counts
 * the rest. */
static void test_github_caps(void **state)
{
    (void)state;
    enum { N = 13 };
    struct od_fields f;
    fields_init(&f);
    struct od_input_info in = {"x.log", 1, 2, -1, 0, NULL, NULL};
    struct od_diagnosis d[2 * N];
    for (size_t i = 0; i < 2 * N; i++)
        d[i] = (struct od_diagnosis){.cause = "c",
                                     .title = (char *)"T",
                                     .role = i < N ? OD_ROLE_ROOT : OD_ROLE_CONSEQUENCE,
                                     .fields = f,
                                     .last_step = -1,
                                     .consequence_of = i < N ? -1 : 0};
    struct od_report r = {&in, 1, d, 2 * N, {NULL, 0, NULL}, NULL, 0, NULL, NULL, 0};
    struct od_report *reps[] = {&r};
    render(OD_FMT_GITHUB, 0, 0, reps, 1);
    assert_int_equal(occurrences(out, "::error "), 10);
    assert_int_equal(occurrences(out, "::warning "), 10);
    assert_non_null(strstr(out, "::notice::oomdiag: 3 more root causes and 3 more consequences left out"));
    assert_lines_are_ours();
    fields_free(&f);
}

int main(void)
{
#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)
    const struct CMUnitTest tests[] = {
        T(test_github_step_summary),
        T(test_github_annotations),
        T(test_github_injection),
        T(test_github_caps),

    };
#undef T
    return cmocka_run_group_tests(tests, NULL, NULL);
}
