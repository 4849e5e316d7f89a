/* render_markdown.c: the report as Markdown for a pull-request comment:
 * a heading per job, evidence in a fence longer than any backtick run in
 * it, log text that makes no link, HTML or structure, and a report that
 * stays under GitHub's 65,536 characters, saying what it left out. */
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

/* Characters (code points) of S. */
static size_t chars(const char *s)
{
    size_t n = 0;
    for (; *s; s++)
        n += ((unsigned char)*s & 0xc0) != 0x80;
    return n;
}

static void test_markdown_report(void **state)
{
    (void)state;
    rep = scan(train_log, sizeof train_log - 1, "train.log");
    render_one(OD_FMT_MARKDOWN, 0, 0);
    static const char head[] = "## oomdiag: train.log\n\n"
                               "1 root cause, 0 consequences (2 lines read).\n\n"
                               "### Root cause: gpu-oom (fragmentation)\n\n"
                               "**GPU memory exhausted** \xc2\xb7 high confidence \xc2\xb7 pytorch \xc2\xb7 last step "
                               "reached: 1\n\n"
                               "Asked for 2.00 GiB with 1.06 GiB free of 79.15 GiB.\n\n"
                               "Evidence:\n\n"
                               "```text\n"
                               "train.log:2: " OOM_LINE "\n"
                               "```\n\n"
                               "What to do:\n\n"
                               "1. Set PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True \xe2\x80\x94 3.12 GiB is "
                               "reserved but unallocated.\n"
                               "2. Halve the batch size\n\n";
    assert_memory_equal(out, head, sizeof head - 1);
    char foot[256];
    snprintf(foot, sizeof foot, "*oomdiag %s, rules test-1: 1 job, 1 root cause, 0 consequences.*\n", od_version());
    assert_string_equal(out + sizeof head - 1, foot);
    assert_null(strstr(out, "left out"));
}

static void test_markdown_input_errors(void **state)
{
    (void)state;
    build_manual();
    render_manual(OD_FMT_MARKDOWN, 3);
    free_manual();
    assert_non_null(strstr(out, "**Not read:** rank1.log: Input/output error (`unreadable`).\n\n"));
    assert_non_null(strstr(out, "### Consequence: nccl-timeout\n\n**A collective timed out** \xc2\xb7 low confidence "
                                "\xc2\xb7 nccl \xc2\xb7 rank 1 \xc2\xb7 last step reached: 12 \xc2\xb7 follows from "
                                "gpu-oom\n\n"));
    assert_non_null(strstr(out, "30 matching lines in all.\n\n"));
    rep = scan("", 0, "empty.log");
    render_one(OD_FMT_MARKDOWN, 0, 0);
    assert_non_null(strstr(out, "**Nothing to read:** empty.log: "));
}

/* Log and rule text cannot make markup: links, HTML, emphasis, tables, a
 * list or a "::" command at a line's start; a rule's `code` stays a code
 * span, a lone backtick is escaped; evidence sits in a fence longer than
 * any backtick run it holds. */
static void test_markdown_text_is_inert(void **state)
{
    (void)state;
    static const char summary[] = "- [click](http://x) <img src=x> *em* _u_ a|b ~~s~~ #h &amp; use `a*b` then ` alone";
    static const char evtext[] = "```` fence ```` `x`";
    struct one_report o;
    one_report_init(&o, "w.log", summary);
    o.d.title = (char *)"T";
    o.ev.text = evtext;
    o.ev.line = 1;
    o.step.action = (char *)"1. ::error::pwned";
    render(OD_FMT_MARKDOWN, 0, 0, o.reps, 1);
    assert_non_null(strstr(out, "\n\\- \\[click\\](http://x) \\<img src=x\\> \\*em\\* \\_u\\_ a\\|b \\~\\~s\\~\\~ \\#h "
                                "\\&amp; use `a*b` then \\` alone\n"));
    assert_non_null(strstr(out, "\n1. 1\\. ::error::pwned\n"));
    /* The fence is one backtick longer than the longest run inside. */
    assert_non_null(strstr(out, "Evidence:\n\n`````text\nw.log:1: ```` fence ```` `x`\n`````\n\n"));
    fields_free(&o.fields);
}

/* A comment holds at most MD_COMMENT_LIMIT characters (not bytes): jobs
 * past it are left out whole, and the footer says how many. */
static void test_markdown_size_bound(void **state)
{
    (void)state;
    enum { JOBS = 64, WIDE = 2000 };
    char *summary = malloc(WIDE * 3 + 1);
    assert_non_null(summary);
    for (size_t i = 0; i < WIDE; i++)
        memcpy(summary + 3 * i, "\xe6\x97\xa5", 3);
    summary[WIDE * 3] = '\0';
    struct one_report o;
    one_report_init(&o, "big.log", summary);
    o.d.title = (char *)"T";
    o.d.evidence_count = o.d.step_count = 0;
    struct od_report *reps[JOBS];
    for (size_t i = 0; i < JOBS; i++)
        reps[i] = &o.r;
    render(OD_FMT_MARKDOWN, 0, 0, reps, JOBS);
    size_t shown = occurrences(out, "## oomdiag: big.log\n"), n = chars(out);
    assert_true(n < MD_COMMENT_LIMIT);
    assert_true(out_len > MD_COMMENT_LIMIT); /* counted in characters: more bytes fit */
    assert_true(shown > 20 && shown < JOBS);
    char note[128];
    snprintf(note, sizeof note, "**%zu more jobs left out:** this report stays under %d characters", JOBS - shown,
             MD_COMMENT_LIMIT);
    assert_non_null(strstr(out, note));
    assert_non_null(strstr(out, "*oomdiag "));
    /* The footer counts every job, shown or not. */
    char foot[64];
    snprintf(foot, sizeof foot, ": %d jobs, %d root causes, 0 consequences.*\n", JOBS, JOBS);
    assert_non_null(strstr(out, foot));
    fields_free(&o.fields);
    free(summary);
}

int main(void)
{
#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)
    const struct CMUnitTest tests[] = {
        T(test_markdown_report),
        T(test_markdown_input_errors),
        T(test_markdown_text_is_inert),
        T(test_markdown_size_bound),
    };
#undef T
    return cmocka_run_group_tests(tests, NULL, NULL);
}
