#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "fields.h"

static void test_set_get_replace(void **state)
{
    (void)state;
    struct od_fields f;
    fields_init(&f);
    assert_null(fields_get(&f, "rank"));
    assert_int_equal(fields_set_num(&f, "rank", OD_FIELD_INT, 3), 0);
    assert_int_equal(fields_set_str(&f, "device", "cuda:0 and more", 6), 0);
    const struct od_field *r = fields_get(&f, "rank");
    assert_non_null(r);
    assert_int_equal(r->type, OD_FIELD_INT);
    assert_int_equal(r->num, 3);
    const struct od_field *d = fields_get(&f, "device");
    assert_int_equal(d->type, OD_FIELD_STRING);
    assert_string_equal(d->str, "cuda:0"); /* LEN bytes, not the whole string */
    /* Setting again replaces, also across types: one field per name. */
    assert_int_equal(fields_set_num(&f, "device", OD_FIELD_BYTES, 1024), 0);
    assert_int_equal(f.count, 2);
    d = fields_get(&f, "device");
    assert_int_equal(d->type, OD_FIELD_BYTES);
    assert_int_equal(d->num, 1024);
    assert_int_equal(fields_set_str(&f, "rank", "seven", 5), 0);
    assert_string_equal(fields_get(&f, "rank")->str, "seven");
    assert_int_equal(f.count, 2);
    assert_null(fields_get(&f, "ran")); /* whole names only */
    fields_free(&f);
    assert_int_equal(f.count, 0);
    assert_null(fields_get(&f, "rank"));
}

/* A captured string is safe text: control bytes do not survive, and it is
 * bounded however long the capture. */
static void test_str_is_safe_and_bounded(void **state)
{
    (void)state;
    struct od_fields f;
    fields_init(&f);
    assert_int_equal(fields_set_str(&f, "s", "a\033[31mb\nc", 10), 0);
    const char *s = fields_get(&f, "s")->str;
    assert_null(strchr(s, '\033'));
    assert_null(strchr(s, '\n'));
    assert_non_null(strchr(s, 'a'));
    assert_non_null(strchr(s, 'c'));
    static char big[100000];
    memset(big, 'x', sizeof big);
    assert_int_equal(fields_set_str(&f, "big", big, sizeof big), 0);
    size_t n = strlen(fields_get(&f, "big")->str);
    assert_true(n > 0);
    assert_true(n <= 1024 + 4);
    fields_free(&f);
}

static void test_many(void **state)
{
    (void)state;
    struct od_fields f;
    fields_init(&f);
    char name[16];
    for (int i = 0; i < 300; i++) {
        snprintf(name, sizeof name, "f%d", i);
        assert_int_equal(fields_set_num(&f, name, OD_FIELD_INT, i * 2), 0);
    }
    assert_int_equal(f.count, 300);
    for (int i = 0; i < 300; i += 37) {
        snprintf(name, sizeof name, "f%d", i);
        assert_int_equal(fields_get(&f, name)->num, i * 2);
    }
    fields_free(&f);
}

/* Names that share their first bytes, and the empty name, are told apart. */
static void test_names_with_a_common_start(void **state)
{
    (void)state;
    static const char *const names[] = {"reserved_bytes", "requested_bytes", "rank", "r", "ranks", ""};
    struct od_fields f;
    fields_init(&f);
    for (int i = 0; i < 6; i++)
        assert_int_equal(fields_set_num(&f, names[i], OD_FIELD_INT, i), 0);
    for (int i = 5; i >= 0; i--) {
        assert_int_equal(fields_get(&f, names[i])->num, i);
        assert_int_equal(fields_set_num(&f, names[i], OD_FIELD_INT, 10 + i), 0); /* replaced, not added */
    }
    assert_int_equal(f.count, 6);
    assert_int_equal(fields_get(&f, "r")->num, 13);
    assert_int_equal(fields_get(&f, "")->num, 15);
    assert_null(fields_get(&f, "re"));
    assert_null(fields_get(&f, "rank_"));
    assert_null(fields_get(&f, "x"));
    fields_free(&f);
}

static void test_merge_missing_keeps_first(void **state)
{
    (void)state;
    struct od_fields a, b;
    fields_init(&a);
    fields_init(&b);
    fields_set_num(&a, "rank", OD_FIELD_INT, 1);
    fields_set_num(&b, "rank", OD_FIELD_INT, 9);
    fields_set_str(&b, "dtype", "float16", 7);
    fields_set_num(&b, "requested", OD_FIELD_BYTES, 4096);
    assert_int_equal(fields_merge_missing(&a, &b), 0);
    assert_int_equal(a.count, 3);
    assert_int_equal(fields_get(&a, "rank")->num, 1); /* the first wins */
    assert_string_equal(fields_get(&a, "dtype")->str, "float16");
    assert_int_equal(fields_get(&a, "requested")->type, OD_FIELD_BYTES);
    /* The copy owns its strings: freeing the source leaves it whole. */
    fields_free(&b);
    assert_string_equal(fields_get(&a, "dtype")->str, "float16");
    fields_free(&a);
}

static void test_copy_replaces(void **state)
{
    (void)state;
    struct od_fields a, b;
    fields_init(&b);
    fields_set_str(&b, "new", "x", 1);
    fields_set_num(&b, "n", OD_FIELD_INT, -5);
    assert_int_equal(fields_copy(&a, &b), 0); /* A need not be initialised */
    assert_int_equal(a.count, 2);
    assert_string_equal(fields_get(&a, "new")->str, "x");
    assert_int_equal(fields_get(&a, "n")->num, -5);
    fields_free(&b);
    assert_string_equal(fields_get(&a, "new")->str, "x");
    fields_free(&a);
    /* An empty source copies to an empty list. */
    fields_init(&a);
    fields_init(&b);
    assert_int_equal(fields_copy(&a, &b), 0);
    assert_int_equal(a.count, 0);
    fields_free(&a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_set_get_replace),
        cmocka_unit_test(test_str_is_safe_and_bounded),
        cmocka_unit_test(test_many),
        cmocka_unit_test(test_names_with_a_common_start),
        cmocka_unit_test(test_merge_missing_keeps_first),
        cmocka_unit_test(test_copy_replaces),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
