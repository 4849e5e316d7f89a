/* --check-rules' lints: each fires on what it is for and stays quiet on
 * the nearest case it must accept. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "helpers.h"
#include "lint.h"
#include "ruleset.h"

static struct msgs msgs;

#define CAUSE(summaries)                                                                                               \
    "{\"id\": \"c1\", \"title\": \"T\", \"explanation\": \"E\", \"summaries\": [" summaries "],"                       \
    " \"remediation\": [{\"id\": \"s1\", \"action\": \"A\"}]}"

/* Lints TEXT (one rule file) and returns the counts. */
static struct lint_counts lint_text(const char *text)
{
    struct lint_counts c;
    memset(&msgs, 0, sizeof msgs);
    struct od_ruleset *rs = od_ruleset_create(collect_msg, &msgs);
    assert_non_null(rs);
    od_ruleset_keep_samples(rs, 1);
    assert_int_equal(od_ruleset_add_buffer(rs, "t.json", text, strlen(text)), 0);
    assert_int_equal(od_ruleset_finish(rs), 0);
    lint_rules(rs, 1, &c);
    od_ruleset_free(rs);
    return c;
}

static void assert_counts(struct lint_counts c, size_t errors, size_t warnings, size_t notes)
{
    if (c.errors != errors || c.warnings != warnings || c.notes != notes)
        dump_msgs(&msgs);
    assert_int_equal(c.errors, errors);
    assert_int_equal(c.warnings, warnings);
    assert_int_equal(c.notes, notes);
}

static void test_literal_implied(void **state)
{
    (void)state;
    assert_counts(lint_text("{\"oomdiag_rules\": 1, \"causes\": [" CAUSE(
                      "") "], \"signatures\": ["
                          "{\"id\": \"a\", \"cause\": \"c1\", \"literal\": \"widget jam \", \"pattern\": \"widget "
                          "jam (?<rank>\\\\d+)\", \"samples\": {\"match\": [\"widget jam 1\"]}}]}"),
                  0, 0, 1);
    assert_string_equal(msgs.items[0].text,
                        "signature \"a\": literal \"widget jam \" is what the pattern implies; it can be left out");
    /* a shorter literal, a derived one, two literals: nothing to say */
    assert_counts(lint_text("{\"oomdiag_rules\": 1, \"causes\": [" CAUSE(
                      "") "], \"signatures\": ["
                          "{\"id\": \"a\", \"cause\": \"c1\", \"literal\": \"widget\", \"pattern\": \"widget jam "
                          "(?<rank>\\\\d+)\", \"samples\": {\"match\": [\"widget jam 1\"]}},"
                          "{\"id\": \"b\", \"cause\": \"c1\", \"pattern\": \"gadget jam (?<rank>\\\\d+)\", "
                          "\"samples\": {\"match\": [\"gadget jam 1\"]}},"
                          "{\"id\": \"c\", \"cause\": \"c1\", \"literal\": [\"cog jam \", \"cog stuck\"], "
                          "\"pattern\": \"cog jam (?<rank>\\\\d+)\", \"samples\": {\"match\": [\"cog jam 1\"]}}]}"),
                  0, 0, 0);
}

#define SIG_RANK                                                                                                       \
    "\"signatures\": [{\"id\": \"a\", \"cause\": \"c1\", \"literal\": \"jam\", \"pattern\": \"jam (?<rank>\\\\d+)"     \
    "(?: x(?<step>\\\\d+))?\", \"samples\": {\"match\": [\"jam 1 x2\"]}}]"

static void test_summary_never_chosen(void **state)
{
    (void)state;
    assert_counts(
        lint_text("{\"oomdiag_rules\": 1, \"causes\": [" CAUSE(
            "{\"text\": \"Rank {rank} jammed.\"}, {\"text\": \"Rank {rank} jammed at {step}.\"}") "], " SIG_RANK "}"),
        1, 0, 0);
    assert_string_equal(msgs.items[0].text, "cause \"c1\": this summary can never be chosen: summary 0 before it has "
                                            "no \"when\" and needs no field this one does not");
    /* the other order, a "when" in front, or a placeholder of its own: reachable */
    assert_counts(lint_text("{\"oomdiag_rules\": 1, \"causes\": [" CAUSE(
                      "{\"text\": \"Rank {rank} jammed at {step}.\"}, {\"text\": \"Rank {rank} jammed.\"}, "
                      "{\"text\": \"Something jammed.\"}") "], " SIG_RANK "}"),
                  0, 0, 0);
    assert_counts(
        lint_text("{\"oomdiag_rules\": 1, \"causes\": [" CAUSE(
            "{\"when\": \"step > 1\", \"text\": \"Jammed.\"}, {\"text\": \"Jammed again.\"}") "], " SIG_RANK "}"),
        0, 0, 0);
    /* {{rank}} is a brace, not a placeholder */
    assert_counts(lint_text("{\"oomdiag_rules\": 1, \"causes\": [" CAUSE(
                      "{\"text\": \"Jammed {{rank}}.\"}, {\"text\": \"Rank {rank} jammed.\"}") "], " SIG_RANK "}"),
                  1, 0, 0);
}

static void test_group_never_captured(void **state)
{
    (void)state;
    const char *none = "{\"oomdiag_rules\": 1, \"causes\": [" CAUSE(
        "") "], \"signatures\": [{\"id\": \"a\", \"cause\": "
            "\"c1\", \"literal\": \"jam\", \"pattern\": \"jam (?<rank>\\\\d+)(?: x(?<step>\\\\d+))?\", "
            "\"samples\": {\"match\": [\"jam 1\"]}}]}";
    assert_counts(lint_text(none), 0, 1, 0);
    assert_string_equal(msgs.items[0].text, "signature \"a\": named group \"step\" is captured by none of its samples "
                                            "(add a real line that shows it)");
    assert_int_equal(msgs.items[0].caret, strlen("jam (?<rank>\\d+)(?: x"));
    assert_counts(lint_text("{\"oomdiag_rules\": 1, \"causes\": [" CAUSE("") "], " SIG_RANK "}"), 0, 0, 0);
    /* "unsampled" exempts a group, and must stay true */
    assert_counts(lint_text("{\"oomdiag_rules\": 1, \"causes\": [" CAUSE(
                      "") "], \"signatures\": [{\"id\": \"a\", "
                          "\"cause\": \"c1\", \"literal\": \"jam\", \"pattern\": \"jam (?<rank>\\\\d+)(?: "
                          "x(?<step>\\\\d+))?\", \"unsampled\": [\"step\"], \"samples\": {\"match\": [\"jam 1\"]}}]}"),
                  0, 0, 0);
    assert_counts(lint_text("{\"oomdiag_rules\": 1, \"causes\": [" CAUSE(
                      "") "], \"signatures\": [{\"id\": \"a\", "
                          "\"cause\": \"c1\", \"literal\": \"jam\", \"pattern\": \"jam (?<rank>\\\\d+)(?: "
                          "x(?<step>\\\\d+))?\", \"unsampled\": [\"step\", \"stpe\"], \"samples\": {\"match\": [\"jam "
                          "1 x3\"]}}]}"),
                  1, 1, 0);
}

static void test_field_not_declared(void **state)
{
    (void)state;
    const char *sig = "\"signatures\": [{\"id\": \"a\", \"cause\": \"c1\", \"literal\": \"jam\", \"pattern\": \"jam "
                      "(?<rank>\\\\d+) (?<jam_bytes>\\\\d+ B) (?<widget>\\\\w+)\", \"samples\": {\"match\": [\"jam 1 "
                      "2 B w\"]}}]";
    char text[2048];
    snprintf(text, sizeof text, "{\"oomdiag_rules\": 1, \"causes\": [" CAUSE("") "], %s}", sig);
    assert_counts(lint_text(text), 0, 1, 0);
    assert_string_equal(msgs.items[0].text, "signature \"a\": capture \"widget\" is not declared in \"fields\" and "
                                            "means nothing to the engine (declare it, or fix its name)");
    snprintf(
        text, sizeof text,
        "{\"oomdiag_rules\": 1, \"causes\": [" CAUSE("") "], %s, \"fields\": {\"widget\": {\"kind\": \"string\"}}}",
        sig);
    assert_counts(lint_text(text), 0, 0, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_literal_implied),
        cmocka_unit_test(test_summary_never_chosen),
        cmocka_unit_test(test_group_never_captured),
        cmocka_unit_test(test_field_not_declared),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
