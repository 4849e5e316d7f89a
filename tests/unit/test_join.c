/* Rejoining broken messages: the continuation rules and readings of
 * join.c, and the scan that holds a line back, joins it with what follows
 * and matches the best reading (or every line on its own). */
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
#include "join.h"

/* ---- join.c ------------------------------------------------------------------------- */

static int continues(const char *first, const char *next)
{
    struct join j;
    assert_int_equal(join_init(&j), 0);
    assert_int_equal(join_start(&j, first, strlen(first), 1, 0), 0);
    int c = join_continues(&j, next, strlen(next));
    join_free(&j);
    return c;
}

/* CONTINUES after a line longer than FIRST was seen: FIRST is no wrap's cut. */
static int continues_not_wrapped(const char *first, const char *next)
{
    struct join j;
    assert_int_equal(join_init(&j), 0);
    j.max_len = strlen(first) + 1;
    assert_int_equal(join_start(&j, first, strlen(first), 1, 0), 0);
    int c = join_continues(&j, next, strlen(next));
    join_free(&j);
    return c;
}

static void test_what_continues(void **state)
{
    (void)state;
    const char *l1 = "RuntimeError: CUDA out of memory. Tried to allocate 20.00 MiB. GPU 0 h";
    assert_true(continues(l1, "as a total capacity of 8.00 GiB of which 0 bytes is free."));
    assert_true(continues(l1, " GPU 0 has a total capacity"));     /* broke before a space */
    assert_true(continues(l1, "0 bytes free; 1.75 GiB reserved")); /* a number, not a stamp */
    assert_true(continues(l1, "is free: 3 MiB"));                  /* a colon after a word, not a label */
    /* A label: a record of its own, unless the line is as long as the
     * longest so far and the break cuts a word in two (a wrap at a width). */
    assert_false(continues_not_wrapped(l1, "memory: 3 MiB"));
    assert_true(continues(l1, "memory: 3 MiB"));
    assert_false(
        continues("RuntimeError: CUDA out of memory. Tried to allocate 20.00 MiB. GPU 0", "E1201 10:24:33.1 x"));
    assert_false(continues("oom-kill:constraint=CONSTRAINT_NONE,task=perl,pid=1440763,uid=21417",
                           "2024-04-29T14:55:41,679700+02:00 Out of memory: Killed process 1440763 (perl)"));
    assert_false(continues("Memory cgroup out of memory: Kill process 1557026 (stress) score 1957 or sacrifice child",
                           "Killed: process 1557026 (stress)"));
    /* A record of its own. */
    assert_true(continues(l1, "")); /* one blank line: a paste that doubled its line ends */
    assert_true(continues(l1, "   \t"));
    assert_false(continues_not_wrapped(l1, "2026-01-01 10:00:00,123 - INFO - as a total capacity"));
    assert_false(continues_not_wrapped(l1, "10:24:33 as a total capacity"));
    assert_false(continues_not_wrapped(l1, "12/01 as a total capacity"));
    assert_false(continues_not_wrapped(l1, "E1201 10:24:33.123456 1234 x.cc:1] as a total"));
    assert_false(continues_not_wrapped(l1, "[rank1]: as a total capacity"));
    assert_false(continues_not_wrapped(l1, "[W1129 10:11:12.345678 ProcessGroupNCCL.cpp:1] x"));
    assert_false(continues_not_wrapped(l1, "{\"step\": 12, \"loss\": 2.3}"));
    assert_true(continues(l1, "[128,225,225,3]")); /* a tensor shape the wrap put first */
    assert_true(continues(l1, "[16] and type float"));
    assert_false(continues_not_wrapped(l1, "  [2026-01-01 10:00:00] as a total"));
    assert_false(continues_not_wrapped(l1, "INFO: as a total capacity"));
    assert_false(continues_not_wrapped(l1, "torch.cuda.OutOfMemoryError: as a total"));
    assert_false(continues_not_wrapped(l1, "Traceback (most recent call last):"));
    assert_false(continues_not_wrapped(l1, "The above exception was the direct cause of the following exception:"));
}

static void test_two_blank_lines_end_it(void **state)
{
    (void)state;
    struct join j;
    char out[JOIN_MAX_BYTES + JOIN_MAX_LINES];
    assert_int_equal(join_init(&j), 0);
    assert_int_equal(join_start(&j, "out of memory.", 14, 1, 0), 0);
    assert_true(join_continues(&j, "", 0));
    join_add(&j, "", 0, 0, 0, 2, 0);
    assert_false(join_continues(&j, "", 0));
    assert_false(join_continues(&j, " \r", 2));
    assert_true(join_continues(&j, "Tried to allocate 2 MiB", 23));
    join_add(&j, "Tried to allocate 2 MiB", 23, 0, 0, 3, 0);
    size_t n = join_reading(&j, 3, 0, out); /* the blank line is left out */
    assert_memory_equal(out, "out of memory. Tried to allocate 2 MiB", n);
    assert_int_equal(n, 38);
    join_free(&j);
}

static void test_bounds(void **state)
{
    (void)state;
    struct join j;
    assert_int_equal(join_init(&j), 0);
    assert_int_equal(join_start(&j, "x", 1, 1, 0), 0);
    for (int i = 1; i < JOIN_MAX_LINES; i++) {
        assert_true(join_continues(&j, "more", 4));
        join_add(&j, "more", 4, 0, 0, (unsigned long long)i + 1, 0);
    }
    assert_int_equal(j.count, JOIN_MAX_LINES);
    assert_false(join_continues(&j, "more", 4)); /* no line left */
    /* No byte left: a first line longer than half the room is no start,
     * a next line that does not fit is no continuation. */
    char *big = malloc(JOIN_MAX_BYTES);
    assert_non_null(big);
    memset(big, 'a', JOIN_MAX_BYTES);
    assert_int_equal(join_start(&j, big, JOIN_MAX_BYTES / 2 + 1, 1, 0), -1);
    assert_false(join_active(&j));
    assert_int_equal(join_start(&j, big, JOIN_MAX_BYTES / 2, 1, 0), 0);
    assert_true(join_continues(&j, big, JOIN_MAX_BYTES / 2));
    assert_false(join_continues(&j, big, JOIN_MAX_BYTES / 2 + 1));
    free(big);
    join_free(&j);
}

static void test_readings(void **state)
{
    (void)state;
    struct join j;
    char out[JOIN_MAX_BYTES + JOIN_MAX_LINES];
    assert_int_equal(join_init(&j), 0);
    /* fold -w 24: every full line as long as the first, the last shorter. */
    const char *lines[] = {"out of memory. Tried to ", "allocate 2 MiB (GPU 1; 8", " MiB total; 1 MiB free)"};
    assert_int_equal(join_start(&j, lines[0], strlen(lines[0]), 7, 0), 0);
    join_add(&j, lines[1], strlen(lines[1]), 0, 0, 8, 0);
    join_add(&j, lines[2], strlen(lines[2]), 0, 0, 9, 0);
    assert_true(join_glued_holds(&j));
    size_t n = join_reading(&j, 3, 1, out);
    assert_int_equal(n, strlen("out of memory. Tried to allocate 2 MiB (GPU 1; 8 MiB total; 1 MiB free)"));
    assert_memory_equal(out, "out of memory. Tried to allocate 2 MiB (GPU 1; 8 MiB total; 1 MiB free)", n);
    n = join_reading(&j, 2, 0, out);
    assert_memory_equal(out, "out of memory. Tried to allocate 2 MiB (GPU 1; 8", n);
    /* A paste that broke at spaces and lost them. */
    assert_int_equal(join_start(&j, "out of memory. Tried to  ", 25, 1, 0), 0);
    join_add(&j, "  allocate 2 MiB", 16, 0, 0, 2, 0);
    n = join_reading(&j, 2, 0, out);
    assert_memory_equal(out, "out of memory. Tried to allocate 2 MiB", n);
    /* A shorter line ends the glued reading: the next line cannot glue on. */
    assert_int_equal(join_start(&j, "out of memory. Tried to ", 24, 1, 0), 0);
    join_add(&j, "allocate", 8, 0, 0, 2, 0);
    assert_true(join_glued_holds(&j));
    join_add(&j, " 2 MiB", 6, 0, 0, 3, 0);
    assert_false(join_glued_holds(&j));
    /* A prefix put on every line after the wrap: readings leave the
     * continuations' out, widths do not count it. */
    assert_int_equal(join_start(&j, "> out of memory. Tried to ", 26, 1, 0), 0);
    join_add(&j, "> allocate 2 MiB (GPU 1; 8", 26, 2, 2, 2, 0);
    join_add(&j, "> > MiB total", 13, 2, 2, 3, 0);
    assert_true(join_glued_holds(&j));
    n = join_reading(&j, 3, 1, out);
    assert_memory_equal(out, "> out of memory. Tried to allocate 2 MiB (GPU 1; 8> MiB total", n);
    /* A first line shorter than any wrap width is not glued at all. */
    assert_int_equal(join_start(&j, "out of memory.", 14, 1, 0), 0);
    assert_false(join_glued_holds(&j));
    join_free(&j);
}

/* ---- the scan ----------------------------------------------------------------------- */

static struct od_ruleset *rs;
static struct od_job *job;
static struct msgs msgs;

static int setup(void **state)
{
    (void)state;
    char path[512];
    size_t len;
    snprintf(path, sizeof path, "%s/matcher/specific.json", TEST_DATA);
    char *text = read_whole_file(path, &len);
    memset(&msgs, 0, sizeof msgs);
    rs = od_ruleset_create(collect_msg, &msgs);
    int rc = od_ruleset_add_buffer(rs, "specific.json", text, len);
    free(text);
    if (rc != 0 || od_ruleset_finish(rs) != 0)
        return -1;
    job = od_job_create(rs, NULL, collect_msg, &msgs);
    return job ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    od_job_free(job);
    od_ruleset_free(rs);
    return 0;
}

static void scan(const char *text)
{
    od_job_reset(job);
    int fd = pipe_with(text, strlen(text));
    assert_int_equal(od_job_add_fd(job, fd, "-"), 0);
    close(fd);
}

/* The finding of signature ID, or NULL. */
static const struct finding *finding(const char *id)
{
    for (size_t i = 0; i < job->finding_count; i++)
        if (strcmp(job->findings[i].sig->id, id) == 0)
            return &job->findings[i];
    return NULL;
}

static long long num(const struct finding *f, const char *name)
{
    const struct od_field *x = fields_get(&f->fields, name);
    return x ? x->num : -1;
}

static void test_fold_is_rejoined(void **state)
{
    (void)state;
    /* fold -w 24 of one message, then an unrelated line. */
    scan("start\nout of memory. Tried to \nallocate 2 MiB (GPU 1; 8\n MiB total; 1 MiB free)\nfailed: code 9\n");
    const struct finding *f = finding("detailed");
    assert_non_null(f);
    assert_int_equal(f->line, 2);
    assert_int_equal(num(f, "free_bytes"), 1048576);
    assert_int_equal(num(f, "device"), 1);
    assert_null(finding("headline"));
    /* The line after the message is matched on its own, after it. */
    const struct finding *g = finding("exact");
    assert_non_null(g);
    assert_int_equal(g->line, 5);
    assert_true(g->seq > f->seq);
    assert_int_equal(job->inputs[0].lines, 5);
}

static void test_spaced_and_crlf(void **state)
{
    (void)state;
    scan("out of memory. Tried to allocate 2 MiB\r\n(GPU 1; 8 MiB total;\r\n1 MiB free)\r\n");
    const struct finding *f = finding("detailed");
    assert_non_null(f);
    assert_int_equal(f->line, 1);
    assert_int_equal(num(f, "total_bytes"), 8388608);
}

static void test_cut_line_at_the_end(void **state)
{
    (void)state;
    scan("out of memory. Tried to allocate 2 MiB (GPU 3;");
    const struct finding *f = finding("headline");
    assert_non_null(f);
    assert_int_equal(num(f, "device"), 3);
    assert_int_equal(job->finding_count, 3); /* with the hint and the other cause */
}

static void test_no_join_across_a_new_record(void **state)
{
    (void)state;
    /* The next line is a message of its own (it holds the headline): each
     * keeps its own numbers and line. */
    scan("out of memory. Tried to allocate 2 MiB (GPU 3;\n"
         "out of memory. Tried to allocate 4 MiB (GPU 1; 8 MiB total; 1 MiB free)\n");
    const struct finding *h = finding("headline"), *d = finding("detailed");
    assert_non_null(h);
    assert_non_null(d);
    assert_int_equal(h->line, 1);
    assert_int_equal(num(h, "device"), 3);
    assert_int_equal(d->line, 2);
    assert_int_equal(num(d, "requested_bytes"), 4194304);
    /* A time-stamped record after the cut line is not glued on. */
    scan("out of memory. Tried to allocate 2 MiB (GPU 3;\n"
         "2026-01-01 10:00:00 8 MiB total; 1 MiB free)\n");
    assert_null(finding("detailed"));
    assert_int_equal(num(finding("headline"), "device"), 3);
}

static void test_doubled_line_ends(void **state)
{
    (void)state;
    scan("out of memory.\n\nTried to allocate 2 MiB (GPU 1; 8 MiB total; 1 MiB free)\n\nnext\n");
    const struct finding *f = finding("detailed");
    assert_non_null(f);
    assert_int_equal(f->line, 1);
    assert_int_equal(num(f, "free_bytes"), 1048576);
    /* Two blank lines end it. */
    scan("out of memory.\n\n\nTried to allocate 2 MiB (GPU 1; 8 MiB total; 1 MiB free)\n");
    assert_null(finding("detailed"));
    assert_non_null(finding("headline"));
}

static void test_literal_cut_by_the_wrap(void **state)
{
    (void)state;
    /* fold -w 24: the headline literal itself is cut in two. */
    scan("a line before it\n"
         "the job said: out of mem\n"
         "ory. Tried to allocate 2\n"
         " MiB (GPU 1; 8 MiB total\n"
         "; 1 MiB free)\n");
    const struct finding *f = finding("detailed");
    assert_non_null(f);
    assert_int_equal(f->line, 2);
    assert_int_equal(num(f, "free_bytes"), 1048576);
    assert_int_equal(job->finding_count, 3); /* with the hint and the other cause, once each */
    /* A line that is a record of its own does not complete the literal. */
    scan("the job said: out of mem\n2026-01-01 10:00:00 ory. Tried to allocate 2 MiB\n");
    assert_int_equal(job->finding_count, 0);
    /* A prefix put on every line after the wrap (a quote) is no part of it. */
    scan("> a line before it\n"
         "> the job said: out of mem\n"
         "> ory. Tried to allocate 2\n"
         ">  MiB (GPU 1; 8 MiB total\n"
         "> ; 1 MiB free)\n");
    f = finding("detailed");
    assert_non_null(f);
    assert_int_equal(f->line, 2);
    assert_int_equal(num(f, "free_bytes"), 1048576);
    /* Nor does a line shorter than the longest before it (no fixed width). */
    scan("a much longer line than the next one is\nthe job said: out of mem\nory. Tried to allocate 2 MiB\n");
    assert_int_equal(job->finding_count, 0);
}

static void test_wrap_run_before_the_held_line(void **state)
{
    (void)state;
    /* fold -w 24: the literal is on the last piece, the start of the
     * message on the pieces before it (which told nothing on their own). */
    scan("short line\n"
         "here: the container trai\n"
         "ner_with_a_long_name_x d\n"
         "ied of OOM now\n");
    const struct finding *f = finding("died");
    assert_non_null(f);
    assert_int_equal(f->line, 2);
    assert_string_equal(fields_get(&f->fields, "name")->str, "trainer_with_a_long_name_x");
    /* Not after a shorter line (no fixed width), nor when the line looks
     * like a record of its own. */
    scan("a much longer line than the next one is\nhere: the container trai\nner died of OOM now\n");
    assert_null(finding("died"));
    scan("here: the container trai\n2026-01-01 10:00:00 ner died of OOM\n");
    assert_null(finding("died"));
}

static void test_held_lines_are_matched_when_no_join_helps(void **state)
{
    (void)state;
    /* Held as possible continuations, then matched on their own. */
    scan("out of memory\nfailed: code 4\na needle\n");
    assert_non_null(finding("headline"));
    const struct finding *e = finding("exact"), *n = finding("short");
    assert_non_null(e);
    assert_int_equal(e->line, 2);
    assert_non_null(n);
    assert_int_equal(n->line, 3);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_what_continues),
        cmocka_unit_test(test_two_blank_lines_end_it),
        cmocka_unit_test(test_bounds),
        cmocka_unit_test(test_readings),
        cmocka_unit_test_setup_teardown(test_fold_is_rejoined, setup, teardown),
        cmocka_unit_test_setup_teardown(test_spaced_and_crlf, setup, teardown),
        cmocka_unit_test_setup_teardown(test_cut_line_at_the_end, setup, teardown),
        cmocka_unit_test_setup_teardown(test_no_join_across_a_new_record, setup, teardown),
        cmocka_unit_test_setup_teardown(test_doubled_line_ends, setup, teardown),
        cmocka_unit_test_setup_teardown(test_literal_cut_by_the_wrap, setup, teardown),
        cmocka_unit_test_setup_teardown(test_held_lines_are_matched_when_no_join_helps, setup, teardown),
        cmocka_unit_test_setup_teardown(test_wrap_run_before_the_held_line, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
