/* Pattern fragments: what a pattern is expanded to, that the fragments'
 * groups are not captures, where errors point, and what a rule file may
 * not write. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "fragments.h"
#include "helpers.h"
#include "regex.h"
#include "ruleset.h"

static struct fragments parse_ok(const char *json)
{
    struct fragments fr = {0};
    cJSON *obj = cJSON_Parse(json);
    assert_non_null(obj);
    assert_int_equal(fragments_parse(&fr, obj, 1, NULL, NULL), 0);
    cJSON_Delete(obj);
    return fr;
}

static char reported[512];

static void keep_report(void *ctx, int warning, const char *path, const char *source, size_t caret, const char *msg)
{
    (void)ctx;
    snprintf(reported, sizeof reported, "%s%s: %s [%s^%zu]", warning ? "warning " : "", path, msg, source ? source : "",
             caret);
}

/* S expands to TEXT with HIDDEN definitions, and sig_compile compiles it
 * (leaving S as it was). */
static void assert_expands(struct od_ruleset *rs, const struct sig *s, const char *text, unsigned hidden)
{
    struct expansion x;
    assert_int_equal(fragments_expand(s->frags, s->pattern, &x), 0);
    assert_string_equal(x.text, text);
    assert_int_equal(x.hidden, hidden);
    expansion_free(&x);
    struct rx *rx = sig_compile(s, &rs->msgs);
    assert_non_null(rx);
    rx_free(rx);
    assert_null(s->expanded.text);
}

static void test_only_called_fragments_and_theirs(void **state)
{
    (void)state;
    struct fragments fr = parse_ok("{\"num\": \"\\\\d+\", \"size\": \"(?&num) ?[KMG]iB\", \"other\": \"x\"}");
    struct expansion x;
    assert_int_equal(fragments_expand(&fr, "(*UTF)asked (?<req_bytes>(?&size))", &x), 0);
    assert_string_equal(x.text, "(*UTF)(?(DEFINE)(?<num>\\d+)(?<size>(?&num) ?[KMG]iB))asked (?<req_bytes>(?&size))");
    assert_int_equal(x.hidden, 2);
    assert_int_equal(x.verbs, 6);
    assert_false(fr.v[0].used || fr.v[1].used || fr.v[2].used); /* expanding changes no fragment */
    fragments_mark_used(&fr, "(*UTF)asked (?<req_bytes>(?&size))");
    assert_true(fr.v[0].used && fr.v[1].used && !fr.v[2].used);
    expansion_free(&x);
    fragments_free(&fr);
}

static void test_no_call_no_expansion(void **state)
{
    (void)state;
    struct fragments fr = parse_ok("{\"size\": \"\\\\d+B\"}");
    struct expansion x;
    /* escaped, in a class, in \Q...\E, or a group of the pattern's own */
    assert_int_equal(fragments_expand(&fr, "a\\(?&size) [(?&size)] \\Q(?&size)\\E (?&mine)(?<mine>b)", &x), 0);
    assert_null(x.text);
    fragments_mark_used(&fr, "a\\(?&size) [(?&size)] \\Q(?&size)\\E (?&mine)(?<mine>b)");
    assert_false(fr.v[0].used);
    fragments_free(&fr);
}

/* The fragments' groups are no captures: names and values are the pattern's own. */
static int add_capture(void *ctx, const char *name, const char *value, size_t len)
{
    char *out = ctx;
    size_t n = strlen(out);
    snprintf(out + n, 256 - n, "%s=%.*s;", name, (int)len, value);
    return 0;
}

static void test_fragment_groups_hidden(void **state)
{
    (void)state;
    struct fragments fr = parse_ok("{\"size\": \"\\\\d+(?:\\\\.\\\\d+)? ?(?:bytes|[KMG]iB)\"}");
    struct expansion x;
    char err[256], got[256] = "";
    size_t off = 0;
    const char *pat = "allocate (?<requested_bytes>(?&size)) \\(GPU (?<device>\\d+); (?<total_bytes>(?&size)) total";
    assert_int_equal(fragments_expand(&fr, pat, &x), 0);
    struct rx *rx = expansion_compile(pat, &x, 0, err, sizeof err, &off);
    assert_non_null(rx);
    assert_int_equal(rx_name_count(rx), 3);
    struct rx_matcher *m = rx_matcher_create();
    const char *line = "Tried to allocate 2.00 GiB (GPU 0; 14.75 GiB total capacity";
    assert_int_equal(rx_match(rx, m, line, strlen(line)), RX_MATCH);
    rx_each_capture(rx, m, line, add_capture, got);
    assert_string_equal(got, "device=0;requested_bytes=2.00 GiB;total_bytes=14.75 GiB;");
    rx_matcher_free(m);
    rx_free(rx);
    expansion_free(&x);
    fragments_free(&fr);
}

/* A PCRE2 error in the pattern points into the pattern as written. */
static void test_error_offset_in_written_pattern(void **state)
{
    (void)state;
    struct fragments fr = parse_ok("{\"size\": \"\\\\d+B\"}");
    struct expansion x;
    char err[256];
    size_t off = 0;
    assert_int_equal(fragments_expand(&fr, "(?&size) (?<x>\\d+", &x), 0);
    assert_null(expansion_compile("(?&size) (?<x>\\d+", &x, 0, err, sizeof err, &off));
    assert_int_equal(off, strlen("(?&size) (?<x>\\d+"));
    assert_non_null(strstr(err, "missing closing parenthesis"));
    expansion_free(&x);
    fragments_free(&fr);
}

/* With the definitions in front, a number would name a fragment's group:
 * every numbered form is refused where it stands; names, escapes and
 * quantifiers are not numbers. */
static void test_numbered_reference_refused(void **state)
{
    (void)state;
    static const char *const refused[] = {"(?<k>a)(?&size) \\1", "(?<k>a)(?&size) \\g1", "(?<k>a)(?&size) \\g{1}",
                                          "(?<k>a)(?&size) (?1)", "(?<k>a)(?&size) (?(1)b|c)"};
    static const char *const allowed = "(?<k>a)(?&size) \\k<k> \\\\1 x{1} (?:1) \\d{1,2}";
    struct fragments fr = parse_ok("{\"size\": \"\\\\d+B\"}");
    char err[256];
    size_t off = 0;
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        struct expansion x;
        assert_int_equal(fragments_expand(&fr, refused[i], &x), 0);
        assert_null(expansion_compile(refused[i], &x, 0, err, sizeof err, &off));
        assert_int_equal(off, strlen("(?<k>a)(?&size) "));
        assert_non_null(strstr(err, "by name"));
        expansion_free(&x);
    }
    struct expansion x;
    assert_int_equal(fragments_expand(&fr, allowed, &x), 0);
    struct rx *rx = expansion_compile(allowed, &x, 0, err, sizeof err, &off);
    assert_non_null(rx);
    rx_free(rx);
    expansion_free(&x);
    fragments_free(&fr);
}

static void parse_fails(const char *json, const char *want)
{
    struct fragments fr = {0};
    cJSON *obj = cJSON_Parse(json);
    assert_non_null(obj);
    reported[0] = '\0';
    assert_int_equal(fragments_parse(&fr, obj, 1, keep_report, NULL), -1);
    assert_string_equal(reported, want);
    cJSON_Delete(obj);
    fragments_free(&fr);
}

static void test_bad_fragments(void **state)
{
    (void)state;
    parse_fails("{\"size\": \"(\\\\d+)B\"}",
                "/fragments/size: a fragment must not capture (a call's captures are undone when it returns): use "
                "(?:...) inside it, and put the named group around the call [(\\d+)B^0]");
    parse_fails("{\"n\": \"(?<v>\\\\d)\"}", "/fragments/n: a fragment must not capture (a call's captures are undone "
                                            "when it returns): use (?:...) inside it, and put the named group around "
                                            "the call [(?<v>\\d)^0]");
    parse_fails("{\"9x\": \"a\"}", "/fragments/9x: fragment name \"9x\" must be a letter or '_' then letters, digits "
                                   "or '_' (at most 32) [^0]");
    parse_fails("{\"s\": 3}", "/fragments/s: a fragment must be a non-empty string (a PCRE2 sub-pattern), or an "
                              "object with one as \"pattern\" [^0]");
    parse_fails("[1]", "/fragments: \"fragments\" must be an object of named sub-patterns [^0]");
    /* compiled together once: the error points into its fragment */
    parse_fails("{\"a\": \"x\", \"b\": \"y(?:z\"}",
                "/fragments/b: missing closing parenthesis (PCRE2 error 114) [y(?:z^5]");
    parse_fails("{\"a\": \"(?&nope)\"}",
                "/fragments/a: reference to non-existent subpattern (PCRE2 error 115) [(?&nope)^3]");
}

/* Through the loader: a fragment no pattern calls is a warning; a call
 * works in a signature, and its samples are checked as usual. */
static void test_loader_fragments(void **state)
{
    (void)state;
    struct msgs ms = {0};
    struct od_ruleset *rs = od_ruleset_create(collect_msg, &ms);
    const char *text =
        "{\"oomdiag_rules\": 1,\n"
        " \"fragments\": {\"size\": \"\\\\d+ ?[KMG]iB\", \"spare\": \"x\"},\n"
        " \"causes\": [{\"id\": \"c1\", \"title\": \"T\", \"explanation\": \"E\",\n"
        "   \"remediation\": [{\"id\": \"s1\", \"action\": \"A\"}]}],\n"
        " \"signatures\": [{\"id\": \"s\", \"cause\": \"c1\", \"pattern\": \"asked (?<a_bytes>(?&size))\",\n"
        "   \"samples\": {\"match\": [\"asked 2 GiB\"]}}]}\n";
    /* A buffer (the embedded rules) expands a pattern when it is compiled:
     * nothing to say about calls at load. */
    assert_int_equal(od_ruleset_add_buffer(rs, "t.json", text, strlen(text)), 0);
    assert_int_equal(ms.count, 0);
    /* A rule file is compiled at load: a fragment nothing calls is a warning. */
    char *dir = tmpdir_create(), path[512];
    struct msgs fms = {0};
    struct od_ruleset *frs = od_ruleset_create(collect_msg, &fms);
    write_file(dir, "t.json", text, strlen(text));
    snprintf(path, sizeof path, "%s/t.json", dir);
    assert_int_equal(od_ruleset_add_path(frs, path), 0);
    if (fms.count != 1)
        dump_msgs(&fms);
    assert_int_equal(fms.count, 1);
    assert_msg(&fms, 0, OD_SEV_WARNING, path, 2, 41,
               "/fragments/spare: fragment \"spare\" is called by no pattern of this file");
    od_ruleset_free(frs);
    tmpdir_remove(dir);
    const struct sig *s = ruleset_sig(rs, "s");
    assert_non_null(s);
    assert_string_equal(s->pattern, "asked (?<a_bytes>(?&size))");
    assert_null(s->expanded.text); /* expanded when compiled, by the matcher */
    assert_expands(rs, s, "(?(DEFINE)(?<size>\\d+ ?[KMG]iB))asked (?<a_bytes>(?&size))", 1);
    od_ruleset_free(rs);
}

/* Fragments are file-local: a second file cannot call the first's, and
 * the call is an error at its place. */
static void test_fragments_are_file_local(void **state)
{
    (void)state;
    struct msgs ms = {0};
    struct od_ruleset *rs = od_ruleset_create(collect_msg, &ms);
    const char *one = "{\"oomdiag_rules\": 1, \"fragments\": {\"size\": \"\\\\d+B\"},\n"
                      " \"causes\": [{\"id\": \"c1\", \"title\": \"T\", \"explanation\": \"E\",\n"
                      "   \"remediation\": [{\"id\": \"s1\", \"action\": \"A\"}]}],\n"
                      " \"signatures\": [{\"id\": \"s\", \"cause\": \"c1\", \"pattern\": \"got (?&size)\",\n"
                      "   \"samples\": {\"match\": [\"got 2B\"]}}]}\n";
    const char *two = "{\"oomdiag_rules\": 1,\n"
                      " \"signatures\": [{\"id\": \"t\", \"cause\": \"c1\", \"pattern\": \"had (?&size)\",\n"
                      "   \"samples\": {\"match\": [\"had 2B\"]}}]}\n";
    assert_int_equal(od_ruleset_add_buffer(rs, "one.json", one, strlen(one)), 0);
    assert_int_equal(ms.count, 0);
    assert_int_equal(od_ruleset_add_buffer(rs, "two.json", two, strlen(two)), -1);
    assert_int_equal(ms.count, 1);
    assert_msg(&ms, 0, OD_SEV_ERROR, "two.json", 2, 44,
               "/signatures/0/pattern: calls fragment \"size\", which neither this file's \"fragments\" nor the "
               "lexicon defines");
    od_ruleset_free(rs);
}

static const char *const lexicon =
    "{\"oomdiag_rules\": 1, \"lexicon\": true,\n"
    " \"fragments\": {\"num\": \"\\\\d+\", \"size\": {\"pattern\": \"(?&num)B\", \"comment\": \"bytes\"}}}\n";
static const char *const caller =
    "{\"oomdiag_rules\": 1,\n"
    " \"causes\": [{\"id\": \"c1\", \"title\": \"T\", \"explanation\": \"E\",\n"
    "   \"remediation\": [{\"id\": \"s1\", \"action\": \"A\"}]}],\n"
    " \"signatures\": [{\"id\": \"t\", \"cause\": \"c1\", \"pattern\": \"had (?<a_bytes>(?&size))\",\n"
    "   \"samples\": {\"match\": [\"had 2B\"]}}]}\n";

/* A "lexicon": true file's fragments are seen by the files loaded after
 * it, with the fragments they call; not by those loaded before. */
static void test_lexicon_shared(void **state)
{
    (void)state;
    struct msgs ms = {0};
    struct od_ruleset *rs = od_ruleset_create(collect_msg, &ms);
    assert_int_equal(od_ruleset_add_buffer(rs, "lex.json", lexicon, strlen(lexicon)), 0);
    assert_int_equal(od_ruleset_add_buffer(rs, "c.json", caller, strlen(caller)), 0);
    if (ms.count != 0)
        dump_msgs(&ms);
    assert_int_equal(ms.count, 0);
    const struct sig *t = ruleset_sig(rs, "t");
    assert_non_null(t);
    assert_expands(rs, t, "(?(DEFINE)(?<num>\\d+)(?<size>(?&num)B))had (?<a_bytes>(?&size))", 2);
    od_ruleset_free(rs);

    /* Loaded the other way round: the caller sees no lexicon. */
    struct msgs ms2 = {0};
    rs = od_ruleset_create(collect_msg, &ms2);
    assert_int_equal(od_ruleset_add_buffer(rs, "c.json", caller, strlen(caller)), -1);
    assert_int_equal(od_ruleset_add_buffer(rs, "lex.json", lexicon, strlen(lexicon)), 0);
    assert_int_equal(ms2.count, 1);
    od_ruleset_free(rs);
}

/* The same lexicon loaded twice is one lexicon; another text for a name
 * is an error; a file's own fragment hides the lexicon's. */
static void test_lexicon_twice_and_hidden(void **state)
{
    (void)state;
    struct msgs ms = {0};
    struct od_ruleset *rs = od_ruleset_create(collect_msg, &ms);
    const char *other = "{\"oomdiag_rules\": 1, \"lexicon\": true, \"fragments\": {\"num\": \"[0-9]+\"}}\n";
    const char *own = "{\"oomdiag_rules\": 1, \"fragments\": {\"size\": \"(?&num)KB\"},\n"
                      " \"signatures\": [{\"id\": \"u\", \"cause\": \"c1\", \"pattern\": \"got (?&size)\",\n"
                      "   \"samples\": {\"match\": [\"got 2KB\"]}}]}\n";
    assert_int_equal(od_ruleset_add_buffer(rs, "lex.json", lexicon, strlen(lexicon)), 0);
    assert_int_equal(od_ruleset_add_buffer(rs, "lex2.json", lexicon, strlen(lexicon)), 0);
    assert_int_equal(ms.count, 0);
    assert_int_equal(rs->lexicon->n, 2);
    assert_int_equal(od_ruleset_add_buffer(rs, "other.json", other, strlen(other)), -1);
    assert_int_equal(ms.count, 1);
    assert_non_null(strstr(ms.items[0].text, "the lexicon defines \"num\" already"));
    assert_int_equal(od_ruleset_add_buffer(rs, "c.json", caller, strlen(caller)), 0);
    assert_int_equal(od_ruleset_add_buffer(rs, "own.json", own, strlen(own)), 0);
    const struct sig *u = ruleset_sig(rs, "u");
    assert_expands(rs, u, "(?(DEFINE)(?<size>(?&num)KB)(?<num>\\d+))got (?&size)", 2);
    od_ruleset_free(rs);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_only_called_fragments_and_theirs),
        cmocka_unit_test(test_no_call_no_expansion),
        cmocka_unit_test(test_fragment_groups_hidden),
        cmocka_unit_test(test_error_offset_in_written_pattern),
        cmocka_unit_test(test_numbered_reference_refused),
        cmocka_unit_test(test_bad_fragments),
        cmocka_unit_test(test_loader_fragments),
        cmocka_unit_test(test_fragments_are_file_local),
        cmocka_unit_test(test_lexicon_shared),
        cmocka_unit_test(test_lexicon_twice_and_hidden),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
