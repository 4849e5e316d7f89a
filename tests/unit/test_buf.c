/* The bounded buffer: growth, the ceiling, handing the text over. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "buf.h"

static void test_grows_and_stays_terminated(void **state)
{
    (void)state;
    struct buf b;
    buf_init(&b, 1 << 20);
    assert_null(b.data);
    for (int i = 0; i < 1000; i++)
        assert_int_equal(buf_add(&b, "abc", 3), 0);
    assert_int_equal(b.len, 3000);
    assert_true(b.cap > b.len);
    assert_int_equal(b.data[b.len], '\0');
    assert_memory_equal(b.data + 2997, "abc", 3);
    size_t len = 0;
    char *text = buf_take(&b, &len);
    assert_int_equal(len, 3000);
    assert_int_equal(strlen(text), 3000);
    assert_null(b.data); /* empty again, the text is the caller's */
    assert_int_equal(b.len, 0);
    free(text);
    buf_free(&b);
}

static void test_empty_add_makes_empty_text(void **state)
{
    (void)state;
    struct buf b;
    buf_init(&b, 16);
    assert_null(buf_take(&b, NULL)); /* nothing added: no text */
    assert_int_equal(buf_add(&b, NULL, 0), 0);
    char *text = buf_take(&b, NULL);
    assert_non_null(text);
    assert_string_equal(text, "");
    free(text);
}

static void test_ceiling(void **state)
{
    (void)state;
    struct buf b;
    buf_init(&b, 10);
    assert_int_equal(buf_add(&b, "0123456", 7), 0);
    assert_int_equal(buf_add(&b, "7890", 4), -1); /* 11 > 10: refused whole */
    assert_int_equal(b.len, 7);
    assert_string_equal(b.data, "0123456");
    assert_int_equal(buf_add(&b, "789", 3), 0); /* exactly the ceiling */
    assert_string_equal(b.data, "0123456789");
    assert_int_equal(buf_add(&b, "x", 1), -1);
    assert_int_equal(buf_add(&b, "", 0), 0);
    buf_free(&b);
    assert_null(b.data);
    assert_int_equal(b.max, 10); /* the ceiling stays for reuse */
    assert_int_equal(buf_add(&b, "x", 1), 0);
    buf_free(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_grows_and_stays_terminated),
        cmocka_unit_test(test_empty_add_makes_empty_text),
        cmocka_unit_test(test_ceiling),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
