/* The rule data: signatures and causes looked up by id (many of them, so
 * the index grows), files interned once, dtype sizes, a signature whose
 * cause nobody defines, the version, and locations reported at the key. */
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

/* N causes c0..cN-1, each with one signature sI. */
static char *many_rules(int n)
{
    size_t size = 256 + (size_t)n * 300, o = 0;
    char *s = malloc(size);
    assert_non_null(s);
    o += (size_t)snprintf(s + o, size - o, "{\"oomdiag_rules\": 1, \"ruleset_version\": \"v-7\", \"causes\": [");
    for (int i = 0; i < n; i++)
        o += (size_t)snprintf(s + o, size - o,
                              "%s{\"id\": \"c%d\", \"title\": \"T%d\", \"explanation\": \"E\", \"remediation\": "
                              "[{\"id\": \"s\", \"action\": \"A\"}]}",
                              i ? ", " : "", i, i);
    o += (size_t)snprintf(s + o, size - o, "], \"signatures\": [");
    for (int i = 0; i < n; i++)
        o += (size_t)snprintf(s + o, size - o,
                              "%s{\"id\": \"s%d\", \"cause\": \"c%d\", \"literal\": \"boom%d\", \"pattern\": "
                              "\"boom%d\", \"samples\": {\"match\": [\"boom%d\"]}}",
                              i ? ", " : "", i, i, i, i, i);
    snprintf(s + o, size - o, "]}");
    return s;
}

static void test_lookups(void **state)
{
    (void)state;
    struct msgs ms = {0};
    struct od_ruleset *rs = od_ruleset_create(collect_msg, &ms);
    assert_string_equal(od_ruleset_version(rs), "none");
    char *text = many_rules(300);
    assert_int_equal(od_ruleset_add_buffer(rs, "many.json", text, strlen(text)), 0);
    free(text);
    assert_int_equal(od_ruleset_finish(rs), 0);
    assert_int_equal(rs->sig_count, 300);
    assert_int_equal(rs->cause_count, 300);
    assert_string_equal(od_ruleset_version(rs), "v-7");
    for (int i = 0; i < 300; i += 13) {
        char id[16];
        snprintf(id, sizeof id, "s%d", i);
        const struct sig *s = ruleset_sig(rs, id);
        assert_non_null(s);
        assert_string_equal(s->id, id);
        assert_int_equal(s->index, (size_t)i);
        assert_ptr_equal(rs->sigs[s->index], s);
        snprintf(id, sizeof id, "c%d", i);
        assert_ptr_equal(s->cause, ruleset_cause(rs, id)); /* resolved at finish */
        char title[16];
        snprintf(title, sizeof title, "T%d", i);
        assert_string_equal(ruleset_cause(rs, id)->title, title);
    }
    assert_null(ruleset_sig(rs, "s300"));
    assert_null(ruleset_sig(rs, ""));
    assert_null(ruleset_cause(rs, "c-1"));
    assert_null(ruleset_cause(rs, NULL));
    od_ruleset_free(rs);
}

static void test_intern_and_dtypes(void **state)
{
    (void)state;
    struct od_ruleset *rs = od_ruleset_create(NULL, NULL);
    const char *a = ruleset_intern_file(rs, "rules/a.json");
    char name[] = "rules/a.json";
    assert_ptr_equal(ruleset_intern_file(rs, name), a); /* once per name */
    assert_ptr_not_equal(ruleset_intern_file(rs, "rules/b.json"), a);
    assert_string_equal(a, "rules/a.json");
    for (int i = 0; i < 40; i++) {
        char n[32];
        snprintf(n, sizeof n, "f%d.json", i);
        assert_non_null(ruleset_intern_file(rs, n));
    }
    assert_ptr_equal(ruleset_intern_file(rs, "rules/a.json"), a); /* stable as the table grows */

    long long before = ruleset_dtype_size(rs, "float8_test");
    assert_int_equal(ruleset_add_dtype(rs, "float8_test", 1), 0);
    assert_int_equal(ruleset_dtype_size(rs, "float8_test"), 1);
    assert_int_equal(ruleset_add_dtype(rs, "float8_test", 2), 0); /* a later definition wins */
    assert_int_equal(ruleset_dtype_size(rs, "float8_test"), 2);
    assert_true(before < 0);
    od_ruleset_free(rs);
}

static void test_unknown_cause_located(void **state)
{
    (void)state;
    static const char text[] = "{\n"
                               "  \"oomdiag_rules\": 1,\n"
                               "  \"signatures\": [\n"
                               "    {\"id\": \"orphan\", \"cause\": \"nobody\", \"literal\": \"xx\", \"pattern\": "
                               "\"xx\", \"samples\": {\"match\": [\"xx\"]}}\n"
                               "  ]\n"
                               "}\n";
    struct msgs ms = {0};
    struct od_ruleset *rs = od_ruleset_create(collect_msg, &ms);
    assert_int_equal(od_ruleset_add_buffer(rs, "o.json", text, strlen(text)), 0);
    assert_int_equal(od_ruleset_finish(rs), -1);
    assert_int_equal(ms.count, 1);
    assert_msg(&ms, 0, OD_SEV_ERROR, "o.json", 4, 5,
               "signature \"orphan\": unknown cause \"nobody\" (define it in a \"causes\" entry)");
    od_ruleset_free(rs);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lookups),
        cmocka_unit_test(test_intern_and_dtypes),
        cmocka_unit_test(test_unknown_cause_located),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
