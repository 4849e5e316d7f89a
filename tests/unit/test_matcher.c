/* The matcher: literal prefilter, PCRE2 confirmation, typed fields, the
 * backtracking guard, rank sources, the most specific signature of a cause
 * and role, lines that want a join. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "fields.h"
#include "helpers.h"
#include "matcher.h"
#include "ruleset.h"

static struct od_ruleset *rs;
static struct matcher *m;
static struct msgs msgs;
static struct msg_sink sink;

/* What the hit callback saw for one line. */
struct hits {
    int count;
    const char *ids[8];
    struct od_fields fields[8];
};
static struct hits hits;

static void clear_hits(void)
{
    for (int i = 0; i < hits.count && i < 8; i++)
        fields_free(&hits.fields[i]);
    memset(&hits, 0, sizeof hits);
}

static void on_hit(struct hits *h, const struct sig *sig, const struct od_fields *fields)
{
    if (h->count < 8) {
        h->ids[h->count] = sig->id;
        assert_int_equal(fields_copy(&h->fields[h->count], fields), 0);
    }
    h->count++;
}

/* The result of the last line read through `feed`. */
static const struct matcher_result *last;

/* Reads LINE (LEN bytes) under FLAGS, its matches into `hits` (appended);
 * returns how many it reported, or -2 when it held the line. */
static int feed(const char *line, size_t len, int flags)
{
    last = matcher_line(m, line, len, flags);
    for (size_t i = 0; i < last->hit_count; i++)
        on_hit(&hits, last->hits[i].sig, last->hits[i].fields);
    return last->held ? -2 : (int)last->hit_count;
}

/* Loads DATA/matcher/NAME through a buffer, as the built-in rules are. */
static int setup_with(const char *name)
{
    char path[512];
    size_t len;
    snprintf(path, sizeof path, "%s/matcher/%s", TEST_DATA, name);
    char *text = read_whole_file(path, &len);
    memset(&msgs, 0, sizeof msgs);
    rs = od_ruleset_create(collect_msg, &msgs);
    int rc = od_ruleset_add_buffer(rs, name, text, len);
    free(text);
    if (rc != 0 || od_ruleset_finish(rs) != 0) {
        dump_msgs(&msgs);
        return -1;
    }
    sink = (struct msg_sink){collect_msg, &msgs, 0, 0};
    m = matcher_create(rs, &sink);
    memset(&hits, 0, sizeof hits);
    return m ? 0 : -1;
}

static int setup(void **state)
{
    (void)state;
    return setup_with("rules.json");
}

static int setup_evil(void **state)
{
    (void)state;
    return setup_with("evil.json");
}

static int teardown(void **state)
{
    (void)state;
    clear_hits();
    matcher_free(m);
    od_ruleset_free(rs);
    m = NULL;
    rs = NULL;
    return 0;
}

/* Runs LINE; returns matcher_line's result, the hits are in `hits`. */
static int run(const char *line)
{
    clear_hits();
    int n = feed(line, strlen(line), 0);
    assert_int_equal(n, hits.count);
    return n;
}

static const struct od_field *field(int hit, const char *name)
{
    return fields_get(&hits.fields[hit], name);
}

static void assert_num(int hit, const char *name, enum od_field_type type, long long v)
{
    const struct od_field *f = field(hit, name);
    if (f == NULL)
        fail_msg("field %s is missing", name);
    assert_int_equal(f->type, type);
    assert_int_equal(f->num, v);
}

static void assert_str(int hit, const char *name, const char *v)
{
    const struct od_field *f = field(hit, name);
    if (f == NULL)
        fail_msg("field %s is missing", name);
    assert_int_equal(f->type, OD_FIELD_STRING);
    assert_string_equal(f->str, v);
}

/* ---- prefilter and confirmation --------------------------------------------------- */

static void test_literal_and_regex(void **state)
{
    (void)state;
    assert_int_equal(run("[rank0]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB "
                         "(GPU 0; 79.15 GiB total)"),
                     1);
    assert_string_equal(hits.ids[0], "oom");
    assert_int_equal(hits.fields[0].count, 3);
    assert_num(0, "requested_bytes", OD_FIELD_BYTES, 2147483648LL);
    assert_num(0, "device", OD_FIELD_INT, 0);
    assert_num(0, "total_bytes", OD_FIELD_BYTES, 84986665370LL);
    assert_null(field(0, "who")); /* its group did not take part */
}

static void test_fields_do_not_leak_between_lines(void **state)
{
    (void)state;
    assert_int_equal(run("out of memory. Tried to allocate 512.00 MiB (GPU 7; 16.00 GiB total) by alice"), 1);
    assert_str(0, "who", "alice");
    assert_num(0, "device", OD_FIELD_INT, 7);
    assert_num(0, "requested_bytes", OD_FIELD_BYTES, 536870912LL);
    assert_int_equal(run("out of memory. Tried to allocate 1.00 KiB (GPU 1; 2.00 GiB total)"), 1);
    assert_null(field(0, "who"));
    assert_num(0, "requested_bytes", OD_FIELD_BYTES, 1024);
}

static void test_no_literal_no_hit(void **state)
{
    (void)state;
    assert_int_equal(run("step 10 loss 2.3"), 0);
    assert_int_equal(run(""), 0);
    assert_int_equal(run("x"), 0);
    assert_int_equal(run("out of memor"), 0);
    assert_int_equal(run("OUT OF MEMORY. Tried to allocate 2.00 GiB (GPU 0; 1.00 GiB total)"), 0); /* case matters */
}

static void test_literal_without_regex_match(void **state)
{
    (void)state;
    assert_int_equal(run("the allocator ran out of memory somewhere"), 0);
    assert_int_equal(run("first needle, second needle"), 0);
}

static void test_caseless_signature(void **state)
{
    (void)state;
    static const struct {
        const char *line;
        long long device;
    } cases[] = {
        {"DEVICE LOST ON GPU3", 3},
        {"device lost on gpu7", 7},
        {"DeViCe LoSt On GpU12", 12},
        {"xid: Device Lost on Gpu0 (fatal)", 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        assert_int_equal(run(cases[i].line), 1);
        assert_string_equal(hits.ids[0], "lost");
        assert_num(0, "device", OD_FIELD_INT, cases[i].device);
    }
    assert_int_equal(run("device  lost on gpu3"), 0);
}

static void test_literal_at_every_alignment(void **state)
{
    (void)state;
    /* The scan looks at every 4th window: a literal must be found wherever
     * it starts, including the very start and the very end of the line. */
    char line[64];
    for (int pad = 0; pad < 9; pad++) {
        snprintf(line, sizeof line, "%*sfirst needle %d", pad, "", pad);
        assert_int_equal(run(line), 1);
        assert_string_equal(hits.ids[0], "needles");
        assert_num(0, "n", OD_FIELD_INT, pad);
        snprintf(line, sizeof line, "%*ssecond needle -%d", pad, "", pad + 1);
        assert_int_equal(run(line), 1);
        assert_num(0, "n", OD_FIELD_INT, -(pad + 1));
    }
}

static void test_line_with_nul_bytes(void **state)
{
    (void)state;
    static const char line[] = "\0\0 garbage \0 first needle 9 \0";
    clear_hits();
    assert_int_equal(feed(line, sizeof line - 1, 0), 1);
    assert_num(0, "n", OD_FIELD_INT, 9);
}

static void test_two_signatures_on_one_line(void **state)
{
    (void)state;
    assert_int_equal(run("first needle 3; out of memory. Tried to allocate 1.00 GiB (GPU 1; 2.00 GiB total)"), 2);
    int oom = strcmp(hits.ids[0], "oom") == 0 ? 0 : 1;
    assert_string_equal(hits.ids[oom], "oom");
    assert_string_equal(hits.ids[1 - oom], "needles");
    assert_num(1 - oom, "n", OD_FIELD_INT, 3);
    assert_num(oom, "device", OD_FIELD_INT, 1);
    assert_null(field(oom, "n"));
    /* A signature with two literals on the line still runs once. */
    assert_int_equal(run("first needle 1 second needle 2"), 1);
    assert_num(0, "n", OD_FIELD_INT, 1);
}

static void test_result_lives_until_the_next_line(void **state)
{
    (void)state;
    const char *line = "first needle 3; out of memory. Tried to allocate 1.00 GiB (GPU 1; 2.00 GiB total)";
    const struct matcher_result *r = matcher_line(m, line, strlen(line), 0);
    assert_int_equal(r->hit_count, 2);
    assert_true(r->plain);
    assert_false(r->held);
    assert_non_null(fields_get(r->hits[0].fields, "n") != NULL ? r->hits[0].fields : r->hits[1].fields);
    r = matcher_line(m, "nothing here", 12, 0);
    assert_int_equal(r->hit_count, 0);
    assert_true(r->plain);
}

/* ---- fields ---------------------------------------------------------------------------- */

static void test_field_types(void **state)
{
    (void)state;
    assert_int_equal(run("memory stats: free=1,073,741,824 bytes; bad=12 parsecs; code=0x1f; rank=-3"), 1);
    assert_num(0, "free_bytes", OD_FIELD_BYTES, 1073741824LL);
    assert_null(field(0, "bad_bytes")); /* not a size: left out, not guessed */
    assert_str(0, "code", "0x1f");
    assert_num(0, "rank", OD_FIELD_INT, -3);
    assert_int_equal(hits.fields[0].count, 3);

    assert_int_equal(run("memory stats: free=216.8KiB; bad=0 bytes; code=00042; rank=+7"), 1);
    assert_num(0, "free_bytes", OD_FIELD_BYTES, 222003);
    assert_num(0, "bad_bytes", OD_FIELD_BYTES, 0);
    assert_num(0, "code", OD_FIELD_INT, 42);
    assert_num(0, "rank", OD_FIELD_INT, 7);

    /* Too big for a 64-bit integer: kept as text. */
    assert_int_equal(run("memory stats: free=4096kB; bad=1; code=99999999999999999999; rank=-"), 1);
    assert_num(0, "free_bytes", OD_FIELD_BYTES, 4194304);
    assert_num(0, "bad_bytes", OD_FIELD_BYTES, 1);
    assert_str(0, "code", "99999999999999999999");
    assert_str(0, "rank", "-");
}

static void test_string_fields_are_safe_text(void **state)
{
    (void)state;
    /* Captures reach summaries and JSON: control bytes go, bad UTF-8 is
     * replaced. */
    assert_int_equal(run("memory stats: free=1 GiB; bad=x; code=a\x07"
                         "b\x08"
                         "c\xff"
                         "d\tz; rank=0"),
                     1);
    assert_str(0, "code",
               "abc\xef\xbf\xbd"
               "d z");
}

static void test_shape_and_dtype(void **state)
{
    (void)state;
    assert_int_equal(run("allocating tensor with shape[32,1024,1024] and type float32"), 1);
    assert_str(0, "shape", "[32,1024,1024]");
    assert_str(0, "dtype", "float32");
    assert_num(0, "requested_bytes", OD_FIELD_BYTES, 32LL * 1024 * 1024 * 4);
    assert_int_equal(run("allocating tensor with shape[8,1000] and type bfloat16"), 1);
    assert_num(0, "requested_bytes", OD_FIELD_BYTES, 16000);
    assert_int_equal(run("allocating tensor with shape[8,1000] and type int4"), 1);
    assert_null(field(0, "requested_bytes")); /* no such dtype in the table */
    assert_int_equal(run("allocating tensor with shape[9999999999,9999999999,9999999999] and type float32"), 1);
    assert_null(field(0, "requested_bytes")); /* overflow: nothing, not a wrapped number */
    assert_int_equal(run("allocating tensor with shape[3000000000,1000000000] and type float32"), 1);
    assert_null(field(0, "requested_bytes")); /* 3e18 elements fit, 1.2e19 bytes do not */
    assert_int_equal(run("allocating tensor with shape[3000000000,1000000000] and type bfloat16"), 1);
    assert_num(0, "requested_bytes", OD_FIELD_BYTES, 6000000000000000000LL);
}

/* ---- rank sources ------------------------------------------------------------------------- */

static void test_rank_sources(void **state)
{
    (void)state;
    const struct rank_source *line_src = rs->ranks[0], *path_src = rs->ranks[1];
    assert_string_equal(line_src->id, "rank-line");
    assert_int_equal(matcher_rank(m, line_src, "[rank3]: boom", 13), 3);
    assert_int_equal(matcher_rank(m, line_src, "[rank12]:[E] x", 14), 12);
    assert_int_equal(matcher_rank(m, line_src, "boom [rank3]", 12), -1); /* anchored */
    assert_int_equal(matcher_rank(m, line_src, "[rank999999]", 12), 999999);
    assert_int_equal(matcher_rank(m, line_src, "[rank1000000]", 13), -1); /* out of range */
    assert_int_equal(matcher_rank(m, path_src, "logs/rank12.log", 15), 12);
    assert_int_equal(matcher_rank(m, path_src, "logs/rank12.log.gz", 18), -1);
    assert_int_equal(matcher_rank(m, path_src, "rank0.log", 9), 0);
}

/* ---- line prefixes ------------------------------------------------------------------ */

static void test_line_prefixes(void **state)
{
    (void)state;
    const struct line_prefix *which = NULL;
    assert_int_equal(matcher_prefix(m, "> x", 3, &which), 2);
    assert_string_equal(which->id, "quote");
    assert_int_equal(matcher_prefix(m, "12:00:00 > x", 12, &which), 9);
    assert_string_equal(which->id, "clock");
    assert_int_equal(matcher_prefix(m, "> ", 2, NULL), 2); /* the whole line */
    assert_int_equal(matcher_prefix(m, "x > y", 5, NULL), 0);
    /* An anchored pattern finds the program's text behind prefixes, one
     * after the other; the fields are those of the rest. */
    assert_int_equal(run("Process killed"), 1);
    assert_int_equal(run("> Process killed"), 1);
    assert_string_equal(hits.ids[0], "bare-kill");
    assert_int_equal(run("12:00:00 > Process killed"), 1);
    assert_int_equal(run("12:00:00 >> Process killed"), 1); /* "> " then ">": both are the quote */
    assert_int_equal(run("it said: Process killed"), 0);
    assert_int_equal(last->near_miss_count, 1);
    assert_int_equal(run("> 12:00:00 Process killed"), 1);
    assert_int_equal(last->near_miss_count, 0);
    assert_int_equal(run("> CUDA out of memory. Tried to allocate 2.00 GiB (GPU 1; 79.15 GiB total)"), 1);
    assert_num(0, "device", OD_FIELD_INT, 1);
}

/* ---- the backtracking guard ---------------------------------------------------------------- */

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void test_catastrophic_backtracking(void **state)
{
    (void)state;
    const char *evil = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaab";
    const struct sig *sig = ruleset_sig(rs, "evil");
    assert_non_null(sig);
    assert_int_equal(run("aaaa"), 1); /* an ordinary line matches */
    assert_string_equal(hits.ids[0], "evil");

    double t0 = now();
    for (int i = 1; i <= 3; i++) {
        assert_int_equal(run(evil), 0);
        assert_int_equal(msgs.count, i < 3 ? 0 : 1);
    }
    assert_true(now() - t0 < 10.0);
    assert_msg(&msgs, 0, OD_SEV_WARNING, "evil.json", 12, 7,
               "signature \"evil\" disabled: its pattern hit PCRE2's backtracking limit 3 times");
    assert_false(msgs.items[0].has_source);

    /* Disabled: silent from now on, even on lines it would match. */
    assert_int_equal(run(evil), 0);
    assert_int_equal(run("aaaa"), 0);
    assert_int_equal(msgs.count, 1);
}

static void test_short_caseless_literal(void **state)
{
    (void)state;
    /* A 3-byte literal: windows of 3 bytes at every position. */
    assert_int_equal(run("Oom at 5"), 1);
    assert_string_equal(hits.ids[0], "short");
    assert_num(0, "n", OD_FIELD_INT, 5);
    assert_int_equal(run("gpu: oOm at 17"), 1);
    assert_num(0, "n", OD_FIELD_INT, 17);
    assert_int_equal(run("OO M at 5"), 0);
}

static void test_skip_progress_flag(void **state)
{
    (void)state;
    static const char rules[] =
        "{\"oomdiag_rules\": 1, \"signatures\": [{\"id\": \"p\", \"role\": \"progress\", \"literal\": \"step \", "
        "\"pattern\": \"^step (?<step>\\\\d+)\", \"samples\": {\"match\": [\"step 1\"]}}]}";
    memset(&msgs, 0, sizeof msgs);
    rs = od_ruleset_create(collect_msg, &msgs);
    assert_int_equal(od_ruleset_add_buffer(rs, "p.json", rules, sizeof rules - 1), 0);
    assert_int_equal(od_ruleset_finish(rs), 0);
    sink = (struct msg_sink){collect_msg, &msgs, 0, 0};
    m = matcher_create(rs, &sink);
    assert_non_null(m);
    assert_int_equal(feed("step 4", 6, 0), 1);
    assert_num(0, "step", OD_FIELD_INT, 4);
    clear_hits();
    assert_int_equal(feed("step 4", 6, MATCHER_SKIP_PROGRESS), 0);
}

/* ---- the most specific signature of a cause ------------------------------------------ */

static int setup_specific(void **state)
{
    (void)state;
    return setup_with("specific.json");
}

static int has_hit(const char *id)
{
    for (int i = 0; i < hits.count && i < 8; i++)
        if (strcmp(hits.ids[i], id) == 0)
            return i;
    return -1;
}

static void test_most_specific_wins(void **state)
{
    (void)state;
    /* The whole message: the detailed signature gives the evidence, the
     * headline of the same cause and role adds nothing; a hint of the same
     * cause and a root of another cause still count. */
    assert_int_equal(run("out of memory. Tried to allocate 2 MiB (GPU 1; 8 MiB total; 1 MiB free)"), 3);
    int d = has_hit("detailed");
    assert_true(d >= 0);
    assert_int_equal(has_hit("headline"), -1);
    assert_true(has_hit("hint-same-cause") >= 0);
    assert_true(has_hit("other-cause") >= 0);
    assert_num(d, "free_bytes", OD_FIELD_BYTES, 1048576);
    /* With MATCHER_ALL_HITS every match is reported. */
    clear_hits();
    const char *line = "out of memory. Tried to allocate 2 MiB (GPU 1; 8 MiB total; 1 MiB free)";
    assert_int_equal(feed(line, strlen(line), MATCHER_ALL_HITS), 4);
}

static void test_cut_line_keeps_its_fields(void **state)
{
    (void)state;
    /* Cut after the device: the detailed pattern fails, the headline keeps
     * what the line still shows. */
    assert_int_equal(run("out of memory. Tried to allocate 2 MiB (GPU 3;"), 3);
    int h = has_hit("headline");
    assert_true(h >= 0);
    assert_num(h, "requested_bytes", OD_FIELD_BYTES, 2097152);
    assert_num(h, "device", OD_FIELD_INT, 3);
    assert_int_equal(has_hit("detailed"), -1);
}

static void test_numbers_beat_a_catch_all(void **state)
{
    (void)state;
    /* Both capture one field; the one that parsed a number wins although
     * the catch-all's match is longer. */
    assert_int_equal(run("failed: code 7 and then some"), 1);
    assert_string_equal(hits.ids[0], "exact");
    assert_int_equal(run("failed: something else"), 1);
    assert_string_equal(hits.ids[0], "catch-all");
}

static void test_longer_match_breaks_a_tie(void **state)
{
    (void)state;
    assert_int_equal(run("a needle in a haystack"), 1);
    assert_string_equal(hits.ids[0], "long");
    assert_int_equal(run("a needle, no hay"), 1);
    assert_string_equal(hits.ids[0], "short");
}

static size_t wants(const char *line)
{
    clear_hits();
    feed(line, strlen(line), 0);
    return last->want_count;
}

static void test_wants_join(void **state)
{
    (void)state;
    /* The headline matched but a signature that could tell more did not:
     * the rest of the message may be on the next lines. */
    assert_int_equal(wants("out of memory. Tried to allocate 2 MiB (GPU 3;"), 1);
    const struct matcher_want *w = last->want;
    assert_int_equal(last->want_count, 1);
    assert_string_equal(w[0].cause->id, "c");
    assert_int_equal(w[0].role, OD_ROLE_ROOT);
    assert_int_equal(last->want_score, 3); /* the headline's two fields, plus one */
    /* The whole message, or a line without the literal: nothing wanted. */
    assert_int_equal(wants("out of memory. Tried to allocate 2 MiB (GPU 1; 8 MiB total; 1 MiB free)"), 0);
    assert_int_equal(wants("all is well"), 0);
    /* A failed signature that can tell no more than the match: nothing. */
    assert_int_equal(wants("failed: something else"), 0);
    /* Nothing failed, but the match's own groups did not all take part:
     * the line may have been cut before them. */
    assert_int_equal(wants("lonely"), 1);
    assert_int_equal(wants("lonely 3"), 0);
    /* MATCHER_HOLD: a line that wants a join reports nothing. */
    clear_hits();
    const char *line = "out of memory. Tried to allocate 2 MiB";
    assert_int_equal(feed(line, strlen(line), MATCHER_HOLD), -2);
    assert_int_equal(hits.count, 0);
    line = "out of memory. Tried to allocate 2 MiB (GPU 1; 8 MiB total; 1 MiB free)";
    assert_int_equal(feed(line, strlen(line), MATCHER_HOLD), 3);
}

static void test_literal_of_wanted(void **state)
{
    (void)state;
    struct matcher_want w[MATCHER_WANT_MAX];
    wants("out of memory");
    size_t n = last->want_count;
    memcpy(w, last->want, n * sizeof *w);
    assert_int_equal(n, 1);
    assert_int_equal(matcher_has_literal_of(m, "again out of memory here", 24, w, n), 1);
    assert_int_equal(matcher_has_literal_of(m, "a needle", 8, w, n), 1); /* same cause and role */
    assert_int_equal(matcher_has_literal_of(m, "8 MiB total; 1 MiB free)", 24, w, n), 0);
}

int main(void)
{
#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)
    const struct CMUnitTest tests[] = {
        T(test_literal_and_regex),
        T(test_fields_do_not_leak_between_lines),
        T(test_no_literal_no_hit),
        T(test_literal_without_regex_match),
        T(test_caseless_signature),
        T(test_literal_at_every_alignment),
        T(test_line_with_nul_bytes),
        T(test_two_signatures_on_one_line),
        T(test_result_lives_until_the_next_line),
        T(test_field_types),
        T(test_string_fields_are_safe_text),
        T(test_shape_and_dtype),
        T(test_rank_sources),
        T(test_line_prefixes),
        cmocka_unit_test_setup_teardown(test_catastrophic_backtracking, setup_evil, teardown),
        cmocka_unit_test_setup_teardown(test_short_caseless_literal, setup_evil, teardown),
        cmocka_unit_test_teardown(test_skip_progress_flag, teardown),
        cmocka_unit_test_setup_teardown(test_most_specific_wins, setup_specific, teardown),
        cmocka_unit_test_setup_teardown(test_cut_line_keeps_its_fields, setup_specific, teardown),
        cmocka_unit_test_setup_teardown(test_numbers_beat_a_catch_all, setup_specific, teardown),
        cmocka_unit_test_setup_teardown(test_longer_match_breaks_a_tie, setup_specific, teardown),
        cmocka_unit_test_setup_teardown(test_wants_join, setup_specific, teardown),
        cmocka_unit_test_setup_teardown(test_literal_of_wanted, setup_specific, teardown),
    };
#undef T
    return cmocka_run_group_tests(tests, NULL, NULL);
}
