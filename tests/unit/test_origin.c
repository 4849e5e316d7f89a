/* Origins: a JSON pointer in a rule file's text, located only when a
 * message needs it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "helpers.h"
#include "origin.h"

static const char text[] = "{\"signatures\": [\n"
                           "  {\"id\": \"a\"},\n"
                           "  {\"id\": \"b\", \"pattern\": \"x\"}\n"
                           "]}\n";

static void test_locate(void **state)
{
    (void)state;
    char path[] = "/signatures/1/pattern";
    struct origin o = {"t.json", text, sizeof text - 1, path};
    unsigned long line, col;
    origin_locate(&o, &line, &col);
    assert_int_equal(line, 3);
    assert_int_equal(col, 15); /* the key */
    /* No text (an item from the image without its file), no path: unknown. */
    struct origin none = {"t.json", NULL, 0, path};
    origin_locate(&none, &line, &col);
    assert_int_equal(line, 0);
    assert_int_equal(col, 0);
    struct origin no_path = {"t.json", text, sizeof text - 1, NULL};
    origin_locate(&no_path, &line, &col);
    assert_int_equal(line, 0);
}

static void test_report(void **state)
{
    (void)state;
    struct msgs ms;
    memset(&ms, 0, sizeof ms);
    struct msg_sink sink = {collect_msg, &ms, 0, 0};
    char path[] = "/signatures/0";
    struct origin o = {"t.json", text, sizeof text - 1, path};
    origin_report(&sink, OD_SEV_ERROR, &o, NULL, 0, "signature \"%s\": %d", "a", 7);
    assert_int_equal(ms.count, 1);
    assert_msg(&ms, 0, OD_SEV_ERROR, "t.json", 2, 3, "signature \"a\": 7");
    assert_int_equal(sink.errors, 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_locate),
        cmocka_unit_test(test_report),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
