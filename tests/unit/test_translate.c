/* Translations: a language's texts replace the causes' and the words',
 * shipped ones first and the user's over them; --check-rules warns of
 * what is missing, unknown, or names a placeholder the English lacks. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "helpers.h"
#include "ruleset.h"
#include "translate.h"

static const char rules[] =
    "{\"oomdiag_rules\": 1, \"causes\": [{\"id\": \"c\", \"title\": \"Title\", \"explanation\": \"Expl\", "
    "\"summaries\": [{\"text\": \"Sum {n}\"}], \"variants\": [{\"id\": \"v\", \"title\": \"VT\", \"when\": \"n > "
    "1\"}], "
    "\"remediation\": [{\"id\": \"s\", \"action\": \"Act\", \"detail\": \"Det\"}]}], "
    "\"signatures\": [{\"id\": \"g\", \"cause\": \"c\", \"literal\": \"boom\", \"pattern\": \"boom (?<n>\\\\d+)\", "
    "\"samples\": {\"match\": [\"boom 2\"]}}]}";

static const char xx[] = "{\"causes\": {"
                         "\"c\": {\"title\": \"T-xx\", \"explanation\": \"\", \"summaries\": [\"S-xx {n} {nope}\"], "
                         "\"variants\": {\"v\": {\"title\": \"VT-xx\"}, \"w\": {\"title\": \"no such\"}}, "
                         "\"remediation\": {\"s\": {\"action\": \"A-xx\"}}},"
                         "\"ghost\": {\"title\": \"G\"}},"
                         "\"ui\": {\"root_cause\": \"RC-xx\", \"evidence\": \"EV {0}\", \"nonsense\": \"x\"}}";

static struct od_ruleset *load(struct msgs *ms, int builtin)
{
    struct od_ruleset *rs = od_ruleset_create(collect_msg, ms);
    assert_non_null(rs);
    if (builtin)
        assert_int_equal(od_ruleset_add_builtin(rs), 0);
    assert_int_equal(od_ruleset_add_buffer(rs, "t.json", rules, strlen(rules)), 0);
    assert_int_equal(od_ruleset_finish(rs), 0);
    return rs;
}

static int has_msg(const struct msgs *ms, const char *text)
{
    for (size_t i = 0; i < ms->count && i < MSGS_MAX; i++)
        if (strstr(ms->items[i].text, text) != NULL)
            return 1;
    dump_msgs(ms);
    print_error("no message with: %s\n", text);
    return 0;
}

static void test_apply(void **state)
{
    (void)state;
    struct msgs ms = {0};
    struct od_ruleset *rs = load(&ms, 0);
    cJSON *body = cJSON_Parse(xx);
    assert_non_null(body);
    assert_int_equal(translate_add(rs, "t-xx.json", "xx", body, 0), 0);
    struct od_words *w = NULL;
    /* English: nothing changes, no words. */
    assert_int_equal(translate_apply(rs, "en", &w), 0);
    assert_null(w);
    const struct cause *c = ruleset_cause(rs, "c");
    assert_string_equal(c->title, "Title");

    assert_int_equal(translate_apply(rs, "xx", &w), 0);
    assert_non_null(w);
    assert_string_equal(w->lang, "xx");
    assert_string_equal(words_text(w, &c->title), "T-xx");
    assert_string_equal(words_text(w, &c->explanation), "Expl"); /* an empty translation keeps the English */
    assert_string_equal(words_text(w, &c->summaries[0].text), "S-xx {n} {nope}");
    assert_string_equal(words_text(w, &c->variants[0].title), "VT-xx");
    assert_string_equal(words_text(w, &c->steps[0].action), "A-xx");
    assert_string_equal(words_text(w, &c->steps[0].detail), "Det");
    /* The rules themselves do not change: the translation is an overlay. */
    assert_string_equal(c->title, "Title");
    assert_string_equal(c->steps[0].action, words_text(NULL, &c->steps[0].action));
    assert_string_equal(words_get(w, W_ROOT_CAUSE), "RC-xx");
    /* A word with more placeholders than the English one is not taken. */
    assert_string_equal(words_get(w, W_EVIDENCE), "evidence:");
    words_free(w);
    od_ruleset_free(rs);
}

static void test_check(void **state)
{
    (void)state;
    struct msgs ms = {0};
    struct od_ruleset *rs = load(&ms, 0);
    assert_int_equal(translate_add(rs, "t-xx.json", "xx", cJSON_Parse(xx), 0), 0);
    size_t warnings = translate_check(rs);
    assert_true(warnings >= 6);
    assert_int_equal(ms.count, warnings);
    assert_true(has_msg(&ms, "xx: translation of cause \"ghost\", which no loaded rule file defines"));
    assert_true(has_msg(&ms, "names {nope}, which the English text does not"));
    assert_true(has_msg(&ms, "cause \"c\" variant \"w\": no such variant"));
    assert_true(has_msg(&ms, "cause \"c\": explanation has no xx translation"));
    assert_true(has_msg(&ms, "cause \"c\": remediation \"s\" detail has no xx translation"));
    assert_true(has_msg(&ms, "ui word \"consequence\" (CONSEQUENCE) has no translation"));
    for (size_t i = 0; i < ms.count && i < MSGS_MAX; i++) /* (the ones kept: one per ui word adds up) */
        assert_int_equal(ms.items[i].sev, OD_SEV_WARNING);
    /* No translation at all: nothing to say. */
    struct msgs ms2 = {0};
    struct od_ruleset *plain = load(&ms2, 0);
    assert_int_equal(translate_check(plain), 0);
    od_ruleset_free(plain);
    od_ruleset_free(rs);
}

/* The shipped translation applies to the shipped causes, and a user's
 * translation goes over it. */
static void test_builtin_then_user(void **state)
{
    (void)state;
    struct msgs ms = {0};
    struct od_ruleset *rs = load(&ms, 1);
    const char *user = "{\"ui\": {\"root_cause\": \"MINE\"}}";
    assert_int_equal(translate_add(rs, "mine.json", "zh-Hans", cJSON_Parse(user), 0), 0);
    struct od_words *w = NULL;
    assert_int_equal(translate_apply(rs, "zh-Hans", &w), 0);
    assert_non_null(w);
    assert_string_equal(words_get(w, W_ROOT_CAUSE), "MINE");
    const char *ev = words_get(w, W_EVIDENCE);
    assert_string_not_equal(ev, "evidence:"); /* the shipped word */
    int non_ascii = 0;
    for (size_t i = 0; i < rs->cause_count; i++)
        for (const char *p = words_text(w, &rs->causes[i]->title); *p; p++)
            non_ascii |= (unsigned char)*p >= 0x80;
    assert_true(non_ascii);
    words_free(w);
    /* A language nobody ships: nothing loaded, not an error. */
    size_t before = rs->translation_count;
    assert_int_equal(translate_load_builtin(rs, "tlh"), 0);
    assert_int_equal(rs->translation_count, before);
    od_ruleset_free(rs);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_apply),
        cmocka_unit_test(test_check),
        cmocka_unit_test(test_builtin_then_user),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
