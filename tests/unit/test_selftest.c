/* --check-rules' checks, one fault each: a sample that lacks its literal,
 * one that misses its pattern, a field parsed wrong, a no_match sample
 * that matches, a risky pattern, a name no signature captures, a rank
 * sample that gives another rank; and a clean rule set passes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "helpers.h"
#include "selftest.h"

static const char faulty[] =
    "{\"oomdiag_rules\": 1, "
    "\"causes\": [{\"id\": \"c\", \"title\": \"T\", \"explanation\": \"E\", \"summaries\": [{\"text\": \"on rank "
    "{rnak}\"}], \"remediation\": [{\"id\": \"s\", \"action\": \"A\", \"when\": \"wat >= 1\"}]}], "
    "\"signatures\": ["
    "{\"id\": \"good\", \"cause\": \"c\", \"literal\": \"Segmentation\", \"pattern\": \"Segmentation fault "
    "\\\\(core (?<what>\\\\w+)\\\\)\", \"samples\": {\"match\": [{\"line\": \"Segmentation fault (core dumped)\", "
    "\"fields\": {\"what\": \"dumped\"}}]}},"
    "{\"id\": \"wrongfield\", \"cause\": \"c\", \"literal\": \"Bus error\", \"pattern\": \"Bus error (?<n>\\\\d+)\", "
    "\"samples\": {\"match\": [{\"line\": \"Bus error 7\", \"fields\": {\"n\": 8}}]}},"
    "{\"id\": \"nolit\", \"cause\": \"c\", \"literal\": \"Illegal instruction\", \"pattern\": \"Illegal\", "
    "\"samples\": {\"match\": [\"Illegal opcode\"]}},"
    "{\"id\": \"nopat\", \"cause\": \"c\", \"literal\": \"Floating\", \"pattern\": \"Floating point exception\", "
    "\"samples\": {\"match\": [\"Floating away\"]}},"
    "{\"id\": \"leaky\", \"cause\": \"c\", \"literal\": \"Aborted\", \"pattern\": \"^Aborted$\", "
    "\"samples\": {\"match\": [\"Aborted\"], \"no_match\": [\"Segmentation fault (core dumped)\"]}},"
    "{\"id\": \"evil\", \"cause\": \"c\", \"literal\": \"zzzz\", \"pattern\": \"zzzz(b+)+$\", "
    "\"samples\": {\"match\": [\"zzzzbb\"]}}"
    "], \"ranks\": [{\"id\": \"r\", \"from\": \"line\", \"pattern\": \"^\\\\[rank(?<rank>\\\\d+)\\\\]\", "
    "\"samples\": {\"match\": [{\"line\": \"[rank3] x\", \"fields\": {\"rank\": 4}}]}}]}";

static const char clean[] = "{\"oomdiag_rules\": 1, "
                            "\"causes\": [{\"id\": \"c\", \"title\": \"T\", \"explanation\": \"E\", \"summaries\": "
                            "[{\"text\": \"{what} on rank {rank}\", \"when\": \"has(what) && rank_count >= 1\"}], "
                            "\"remediation\": [{\"id\": \"s\", \"action\": \"A\"}]}], "
                            "\"signatures\": [{\"id\": \"good\", \"cause\": \"c\", \"literal\": \"Segmentation\", "
                            "\"pattern\": \"Segmentation fault \\\\(core (?<what>\\\\w+)\\\\)\", \"samples\": "
                            "{\"match\": [\"Segmentation fault (core dumped)\"], \"no_match\": [\"Segmentation "
                            "of the data is fine\"]}}]}";

static struct od_ruleset *load(struct msgs *ms, const char *text, int builtin)
{
    struct od_ruleset *rs = od_ruleset_create(collect_msg, ms);
    assert_non_null(rs);
    od_ruleset_keep_samples(rs, 1);
    if (builtin)
        assert_int_equal(od_ruleset_add_builtin(rs), 0);
    if (od_ruleset_add_buffer(rs, "t.json", text, strlen(text)) != 0 || od_ruleset_finish(rs) != 0) {
        dump_msgs(ms);
        fail();
    }
    return rs;
}

/* The index of the first message holding TEXT, or -1. */
static int find(const struct msgs *ms, enum od_severity sev, const char *text)
{
    for (size_t i = 0; i < ms->count && i < MSGS_MAX; i++)
        if (ms->items[i].sev == sev && strstr(ms->items[i].text, text) != NULL)
            return (int)i;
    dump_msgs(ms);
    print_error("no %s message with: %s\n", sev == OD_SEV_ERROR ? "error" : "warning", text);
    return -1;
}

static void test_faults(void **state)
{
    (void)state;
    struct msgs ms = {0};
    struct od_ruleset *rs = load(&ms, faulty, 0);
    assert_int_equal(ms.count, 0);
    struct selftest_result res;
    assert_int_equal(selftest_run(rs, 1, &res), -1);
    assert_int_equal(res.signatures, 6);
    assert_int_equal(res.samples, 8); /* six match, one no_match, one rank sample */
    assert_true(find(&ms, OD_SEV_ERROR,
                     "signature \"wrongfield\": sample field \"n\" parsed as 7, not the expected "
                     "value") >= 0);
    assert_true(find(&ms, OD_SEV_ERROR,
                     "signature \"nolit\": sample contains none of its literals (fix "
                     "\"literal\")") >= 0);
    assert_true(find(&ms, OD_SEV_ERROR, "signature \"nopat\": sample does not match its pattern") >= 0);
    assert_true(find(&ms, OD_SEV_ERROR, "signature \"leaky\": no_match sample matches signature \"good\"") >= 0);
    assert_true(find(&ms, OD_SEV_WARNING,
                     "signature \"evil\": nested unbounded quantifiers can backtrack catastrophically") >= 0);
    assert_true(find(&ms, OD_SEV_ERROR,
                     "cause \"c\" names \"rnak\", which no signature captures (did you mean "
                     "\"rank\"?)") >= 0);
    assert_true(find(&ms, OD_SEV_ERROR,
                     "cause \"c\" names \"wat\", which no signature captures (did you mean "
                     "\"what\"?)") >= 0);
    assert_true(find(&ms, OD_SEV_ERROR, "rank source \"r\": sample gives rank 3, not the expected one") >= 0);
    assert_int_equal(res.failures, 7);
    /* Where: the sample's own line in the file. */
    int i = find(&ms, OD_SEV_ERROR, "\"nopat\"");
    assert_string_equal(ms.items[i].file, "t.json");
    assert_true(ms.items[i].line == 1 && ms.items[i].col > 1);
    od_ruleset_free(rs);
}

static void test_clean(void **state)
{
    (void)state;
    struct msgs ms = {0};
    struct od_ruleset *rs = load(&ms, clean, 0);
    struct selftest_result res;
    assert_int_equal(selftest_run(rs, 1, &res), 0);
    assert_int_equal(res.failures, 0);
    assert_int_equal(res.signatures, 1);
    assert_int_equal(res.samples, 2);
    for (size_t i = 0; i < ms.count; i++)
        assert_int_not_equal(ms.items[i].sev, OD_SEV_ERROR);
    od_ruleset_free(rs);
}

/* Beside the embedded rules: only the file's signatures are checked, and
 * its conditions may name the embedded signatures' captures. */
static void test_beside_builtin(void **state)
{
    (void)state;
    struct msgs ms = {0};
    struct od_ruleset *rs = load(&ms, clean, 1);
    struct selftest_result res;
    selftest_run(rs, 0, &res);
    if (res.failures)
        dump_msgs(&ms);
    assert_int_equal(res.signatures, 1);
    assert_int_equal(res.failures, 0);
    od_ruleset_free(rs);
}

static void test_nested_quantifier(void **state)
{
    (void)state;
    assert_int_equal(selftest_nested_quantifier("(a+)+"), 5);
    assert_int_equal(selftest_nested_quantifier("x(a*b)*y"), 7);
    assert_int_equal(selftest_nested_quantifier("(a+){2,}"), 5);
    assert_int_equal(selftest_nested_quantifier("((a)+)+"), 7);
    assert_int_equal(selftest_nested_quantifier("(a+)"), 0);
    assert_int_equal(selftest_nested_quantifier("(a|b)*"), 0);
    assert_int_equal(selftest_nested_quantifier("(a+){2,5}"), 0);
    assert_int_equal(selftest_nested_quantifier("[(a+)]+"), 0);   /* inside a class: literal characters */
    assert_int_equal(selftest_nested_quantifier("\\(a+\\)+"), 0); /* escaped parentheses */
    assert_int_equal(selftest_nested_quantifier("a+)+"), 0);      /* unbalanced: no crash */
    assert_int_equal(selftest_nested_quantifier(""), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_faults),
        cmocka_unit_test(test_clean),
        cmocka_unit_test(test_beside_builtin),
        cmocka_unit_test(test_nested_quantifier),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
