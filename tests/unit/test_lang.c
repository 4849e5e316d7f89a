/* Languages: the choice from --lang and the locale variables, the words'
 * templates (placeholders, plurals, arity), and translations applied to a
 * ruleset and checked by --check-rules. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "helpers.h"
#include "lang.h"
#include "ruleset.h"
#include "translate.h"
#include "words.h"

/* ---- lang_choose ------------------------------------------------------- */

static const char *const *env_now;

static const char *fake_env(const char *name)
{
    for (const char *const *p = env_now; p && *p; p += 2)
        if (strcmp(p[0], name) == 0)
            return p[1];
    return NULL;
}

static const char *choose(const char *option, const char *const *env)
{
    env_now = env;
    return lang_choose(option, fake_env);
}

static void test_locale_names(void **state)
{
    (void)state;
    assert_string_equal(lang_of_locale("zh_CN.UTF-8"), "zh-Hans");
    assert_string_equal(lang_of_locale("zh_SG"), "zh-Hans");
    assert_string_equal(lang_of_locale("zh-Hans"), "zh-Hans");
    assert_string_equal(lang_of_locale("zh_Hans_CN"), "zh-Hans");
    assert_string_equal(lang_of_locale("zh"), "zh-Hans");
    assert_string_equal(lang_of_locale("zh_TW.UTF-8"), "en");
    assert_string_equal(lang_of_locale("zh-Hant"), "en");
    assert_string_equal(lang_of_locale("zh_HK"), "en");
    assert_string_equal(lang_of_locale("zhx"), "en");
    assert_string_equal(lang_of_locale("en_US.UTF-8"), "en");
    assert_string_equal(lang_of_locale("de_DE"), "en");
    assert_string_equal(lang_of_locale(""), "en");
}

static void test_choice_order(void **state)
{
    (void)state;
    static const char *const none[] = {NULL};
    static const char *const lang_zh[] = {"LANG", "zh_CN.UTF-8", NULL};
    static const char *const all_wins[] = {"LC_ALL", "en_US.UTF-8", "LC_MESSAGES", "zh_CN", "LANG", "zh_CN", NULL};
    static const char *const messages_wins[] = {"LC_MESSAGES", "zh_CN.UTF-8", "LANG", "en_US", NULL};
    static const char *const empty_all[] = {"LC_ALL", "", "LANG", "zh_CN.UTF-8", NULL};
    static const char *const language_list[] = {"LANG", "en_US.UTF-8", "LANGUAGE", "fr:zh_CN:en", NULL};
    static const char *const language_en_first[] = {"LANG", "zh_CN.UTF-8", "LANGUAGE", "en:zh_CN", NULL};
    static const char *const c_locale[] = {"LC_ALL", "C", "LANGUAGE", "zh_CN", NULL};
    static const char *const c_utf8[] = {"LANG", "C.UTF-8", "LANGUAGE", "zh_CN", NULL};
    static const char *const language_alone[] = {"LANGUAGE", "zh_CN", NULL};
    assert_string_equal(choose(NULL, none), "en");
    assert_string_equal(choose(NULL, lang_zh), "zh-Hans");
    assert_string_equal(choose(NULL, all_wins), "en");
    assert_string_equal(choose(NULL, messages_wins), "zh-Hans");
    assert_string_equal(choose(NULL, empty_all), "zh-Hans");
    assert_string_equal(choose(NULL, language_list), "zh-Hans");
    assert_string_equal(choose(NULL, language_en_first), "en");
    assert_string_equal(choose(NULL, c_locale), "en");
    assert_string_equal(choose(NULL, c_utf8), "en");
    assert_string_equal(choose(NULL, language_alone), "en"); /* no locale set: C */
    assert_string_equal(choose("en", lang_zh), "en");
    assert_string_equal(choose("zh-Hans", none), "zh-Hans");
}

/* ---- words ------------------------------------------------------------- */

static char *put(const struct od_words *w, enum od_word word, size_t n, const char *const *args)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    words_put(f, w, word, n, args);
    fclose(f);
    return buf;
}

static void test_words_english_plurals(void **state)
{
    (void)state;
    const char *one[] = {"a.log", "1", "0", "1"};
    const char *many[] = {"a.log", "2", "1", "12"};
    char *s = put(NULL, W_JOB_HEADLINE, 4, one);
    assert_string_equal(s, "a.log: 1 root cause, 0 consequences (1 line read)");
    free(s);
    s = put(NULL, W_JOB_HEADLINE, 4, many);
    assert_string_equal(s, "a.log: 2 root causes, 1 consequence (12 lines read)");
    free(s);
    const char *ranks[] = {"2", "0, 3"};
    s = put(NULL, W_ON_RANKS, 2, ranks);
    assert_string_equal(s, " on ranks 0, 3");
    free(s);
}

static void test_words_translated_and_missing_args(void **state)
{
    (void)state;
    struct od_words *w = calloc(1, sizeof *w);
    assert_non_null(w);
    w->text[W_JOB_HEADLINE] = strdup("{0}：{1} 个根本原因，{2} 个后果（已读取 {3} 行）");
    w->text[W_EVIDENCE] = strdup("证据 {5}：{ 未闭合");
    const char *args[] = {"a.log", "1", "0", "7"};
    char *s = put(w, W_JOB_HEADLINE, 4, args);
    assert_string_equal(s, "a.log：1 个根本原因，0 个后果（已读取 7 行）");
    free(s);
    s = put(w, W_EVIDENCE, 0, NULL); /* a missing argument is empty; a stray brace stays */
    assert_string_equal(s, "证据 ：{ 未闭合");
    free(s);
    s = put(w, W_WHAT_TO_DO, 0, NULL); /* untranslated: English */
    assert_string_equal(s, "what to do:");
    free(s);
    words_free(w);
}

static void test_words_arity(void **state)
{
    (void)state;
    assert_int_equal(words_arity("plain"), 0);
    assert_int_equal(words_arity("{0} and {2|x|y}"), 3);
    assert_int_equal(words_arity("{x}"), -1);
    assert_int_equal(words_arity("{0"), -1);
    assert_int_equal(words_find("evidence"), W_EVIDENCE);
    assert_int_equal(words_find("nope"), -1);
    for (int i = 0; i < W_COUNT; i++) {
        assert_non_null(words_key((enum od_word)i));
        assert_true(words_arity(words_english((enum od_word)i)) >= 0);
    }
}

/* ---- translations ------------------------------------------------------ */

static const char rules_text[] =
    "{\"oomdiag_rules\": 1, \"causes\": [{\"id\": \"jam\", \"title\": \"Jammed\", \"explanation\": \"It jammed.\","
    " \"summaries\": [{\"when\": \"has(n)\", \"text\": \"Part {n} jammed.\"}, {\"text\": \"A part jammed.\"}],"
    " \"variants\": [{\"id\": \"hard\", \"when\": \"has(n)\", \"title\": \"Hard jam\"}],"
    " \"remediation\": [{\"id\": \"oil\", \"action\": \"Oil it.\", \"detail\": \"Lightly.\"}]}],"
    " \"signatures\": [{\"id\": \"jam-line\", \"cause\": \"jam\", \"literal\": \"jammed\", \"pattern\": \"part "
    "(?<n>\\\\d+) jammed\", \"samples\": {\"match\": [\"part 3 jammed\"]}}],"
    " \"translations\": {\"zh-Hans\": {\"causes\": {\"jam\": {\"title\": \"卡住\", \"summaries\": [\"零件 {n} "
    "卡住。\"], \"variants\": {\"hard\": {\"title\": \"严重卡住\"}}, \"remediation\": {\"oil\": {\"action\": "
    "\"上油。\"}}}}}}}";

static struct od_ruleset *load(struct msgs *msgs)
{
    struct od_ruleset *rs = od_ruleset_create(collect_msg, msgs);
    assert_non_null(rs);
    assert_int_equal(od_ruleset_add_buffer(rs, "t.json", rules_text, strlen(rules_text)), 0);
    assert_int_equal(od_ruleset_finish(rs), 0);
    return rs;
}

static void test_apply_overlays_texts(void **state)
{
    (void)state;
    struct msgs msgs = {0};
    struct od_ruleset *rs = load(&msgs);
    struct od_words *w = NULL;
    assert_int_equal(translate_apply(rs, "zh-Hans", &w), 0);
    assert_non_null(w);
    const struct cause *c = ruleset_cause(rs, "jam");
    assert_string_equal(words_text(w, &c->title), "卡住");
    assert_string_equal(words_text(w, &c->explanation), "It jammed."); /* untranslated stays English */
    assert_string_equal(words_text(w, &c->summaries[0].text), "零件 {n} 卡住。");
    assert_string_equal(words_text(w, &c->summaries[1].text), "A part jammed.");
    assert_string_equal(words_text(w, &c->variants[0].title), "严重卡住");
    assert_string_equal(words_text(w, &c->steps[0].action), "上油。");
    assert_string_equal(words_text(w, &c->steps[0].detail), "Lightly.");
    assert_string_equal(c->title, "Jammed");    /* the rules stay English: the language is an overlay */
    assert_int_equal(rs->translation_count, 1); /* and the shipped files were not kept in them */
    /* the shipped words came with the language */
    assert_string_equal(words_get(w, W_ROOT_CAUSE), "根本原因");
    words_free(w);
    od_ruleset_free(rs);
}

static void test_english_changes_nothing(void **state)
{
    (void)state;
    struct msgs msgs = {0};
    struct od_ruleset *rs = load(&msgs);
    struct od_words *w = (struct od_words *)1;
    assert_int_equal(translate_apply(rs, "en", &w), 0);
    assert_null(w);
    assert_string_equal(ruleset_cause(rs, "jam")->title, "Jammed");
    assert_int_equal(rs->translation_count, 1); /* the shipped files were not parsed */
    od_ruleset_free(rs);
}

static void test_check_reports_missing(void **state)
{
    (void)state;
    struct msgs msgs = {0};
    struct od_ruleset *rs = load(&msgs);
    assert_int_equal(translate_load_builtin(rs, NULL), 0);
    /* explanation, summary 1 and the step's detail are untranslated */
    assert_int_equal(translate_check(rs), 3);
    od_ruleset_free(rs);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_locale_names),
        cmocka_unit_test(test_choice_order),
        cmocka_unit_test(test_words_english_plurals),
        cmocka_unit_test(test_words_translated_and_missing_args),
        cmocka_unit_test(test_words_arity),
        cmocka_unit_test(test_apply_overlays_texts),
        cmocka_unit_test(test_english_changes_nothing),
        cmocka_unit_test(test_check_reports_missing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
