/* Loading rule files: a good file loads; every broken one gets an exact
 * message (text, file, line, column, source line and caret). */
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
#include "matcher.h"
#include "rulefile.h"
#include "ruleset.h"
#include "ruleset_fixture.h"

static int load_as(const char *name, const char *text)
{
    return od_ruleset_add_buffer(rs, name, text, strlen(text));
}

static int load(const char *text)
{
    return load_as("t.json", text);
}

/* TEXT loaded as a user's rule file is: every regex compiled now. */
static int load_compiled(const char *text)
{
    static const struct rulefile_opts opts = {.keep_samples = 1, .compile_now = 1};
    return rulefile_load(rs, &opts, "t.json", text, strlen(text));
}

/* A file that must fail with exactly one error message. */
static void load_fails_once(const char *text)
{
    int rc = load(text);
    if (msgs.count != 1)
        dump_msgs(&msgs);
    assert_int_equal(rc, -1);
    assert_int_equal(msgs.count, 1);
}

/* A cause every signature below can name. */
#define CAUSE_C1                                                                                                       \
    "{\"id\": \"c1\", \"title\": \"T\", \"explanation\": \"E\", \"remediation\": [{\"id\": \"s1\", \"action\": "       \
    "\"A\"}]}"

/* A file whose line 4 is the signature SIG (its '{' at column 3). */
#define WITH_SIG(sig)                                                                                                  \
    "{\"oomdiag_rules\": 1,\n"                                                                                         \
    " \"causes\": [" CAUSE_C1 "],\n"                                                                                   \
    " \"signatures\": [\n"                                                                                             \
    "  " sig "\n"                                                                                                      \
    " ]}\n"

/* A file whose cause c1 has, on line 4, the remediation step STEP (its '{'
 * at column 4), and on line 5 the variants VARIANTS. */
#define WITH_STEP(step, variants)                                                                                      \
    "{\"oomdiag_rules\": 1,\n"                                                                                         \
    " \"causes\": [{\"id\": \"c1\", \"title\": \"T\", \"explanation\": \"E\",\n"                                       \
    "  \"remediation\": [\n"                                                                                           \
    "   " step "],\n"                                                                                                  \
    "  \"variants\": [" variants "]}]}\n"

/* ---- good files ----------------------------------------------------------------- */

static void test_good_file_loads(void **state)
{
    (void)state;
    assert_int_equal(od_ruleset_add_path(rs, TEST_DATA "/rules/basic.json"), 0);
    assert_int_equal(od_ruleset_finish(rs), 0);
    if (msgs.count)
        dump_msgs(&msgs);
    assert_int_equal(msgs.count, 0);
    assert_int_equal(rs->sig_count, 3);
    assert_int_equal(rs->cause_count, 2);
    assert_int_equal(rs->rank_count, 1);
    assert_string_equal(od_ruleset_version(rs), "test-1");
    const struct sig *s = ruleset_sig(rs, "test-watchdog");
    assert_non_null(s);
    assert_int_equal(s->role, OD_ROLE_CONSEQUENCE);
    assert_int_equal(s->confidence, OD_CONF_HIGH);
    assert_non_null(s->cause);
    assert_string_equal(s->cause->id, "nccl-timeout");
    unsigned long line = 0, col = 0;
    origin_locate(&s->at, &line, &col);
    assert_int_equal(line, 79);
    assert_int_equal(col, 5);
    const struct cause *c = ruleset_cause(rs, "gpu-oom");
    assert_non_null(c);
    assert_int_equal(c->variant_count, 2);
    assert_int_equal(c->step_count, 2);
    assert_int_equal(c->summary_count, 2);
}

static void test_good_buffer_loads(void **state)
{
    (void)state;
    assert_int_equal(load(WITH_SIG("{\"id\": \"sig1\", \"cause\": \"c1\", \"literal\": [\"boom\", \"bang\"], "
                                   "\"pattern\": \"(?:boom|bang) (?<n>\\\\d+)\", \"comment\": \"ok\", "
                                   "\"$comment\": \"ok\", \"samples\": {\"match\": [\"boom 1\"]}}")),
                     0);
    assert_int_equal(od_ruleset_finish(rs), 0);
    assert_int_equal(msgs.count, 0);
    assert_int_equal(rs->sig_count, 1);
    assert_int_equal(rs->sigs[0]->literal_count, 2);
    assert_string_equal(rs->sigs[0]->literals[1], "bang");
    assert_string_equal(rs->sigs[0]->pattern, "(?:boom|bang) (?<n>\\d+)");
    assert_string_equal(od_ruleset_version(rs), "none");
}

static void test_highest_ruleset_version_wins(void **state)
{
    (void)state;
    assert_int_equal(load_as("a.json", "{\"oomdiag_rules\": 1, \"ruleset_version\": \"2026.01.02\"}"), 0);
    assert_int_equal(load_as("b.json", "{\"oomdiag_rules\": 1, \"ruleset_version\": \"2026.03.01\"}"), 0);
    assert_int_equal(load_as("c.json", "{\"oomdiag_rules\": 1, \"ruleset_version\": \"2025.12.31\"}"), 0);
    assert_string_equal(od_ruleset_version(rs), "2026.03.01");
}

/* ---- JSON syntax ------------------------------------------------------------------ */

static void test_syntax_missing_comma(void **state)
{
    (void)state;
    load_fails_once("{\"oomdiag_rules\": 1\n"
                    " \"causes\": []}\n");
    assert_msg(&msgs, 0, OD_SEV_ERROR, "t.json", 2, 2,
               "JSON syntax error (check for a missing ',' or quote, or a trailing ',')");
    assert_msg_source(&msgs, 0, " \"causes\": []}", 1);
}

static void test_syntax_trailing_comma(void **state)
{
    (void)state;
    load_fails_once("{\"oomdiag_rules\": 1,\n"
                    " \"causes\": [1, 2,]}\n");
    assert_msg(&msgs, 0, OD_SEV_ERROR, "t.json", 2, 18,
               "JSON syntax error (check for a missing ',' or quote, or a trailing ',')");
    assert_msg_source(&msgs, 0, " \"causes\": [1, 2,]}", 17);
}

static void test_syntax_trailing_comma_in_object(void **state)
{
    (void)state;
    load_fails_once("{\"oomdiag_rules\": 1,}");
    assert_msg(&msgs, 0, OD_SEV_ERROR, "t.json", 1, 21,
               "JSON syntax error (check for a missing ',' or quote, or a trailing ',')");
    assert_msg_source(&msgs, 0, "{\"oomdiag_rules\": 1,}", 20);
}

static void test_syntax_unterminated(void **state)
{
    (void)state;
    /* Regression (fixed): src/rulefile.c syntax_error says "unexpected end of JSON" only
     * when the error offset is >= the text's length, but cJSON never
     * reports such an offset (it reports the last byte, length - 1), so
     * a truncated file gets the generic "JSON syntax error (check for a
     * missing ',' ...)" instead, pointing at its last byte (here 2:12,
     * the '[').  Only an empty file gets "unexpected end of JSON". */
    load_fails_once("{\"oomdiag_rules\": 1,\n"
                    " \"causes\": [");
    assert_msg(&msgs, 0, OD_SEV_ERROR, "t.json", 2, 12, "unexpected end of JSON (a missing ']' or '}'?)");
}

static void test_syntax_unterminated_string(void **state)
{
    (void)state;
    load_fails_once("{\"oomdiag_rules\": 1,\n"
                    " \"causes\": \"abc\n"
                    "}\n");
    assert_int_equal(msgs.items[0].sev, OD_SEV_ERROR);
    assert_string_equal(msgs.items[0].file, "t.json");
    assert_int_equal(msgs.items[0].line, 2);
    assert_string_equal(msgs.items[0].text, "JSON syntax error (check for a missing ',' or quote, or a trailing ',')");
}

static void test_syntax_deep_nesting(void **state)
{
    (void)state;
    /* cJSON stops at 1000 levels: a clean syntax error at the 1001st
     * bracket, no crash (neither in cJSON nor in locating the error). */
    size_t n = 5000;
    char *text = malloc(n + 1);
    assert_non_null(text);
    memset(text, '[', n);
    text[n] = '\0';
    load_fails_once(text);
    assert_msg(&msgs, 0, OD_SEV_ERROR, "t.json", 1, 1001,
               "JSON syntax error (check for a missing ',' or quote, or a trailing ',')");
    assert_int_equal(msgs.items[0].caret, 1000);
    free(text);
}

static void test_nul_byte(void **state)
{
    (void)state;
    static const char text[] = "{\"oomdiag_rules\": 1,\n \"x\0\": 1}\n";
    assert_int_equal(od_ruleset_add_buffer(rs, "t.json", text, sizeof text - 1), -1);
    assert_int_equal(msgs.count, 1);
    assert_msg(&msgs, 0, OD_SEV_ERROR, "t.json", 2, 4, "NUL byte in rule file (not JSON text)");
    assert_false(msgs.items[0].has_source);
}

/* ---- the top level ---------------------------------------------------------------- */

static void test_not_an_object(void **state)
{
    (void)state;
    load_fails_once("[1, 2]\n");
    assert_msg(&msgs, 0, OD_SEV_ERROR, "t.json", 1, 1,
               "/: a rule file must be a JSON object with \"oomdiag_rules\": 1");
    assert_msg_source(&msgs, 0, "[1, 2]", 0);
}

static void test_missing_version(void **state)
{
    (void)state;
    load_fails_once("{\"causes\": []}\n");
    assert_msg(&msgs, 0, OD_SEV_ERROR, "t.json", 1, 1,
               "/: missing \"oomdiag_rules\": 1 (the rule format version) at the top level");
    assert_msg_source(&msgs, 0, "{\"causes\": []}", 0);
}

static void test_wrong_version(void **state)
{
    (void)state;
    load_fails_once("{\n"
                    "  \"oomdiag_rules\": 2\n"
                    "}\n");
    assert_msg(&msgs, 0, OD_SEV_ERROR, "t.json", 2, 3,
               "/oomdiag_rules: unsupported rule format version (this oomdiag reads version 1)");
    assert_msg_source(&msgs, 0, "  \"oomdiag_rules\": 2", 2);
    teardown(state);
    setup(state);
    load_fails_once("{\"oomdiag_rules\": \"1\"}");
    assert_msg(&msgs, 0, OD_SEV_ERROR, "t.json", 1, 2,
               "/oomdiag_rules: unsupported rule format version (this oomdiag reads version 1)");
}

static void test_unknown_key_warning(void **state)
{
    (void)state;
    assert_int_equal(load("{\"oomdiag_rules\": 1,\n"
                          " \"extra\": 1}\n"),
                     0);
    assert_int_equal(msgs.count, 1);
    assert_msg(&msgs, 0, OD_SEV_WARNING, "t.json", 2, 2,
               "/extra: unknown key \"extra\" is ignored (allowed here: oomdiag_rules, ruleset_version, causes, "
               "signatures, ranks, dtypes, description, $schema, translations, fragments, fields, lexicon, line_prefixes)");
    assert_msg_source(&msgs, 0, " \"extra\": 1}", 1);
}

static void test_unknown_key_in_signature(void **state)
{
    (void)state;
    assert_int_equal(load(WITH_SIG("{\"id\": \"sig1\", \"cause\": \"c1\", \"colour\": \"red\", \"literal\": \"boom\", "
                                   "\"pattern\": \"boom\", \"samples\": {\"match\": [\"boom\"]}}")),
                     0);
    assert_int_equal(msgs.count, 1);
    assert_msg(&msgs, 0, OD_SEV_WARNING, "t.json", 4, 33,
               "/signatures/0/colour: unknown key \"colour\" is ignored (allowed here: id, cause, framework, role, "
               "confidence, literal, pattern, caseless, samples, unsampled, description, fallback, goes_on, series, "
               "series_unit, boundary)");
    assert_int_equal(rs->sig_count, 1); /* a warning does not drop the signature */
}

/* ---- signatures -------------------------------------------------------------------- */

static void test_missing_id(void **state)
{
    (void)state;
    load_fails_once(WITH_SIG("{\"cause\": \"c1\", \"literal\": \"boom\", \"pattern\": \"boom\", "
                             "\"samples\": {\"match\": [\"boom\"]}}"));
    assert_msg(&msgs, 0, OD_SEV_ERROR, "t.json", 4, 3, "/signatures/0: missing required key \"id\"");
    assert_msg_source(&msgs, 0,
                      "  {\"cause\": \"c1\", \"literal\": \"boom\", \"pattern\": \"boom\", \"samples\": {\"match\": "
                      "[\"boom\"]}}",
                      2);
    assert_int_equal(rs->sig_count, 0);
}

static void test_bad_id_chars(void **state)
{
    (void)state;
    load_fails_once(WITH_SIG("{\"id\": \"Bad_ID\", \"cause\": \"c1\", \"literal\": \"boom\", \"pattern\": \"boom\", "
                             "\"samples\": {\"match\": [\"boom\"]}}"));
    assert_msg(&msgs, 0, OD_SEV_ERROR, "t.json", 4, 4,
               "/signatures/0/id: id \"Bad_ID\" must use only a-z, 0-9, '-', '.' and '_', starting with a letter or "
               "digit");
    teardown(state);
    setup(state);
    load_fails_once(WITH_SIG("{\"id\": \"-lead\", \"cause\": \"c1\", \"literal\": \"boom\", \"pattern\": \"boom\", "
                             "\"samples\": {\"match\": [\"boom\"]}}"));
    assert_msg(&msgs, 0, OD_SEV_ERROR, "t.json", 4, 4,
               "/signatures/0/id: id \"-lead\" must use only a-z, 0-9, '-', '.' and '_', starting with a letter or "
               "digit");
}

static void test_pattern_not_a_string(void **state)
{
    (void)state;
    load_fails_once(WITH_SIG("{\"id\": \"sig1\", \"cause\": \"c1\", \"literal\": \"boom\", \"pattern\": 3, "
                             "\"samples\": {\"match\": [\"boom\"]}}"));
    assert_msg(&msgs, 0, OD_SEV_ERROR, "t.json", 4, 52, "/signatures/0/pattern: \"pattern\" must be a string");
}

static void test_literal_not_a_string(void **state)
{
    (void)state;
    load_fails_once(WITH_SIG("{\"id\": \"sig1\", \"cause\": \"c1\", \"literal\": 7, \"pattern\": \"boom\", "
                             "\"samples\": {\"match\": [\"boom\"]}}"));
    assert_msg(&msgs, 0, OD_SEV_ERROR, "t.json", 4, 33,
               "/signatures/0/literal: \"literal\" must be a string or a non-empty array of strings");
    teardown(state);
    setup(state);
    load_fails_once(WITH_SIG("{\"id\": \"sig1\", \"cause\": \"c1\", \"literal\": [\"boom\", 5], \"pattern\": \"boom\", "
                             "\"samples\": {\"match\": [\"boom\"]}}"));
    assert_msg(&msgs, 0, OD_SEV_ERROR, "t.json", 4, 33,
               "/signatures/0/literal: \"literal\" must be a string or an array of strings");
    teardown(state);
    setup(state);
    load_fails_once(WITH_SIG("{\"id\": \"sig1\", \"cause\": \"c1\", \"literal\": \"b\", \"pattern\": \"boom\", "
                             "\"samples\": {\"match\": [\"boom\"]}}"));
    assert_msg(&msgs, 0, OD_SEV_ERROR, "t.json", 4, 33,
               "/signatures/0/literal: each literal must be at least 2 characters long");
}

static void test_samples_not_an_object(void **state)
{
    (void)state;
    load_fails_once(WITH_SIG("{\"id\": \"sig1\", \"cause\": \"c1\", \"literal\": \"boom\", \"pattern\": \"boom\", "
                             "\"samples\": []}"));
    assert_msg(&msgs, 0, OD_SEV_ERROR, "t.json", 4, 71, "/signatures/0/samples: expected an object");
}

static void test_samples_problems(void **state)
{
    (void)state;
    load_fails_once(WITH_SIG("{\"id\": \"sig1\", \"cause\": \"c1\", \"literal\": \"boom\", \"pattern\": \"boom\", "
                             "\"samples\": {\"match\": []}}"));
    assert_msg(&msgs, 0, OD_SEV_ERROR, "t.json", 4, 71,
               "/signatures/0/samples: \"match\" must list at least one real log line the signature matches");
    teardown(state);
    setup(state);
    load_fails_once(WITH_SIG("{\"id\": \"sig1\", \"cause\": \"c1\", \"literal\": \"boom\", \"pattern\": \"boom\"}"));
    assert_msg(&msgs, 0, OD_SEV_ERROR, "t.json", 4, 3,
               "/signatures/0: missing required key \"samples\": add {\"match\": [a real log line this signature "
               "must match]}");
    teardown(state);
    setup(state);
    load_fails_once(WITH_SIG("{\"id\": \"sig1\", \"cause\": \"c1\", \"literal\": \"boom\", \"pattern\": \"boom\", "
                             "\"samples\": {\"match\": [{\"line\": \"boom\", \"fields\": 3}]}}"));
    assert_msg(&msgs, 0, OD_SEV_ERROR, "t.json", 4, 110,
               "/signatures/0/samples/match/0/fields: \"fields\" must be an object of expected field values");
}

static void test_bad_role_and_missing_cause(void **state)
{
    (void)state;
    load_fails_once(WITH_SIG("{\"id\": \"sig1\", \"cause\": \"c1\", \"role\": \"boss\", \"literal\": \"boom\", "
                             "\"pattern\": \"boom\", \"samples\": {\"match\": [\"boom\"]}}"));
    assert_msg(&msgs, 0, OD_SEV_ERROR, "t.json", 4, 33,
               "/signatures/0/role: \"boss\" is not a valid role (use one of: root, consequence, confirmation, hint, "
               "progress, context, retry, error)");
    teardown(state);
    setup(state);
    load_fails_once(WITH_SIG("{\"id\": \"sig1\", \"literal\": \"boom\", \"pattern\": \"boom\", "
                             "\"samples\": {\"match\": [\"boom\"]}}"));
    assert_msg(
        &msgs, 0, OD_SEV_ERROR, "t.json", 4, 3,
        "/signatures/0: missing required key \"cause\" (only hint, progress and context signatures may omit it)");
    teardown(state);
    setup(state);
    /* A progress signature needs no cause. */
    assert_int_equal(load(WITH_SIG("{\"id\": \"sig1\", \"role\": \"progress\", \"literal\": \"step \", "
                                   "\"pattern\": \"step (?<step>\\\\d+)\", \"samples\": {\"match\": [\"step 1\"]}}")),
                     0);
    assert_int_equal(msgs.count, 0);
}

static void test_pcre2_compile_error(void **state)
{
    (void)state;
    /* Files named on the command line are compiled at load. */
    const char *path = TEST_DATA "/broken/pcre2-error.json";
    assert_int_equal(od_ruleset_add_path(rs, path), -1);
    assert_int_equal(msgs.count, 1);
    assert_msg(&msgs, 0, OD_SEV_ERROR, path, 13, 7,
               "/signatures/0/pattern: missing closing parenthesis (PCRE2 error 114)");
    assert_msg_source(&msgs, 0, "boom (?<n>\\d+", 13);
}

static void test_pcre2_error_offset_mid_pattern(void **state)
{
    (void)state;
    assert_int_equal(load_compiled(WITH_SIG(
                         "{\"id\": \"sig1\", \"cause\": \"c1\", \"literal\": \"boom\", \"pattern\": \"boom [a-\", "
                         "\"samples\": {\"match\": [\"boom\"]}}")),
                     -1);
    assert_int_equal(msgs.count, 1);
    assert_msg(&msgs, 0, OD_SEV_ERROR, "t.json", 4, 52,
               "/signatures/0/pattern: missing terminating ] for character class (PCRE2 error 106)");
    assert_msg_source(&msgs, 0, "boom [a-", 8);
    teardown(state);
    setup(state);
    assert_int_equal(load_compiled(WITH_SIG(
                         "{\"id\": \"sig1\", \"cause\": \"c1\", \"literal\": \"boom\", \"pattern\": \"boom a{2,1}x\", "
                         "\"samples\": {\"match\": [\"boom\"]}}")),
                     -1);
    assert_int_equal(msgs.count, 1);
    assert_msg(&msgs, 0, OD_SEV_ERROR, "t.json", 4, 52,
               "/signatures/0/pattern: numbers out of order in {} quantifier (PCRE2 error 104)");
    assert_msg_source(&msgs, 0, "boom a{2,1}x", 10);
}

static void test_pcre2_error_at_first_use(void **state)
{
    (void)state;
    /* Buffers (like the built-in rules) are compiled when first needed:
     * the error then comes from the matcher, with the same location. */
    assert_int_equal(
        load(WITH_SIG("{\"id\": \"sig1\", \"cause\": \"c1\", \"literal\": \"boom\", \"pattern\": \"boom (\", "
                      "\"samples\": {\"match\": [\"boom\"]}}")),
        0);
    assert_int_equal(od_ruleset_finish(rs), 0);
    assert_int_equal(msgs.count, 0);
    struct msgs seen;
    memset(&seen, 0, sizeof seen);
    struct msg_sink sink = {collect_msg, &seen, 0, 0};
    struct matcher *m = matcher_create(rs, &sink);
    assert_non_null(m);
    assert_int_equal(matcher_line(m, "boom (", 6, 0)->hit_count, 0);
    assert_int_equal(seen.count, 1);
    assert_msg(&seen, 0, OD_SEV_ERROR, "t.json", 4, 52,
               "signature \"sig1\": missing closing parenthesis (PCRE2 error 114)");
    assert_msg_source(&seen, 0, "boom (", 6);
    assert_null(rs->sigs[0]->rx); /* the ruleset is as it was */
    assert_null(matcher_sig_rx(m, rs->sigs[0]));
    /* Reported once. */
    assert_int_equal(matcher_line(m, "boom (", 6, 0)->hit_count, 0);
    assert_int_equal(seen.count, 1);
    matcher_free(m);
}

static void test_duplicate_signature_id(void **state)
{
    (void)state;
    const char *sig = WITH_SIG("{\"id\": \"dup\", \"cause\": \"c1\", \"literal\": \"boom\", \"pattern\": \"boom\", "
                               "\"samples\": {\"match\": [\"boom\"]}}");
    assert_int_equal(load_as("a.json", sig), 0);
    /* b.json redefines c1 too: rename it so that only the signature clashes. */
    char other[1024];
    snprintf(other, sizeof other, "%s", sig);
    memcpy(strstr(other, "\"c1\""), "\"c2\"", 4);
    memcpy(strstr(other, "\"c1\""), "\"c2\"", 4);
    assert_int_equal(load_as("b.json", other), -1);
    assert_int_equal(msgs.count, 1);
    assert_msg(&msgs, 0, OD_SEV_ERROR, "b.json", 4, 3,
               "/signatures/0: duplicate signature id \"dup\" (first defined at a.json:4:3)");
    assert_int_equal(rs->sig_count, 1);
}

static void test_duplicate_signature_id_same_file(void **state)
{
    (void)state;
    load_fails_once("{\"oomdiag_rules\": 1,\n"
                    " \"causes\": [" CAUSE_C1 "],\n"
                    " \"signatures\": [\n"
                    "  {\"id\": \"dup\", \"cause\": \"c1\", \"literal\": \"boom\", \"pattern\": \"boom\", "
                    "\"samples\": {\"match\": [\"boom\"]}},\n"
                    "    {\"id\": \"dup\", \"cause\": \"c1\", \"literal\": \"bang\", \"pattern\": \"bang\", "
                    "\"samples\": {\"match\": [\"bang\"]}}\n"
                    " ]}\n");
    assert_msg(&msgs, 0, OD_SEV_ERROR, "t.json", 5, 5,
               "/signatures/1: duplicate signature id \"dup\" (first defined at t.json:4:3)");
}

static void test_duplicate_cause_id(void **state)
{
    (void)state;
    const char *text = "{\"oomdiag_rules\": 1,\n"
                       " \"causes\": [" CAUSE_C1 "]}\n";
    assert_int_equal(load_as("a.json", text), 0);
    assert_int_equal(load_as("b.json", text), -1);
    assert_int_equal(msgs.count, 1);
    assert_msg(&msgs, 0, OD_SEV_ERROR, "b.json", 2, 13,
               "/causes/0: duplicate cause id \"c1\" (first defined at a.json:2:13)");
    assert_int_equal(rs->cause_count, 1);
}

static void test_unknown_cause_at_finish(void **state)
{
    (void)state;
    assert_int_equal(
        load(WITH_SIG("{\"id\": \"sig1\", \"cause\": \"nope\", \"literal\": \"boom\", \"pattern\": \"boom\", "
                      "\"samples\": {\"match\": [\"boom\"]}}")),
        0);
    assert_int_equal(msgs.count, 0);
    assert_int_equal(od_ruleset_finish(rs), -1);
    assert_int_equal(msgs.count, 1);
    assert_msg(&msgs, 0, OD_SEV_ERROR, "t.json", 4, 3,
               "signature \"sig1\": unknown cause \"nope\" (define it in a \"causes\" entry)");
    assert_false(msgs.items[0].has_source);
}

static void test_cause_in_another_file(void **state)
{
    (void)state;
    /* References are resolved at finish, across files, in any order. */
    assert_int_equal(load_as("sigs.json",
                             "{\"oomdiag_rules\": 1, \"signatures\": [{\"id\": \"sig1\", \"cause\": \"c1\", "
                             "\"literal\": \"boom\", \"pattern\": \"boom\", \"samples\": {\"match\": "
                             "[\"boom\"]}}]}"),
                     0);
    assert_int_equal(load_as("causes.json", "{\"oomdiag_rules\": 1, \"causes\": [" CAUSE_C1 "]}"), 0);
    assert_int_equal(od_ruleset_finish(rs), 0);
    assert_int_equal(msgs.count, 0);
    assert_ptr_equal(rs->sigs[0]->cause, ruleset_cause(rs, "c1"));
}

/* ---- causes ------------------------------------------------------------------------ */

static void test_bad_condition(void **state)
{
    (void)state;
    load_fails_once(WITH_STEP("{\"id\": \"s1\", \"action\": \"A\", \"when\": \"a >\"}", ""));
    assert_msg(&msgs, 0, OD_SEV_ERROR, "t.json", 4, 32,
               "/causes/0/remediation/0/when: bad condition: unexpected end of condition");
    assert_msg_source(&msgs, 0, "a >", 3);
    teardown(state);
    setup(state);
    load_fails_once(WITH_STEP("{\"id\": \"s1\", \"action\": \"A\"}", "{\"id\": \"v1\", \"when\": \"x >= 1 parsecs\"}"));
    assert_msg(&msgs, 0, OD_SEV_ERROR, "t.json", 5, 29,
               "/causes/0/variants/0/when: bad condition: unexpected text after the condition");
    assert_msg_source(&msgs, 0, "x >= 1 parsecs", 7);
}

static void test_bad_template(void **state)
{
    (void)state;
    load_fails_once(WITH_STEP("{\"id\": \"s1\", \"action\": \"Use {x\"}", ""));
    assert_msg(&msgs, 0, OD_SEV_ERROR, "t.json", 4, 17,
               "/causes/0/remediation/0/action: bad placeholder: write {name}, or {{ and }} for braces");
    assert_msg_source(&msgs, 0, "Use {x", 4);
    teardown(state);
    setup(state);
    load_fails_once(WITH_STEP("{\"id\": \"s1\", \"action\": \"A\", \"detail\": \"a } b\"}", ""));
    assert_msg(&msgs, 0, OD_SEV_ERROR, "t.json", 4, 32,
               "/causes/0/remediation/0/detail: bad placeholder: write {name}, or {{ and }} for braces");
    assert_msg_source(&msgs, 0, "a } b", 2);
}

static void test_variant_first_unknown_step(void **state)
{
    (void)state;
    load_fails_once(
        WITH_STEP("{\"id\": \"s1\", \"action\": \"A\"}", "{\"id\": \"v1\", \"first\": [\"s1\", \"nope\"]}"));
    assert_msg(&msgs, 0, OD_SEV_ERROR, "t.json", 5, 45,
               "/causes/0/variants/0/first/1: \"nope\" is not a remediation step id of cause \"c1\"");
    assert_int_equal(rs->cause_count, 0);
}

static void test_item_paths(void **state)
{
    (void)state;
    /* Every array walk names its element PATH/KEY/I, however deep. */
    assert_int_equal(load(WITH_STEP("\"x\", {\"id\": \"s1\", \"action\": \"A\"}",
                                    "{\"id\": \"v1\"}, {\"id\": \"v2\", \"summaries\": [{\"text\": \"S\"}, "
                                    "{\"text\": \"Use {x\"}]}")),
                     -1);
    if (msgs.count != 2)
        dump_msgs(&msgs);
    assert_int_equal(msgs.count, 2);
    assert_msg(&msgs, 0, OD_SEV_ERROR, "t.json", 4, 4, "/causes/0/remediation/0: expected an object");
    assert_string_equal(msgs.items[1].text, "/causes/0/variants/1/summaries/1/text: bad placeholder: write {name}, "
                                            "or {{ and }} for braces");
    teardown(state);
    setup(state);
    /* A pointer is cut at 255 bytes, not overrun. */
    char key[301], text[2048], want[256];
    memset(key, 'k', 300);
    key[300] = '\0';
    snprintf(text, sizeof text,
             "{\"oomdiag_rules\": 1, \"causes\": [" CAUSE_C1 "], \"signatures\": [{\"id\": \"s\", \"cause\": \"c1\", "
             "\"pattern\": \"boom\", \"samples\": {\"match\": [\"boom\"]}, \"%s\": 1}]}",
             key);
    assert_int_equal(load(text), 0);
    assert_int_equal(msgs.count, 1);
    snprintf(want, sizeof want, "/signatures/0/%s", key);
    assert_int_equal(strlen(want), 255);
    assert_memory_equal(msgs.items[0].text, want, 255);
    assert_int_equal(msgs.items[0].text[255], ':');
}

static void test_cause_problems(void **state)
{
    (void)state;
    load_fails_once("{\"oomdiag_rules\": 1,\n"
                    " \"causes\": [{\"id\": \"c1\", \"title\": \"T\", \"explanation\": \"E\"}]}\n");
    assert_msg(&msgs, 0, OD_SEV_ERROR, "t.json", 2, 13,
               "/causes/0: missing required key \"remediation\": list the fixes, cheapest and most likely first");
    teardown(state);
    setup(state);
    load_fails_once(WITH_STEP("{\"id\": \"s1\", \"action\": \"A\"}, {\"id\": \"s1\", \"action\": \"B\"}", ""));
    assert_msg(&msgs, 0, OD_SEV_ERROR, "t.json", 4, 33,
               "/causes/0/remediation/1: duplicate step id \"s1\" in this cause");
}

/* ---- ranks and dtypes ------------------------------------------------------------- */

static void test_rank_pattern_without_rank_group(void **state)
{
    (void)state;
    static const char *const patterns[] = {"rank(\\\\d+)\\\\.log", "rank(?<rnk>\\\\d+)", "(?<rank>\\\\d+)(?<x>a)"};
    for (size_t i = 0; i < 3; i++) {
        char text[512];
        snprintf(text, sizeof text,
                 "{\"oomdiag_rules\": 1,\n"
                 " \"ranks\": [{\"id\": \"r1\", \"from\": \"path\", \"pattern\": \"%s\"}]}\n",
                 patterns[i]);
        load_fails_once(text);
        assert_msg(&msgs, 0, OD_SEV_ERROR, "t.json", 2, 41,
                   "/ranks/0/pattern: a rank pattern must have exactly one named group, (?<rank>...)");
        teardown(state);
        setup(state);
    }
    assert_int_equal(load("{\"oomdiag_rules\": 1, \"ranks\": [{\"id\": \"r1\", \"from\": \"line\", "
                          "\"pattern\": \"^\\\\[rank(?<rank>\\\\d+)\\\\]\"}]}"),
                     0);
    assert_int_equal(rs->rank_count, 1);
    assert_int_equal(rs->ranks[0]->from_path, 0);
}

static void test_line_prefixes(void **state)
{
    (void)state;
    /* A prefix pattern starts with '^' and captures nothing. */
    load_fails_once("{\"oomdiag_rules\": 1,\n"
                    " \"line_prefixes\": [{\"id\": \"p1\", \"pattern\": \"> \"}]}\n");
    assert_msg(&msgs, 0, OD_SEV_ERROR, "t.json", 2, 33,
               "/line_prefixes/0/pattern: a line prefix pattern starts with '^' (it matches at the start of the line)");
    teardown(state);
    setup(state);
    load_fails_once("{\"oomdiag_rules\": 1,\n"
                    " \"line_prefixes\": [{\"id\": \"p1\", \"pattern\": \"^(?<q>>) \"}]}\n");
    assert_msg(&msgs, 0, OD_SEV_ERROR, "t.json", 2, 33,
               "/line_prefixes/0/pattern: a line prefix pattern captures nothing: no named groups");
    teardown(state);
    setup(state);
    load_fails_once(
        "{\"oomdiag_rules\": 1,\n"
        " \"line_prefixes\": [{\"id\": \"p1\", \"pattern\": \"^> \"}, {\"id\": \"p1\", \"pattern\": \"^# \"}]}\n");
    assert_int_equal(rs->prefix_count, 1);
    teardown(state);
    setup(state);
    assert_int_equal(load("{\"oomdiag_rules\": 1, \"line_prefixes\": [{\"id\": \"q\", \"pattern\": \"^> ?\", "
                          "\"samples\": {\"match\": [{\"line\": \"> Killed\", \"fields\": {\"rest\": \"Killed\"}}], "
                          "\"no_match\": [\"-> x\"]}}]}"),
                     0);
    assert_int_equal(rs->prefix_count, 1);
    assert_string_equal(rs->prefixes[0]->id, "q");
    assert_non_null(rs->prefixes[0]->rx);
    assert_int_equal(rs->prefixes[0]->sample_count, 1);
    assert_int_equal(rs->prefixes[0]->no_match_count, 1);
}

static void test_bad_dtype(void **state)
{
    (void)state;
    load_fails_once("{\"oomdiag_rules\": 1,\n"
                    " \"dtypes\": {\"float32\": 4, \"bad\": 0}}\n");
    assert_msg(&msgs, 0, OD_SEV_ERROR, "t.json", 2, 27,
               "/dtypes/bad: a dtype size must be a number of bytes between 1 and 64");
    assert_int_equal(ruleset_dtype_size(rs, "float32"), 4);
    assert_int_equal(ruleset_dtype_size(rs, "bad"), -1);
}

/* ---- literals ----------------------------------------------------------------------- */

static void test_literal_underivable(void **state)
{
    (void)state;
    static const char *const patterns[] = {"(?:a|b)coffee", "ab+c", "foo|barbaz", "[Cc]UDA error", "xy"};
    for (size_t i = 0; i < sizeof patterns / sizeof patterns[0]; i++) {
        char text[512];
        snprintf(
            text, sizeof text,
            WITH_SIG("{\"id\": \"sig1\", \"cause\": \"c1\", \"pattern\": \"%s\", \"samples\": {\"match\": [\"x\"]}}"),
            patterns[i]);
        load_fails_once(text);
        assert_msg(&msgs, 0, OD_SEV_ERROR, "t.json", 4, 3,
                   "/signatures/0: no literal can be derived from the pattern (it starts with a group, class or "
                   "alternation): add \"literal\", text every matching line contains");
        teardown(state);
        setup(state);
    }
}

static void test_literal_derived(void **state)
{
    (void)state;
    static const char *const cases[][2] = {
        {"^CUDA error: (?<what>.*)", "CUDA error: "},
        {"CUDA out of memory\\\\. Tried", "CUDA out of memory. Tried"},
        {"Killed process (?<pid>\\\\d+)", "Killed process "},
        {"abcd?", "abc"},
        {"segfault at [0-9a-f]+", "segfault at "},
        {"NCCL WARN\\\\s+x", "NCCL WARN"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char text[512];
        snprintf(
            text, sizeof text,
            WITH_SIG("{\"id\": \"sig1\", \"cause\": \"c1\", \"pattern\": \"%s\", \"samples\": {\"match\": [\"x\"]}}"),
            cases[i][0]);
        assert_int_equal(load(text), 0);
        assert_int_equal(rs->sig_count, 1);
        assert_int_equal(rs->sigs[0]->literal_count, 1);
        assert_string_equal(rs->sigs[0]->literals[0], cases[i][1]);
        teardown(state);
        setup(state);
    }
}

static void test_every_error_of_a_file_is_reported(void **state)
{
    (void)state;
    assert_int_equal(load("{\"oomdiag_rules\": 1,\n"
                          " \"causes\": [" CAUSE_C1 "],\n"
                          " \"signatures\": [\n"
                          "  {\"cause\": \"c1\", \"literal\": \"boom\", \"pattern\": \"boom\", \"samples\": "
                          "{\"match\": [\"boom\"]}},\n"
                          "  {\"id\": \"ok\", \"cause\": \"c1\", \"literal\": \"bang\", \"pattern\": \"bang\", "
                          "\"samples\": {\"match\": [\"bang\"]}},\n"
                          "  {\"id\": \"X\", \"cause\": \"c1\", \"literal\": \"pow\", \"pattern\": \"pow\", "
                          "\"samples\": {\"match\": [\"pow\"]}}\n"
                          " ]}\n"),
                     -1);
    assert_int_equal(msgs.count, 2);
    assert_int_equal(msgs.items[0].line, 4);
    assert_int_equal(msgs.items[1].line, 6);
    assert_int_equal(rs->sig_count, 1);
    assert_string_equal(rs->sigs[0]->id, "ok");
}

/* Every true/false key of SIG_KEYS: true sets its member (and its bit),
 * false clears it, anything else is an error at the key (so a new flag's
 * row is tested here without a test of its own). */
static void test_every_sig_flag(void **state)
{
    (void)state;
    for (size_t i = 0; i < sig_flag_count; i++) {
        const char *key = sig_flags[i].key;
        for (int v = 0; v < 3; v++) {
            char text[512];
            snprintf(text, sizeof text,
                     WITH_SIG("{\"id\": \"s\", \"cause\": \"c1\", \"role\": \"retry\", \"literal\": \"boom\", "
                              "\"pattern\": \"boom\", \"samples\": {\"match\": [\"boom\"]}, \"%s\": %s}"),
                     key,
                     v == 0   ? "false"
                     : v == 1 ? "true"
                              : "\"yes\"");
            teardown(NULL);
            setup(NULL);
            int rc = load(text);
            if (v == 2) {
                char want[128];
                snprintf(want, sizeof want, "\"%s\" must be true or false", key);
                assert_int_equal(rc, -1);
                assert_int_equal(msgs.count, 1);
                assert_non_null(strstr(msgs.items[0].text, want));
                continue;
            }
            if (rc != 0)
                dump_msgs(&msgs);
            assert_int_equal(rc, 0);
            const struct sig *sig = ruleset_sig(rs, "s");
            assert_non_null(sig);
            assert_int_equal(*(const int *)((const char *)sig + sig_flags[i].offset), v);
            assert_int_equal(sig_flag_bits(sig), (unsigned)v << i);
        }
    }
}

int main(void)
{
#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)
    const struct CMUnitTest tests[] = {
        T(test_good_file_loads),
        T(test_every_sig_flag),
        T(test_good_buffer_loads),
        T(test_highest_ruleset_version_wins),
        T(test_syntax_missing_comma),
        T(test_syntax_trailing_comma),
        T(test_syntax_trailing_comma_in_object),
        T(test_syntax_unterminated),
        T(test_syntax_unterminated_string),
        T(test_syntax_deep_nesting),
        T(test_nul_byte),
        T(test_not_an_object),
        T(test_missing_version),
        T(test_wrong_version),
        T(test_unknown_key_warning),
        T(test_unknown_key_in_signature),
        T(test_missing_id),
        T(test_bad_id_chars),
        T(test_pattern_not_a_string),
        T(test_literal_not_a_string),
        T(test_samples_not_an_object),
        T(test_samples_problems),
        T(test_bad_role_and_missing_cause),
        T(test_pcre2_compile_error),
        T(test_pcre2_error_offset_mid_pattern),
        T(test_pcre2_error_at_first_use),
        T(test_duplicate_signature_id),
        T(test_duplicate_signature_id_same_file),
        T(test_duplicate_cause_id),
        T(test_unknown_cause_at_finish),
        T(test_cause_in_another_file),
        T(test_bad_condition),
        T(test_bad_template),
        T(test_variant_first_unknown_step),
        T(test_item_paths),
        T(test_cause_problems),
        T(test_rank_pattern_without_rank_group),
        T(test_line_prefixes),
        T(test_bad_dtype),
        T(test_literal_underivable),
        T(test_literal_derived),
        T(test_every_error_of_a_file_is_reported),
    };
#undef T
    return cmocka_run_group_tests(tests, NULL, NULL);
}
