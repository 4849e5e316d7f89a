#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "words.h"

static char *put(const struct od_words *w, enum od_word word, size_t n, const char *const *args)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    assert_non_null(out);
    words_put(out, w, word, n, args);
    fclose(out);
    return buf;
}

/* Every word has a unique key, an English template that parses, and the
 * key finds the word again. */
static void test_table(void **state)
{
    (void)state;
    for (int i = 0; i < W_COUNT; i++) {
        const char *key = words_key((enum od_word)i);
        assert_non_null(key);
        assert_non_null(words_english((enum od_word)i));
        assert_true(words_arity(words_english((enum od_word)i)) >= 0);
        assert_int_equal(words_find(key), i);
        for (int k = 0; k < i; k++)
            assert_string_not_equal(words_key((enum od_word)k), key);
    }
    assert_null(words_key(W_COUNT));
    assert_null(words_english(W_COUNT));
    assert_null(words_key((enum od_word) - 1));
    assert_int_equal(words_find("no_such_word"), -1);
    assert_int_equal(words_find(""), -1);
    assert_string_equal(words_get(NULL, W_ROOT_CAUSE), "ROOT CAUSE");
}

static void test_put_plurals(void **state)
{
    (void)state;
    const char *one[] = {"job.log", "1", "0", "1"};
    char *s = put(NULL, W_JOB_HEADLINE, 4, one);
    assert_string_equal(s, "job.log: 1 root cause, 0 consequences (1 line read)");
    free(s);
    const char *many[] = {"job.log", "2", "1", "1234"};
    s = put(NULL, W_JOB_HEADLINE, 4, many);
    assert_string_equal(s, "job.log: 2 root causes, 1 consequence (1234 lines read)");
    free(s);
    /* A missing argument is empty (and plural). */
    s = put(NULL, W_JOB_HEADLINE, 1, many);
    assert_string_equal(s, "job.log:  root causes,  consequences ( lines read)");
    free(s);
}

static void test_translated(void **state)
{
    (void)state;
    struct od_words *w = calloc(1, sizeof *w);
    assert_non_null(w);
    w->lang = strdup("xx");
    w->text[W_ROOT_CAUSE] = strdup("RC {{literal} {0|eins|viele}");
    w->text[W_TRACE] = strdup("{0} {9} {x} {1");
    assert_string_equal(words_get(w, W_EVIDENCE), "evidence:"); /* untranslated: English */
    const char *args[] = {"1"};
    char *s = put(w, W_ROOT_CAUSE, 1, args);
    assert_string_equal(s, "RC {{literal} eins");
    free(s);
    /* A brace that is not a placeholder is written as it is. */
    s = put(w, W_TRACE, 1, args);
    assert_string_equal(s, "1  {x} {1");
    free(s);
    words_free(w);
    words_free(NULL);
}

static void test_arity(void **state)
{
    (void)state;
    assert_int_equal(words_arity("no placeholders"), 0);
    assert_int_equal(words_arity("{0}"), 1);
    assert_int_equal(words_arity("{2|a|b} and {0}"), 3);
    assert_int_equal(words_arity("{0|one}"), 1);
    assert_int_equal(words_arity("{0"), -1);
    assert_int_equal(words_arity("{x}"), -1);
    assert_int_equal(words_arity("{}"), -1);
    assert_int_equal(words_arity("{0 }"), -1);
}

/* The rules' texts in a language: an overlay keyed by the English text's
 * field; a later translation goes over an earlier one, and a field none
 * translates (or no words at all) reads as English. */
static void test_rule_texts(void **state)
{
    (void)state;
    char *fields[3] = {"Title", "Explanation", "Action"};
    struct od_words *w = calloc(1, sizeof *w);
    assert_non_null(w);
    assert_string_equal(words_text(w, &fields[0]), "Title"); /* nothing added yet */
    assert_int_equal(words_add_text(w, &fields[2], "A-xx"), 0);
    assert_int_equal(words_add_text(w, &fields[0], "T-shipped"), 0);
    assert_int_equal(words_add_text(w, &fields[0], "T-user"), 0);
    words_seal(w);
    assert_string_equal(words_text(w, &fields[0]), "T-user");
    assert_string_equal(words_text(w, &fields[1]), "Explanation");
    assert_string_equal(words_text(w, &fields[2]), "A-xx");
    assert_ptr_equal(words_text(NULL, &fields[0]), fields[0]);
    assert_string_equal(fields[0], "Title"); /* the English text is untouched */
    words_free(w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_table), cmocka_unit_test(test_put_plurals), cmocka_unit_test(test_translated),
        cmocka_unit_test(test_arity), cmocka_unit_test(test_rule_texts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
