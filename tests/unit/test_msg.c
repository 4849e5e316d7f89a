#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "helpers.h"
#include "msg.h"

static void test_report_counts_and_delivers(void **state)
{
    (void)state;
    struct msgs ms = {0};
    struct msg_sink sink = {collect_msg, &ms, 0, 0};
    msg_report(&sink, OD_SEV_ERROR, "r.json", 3, 14, "  \"pattern\": \"(\"", 13, "bad %s at %d", "group", 14);
    msg_warn(&sink, "w.log", "odd %d", 1);
    msg_error(&sink, NULL, "no file");
    msg_report(&sink, OD_SEV_NOTE, NULL, 0, 0, NULL, 0, "just a note");
    assert_int_equal(sink.errors, 2);
    assert_int_equal(sink.warnings, 1);
    assert_int_equal(ms.count, 4);
    assert_msg(&ms, 0, OD_SEV_ERROR, "r.json", 3, 14, "bad group at 14");
    assert_msg_source(&ms, 0, "  \"pattern\": \"(\"", 13);
    assert_msg(&ms, 1, OD_SEV_WARNING, "w.log", 0, 0, "odd 1");
    assert_false(ms.items[1].has_source);
    assert_msg(&ms, 2, OD_SEV_ERROR, "", 0, 0, "no file");
    assert_msg(&ms, 3, OD_SEV_NOTE, "", 0, 0, "just a note");
}

/* With no callback the counts still add up (the caller asks them later). */
static void test_report_without_fn(void **state)
{
    (void)state;
    struct msg_sink sink = {NULL, NULL, 0, 0};
    msg_error(&sink, "x", "one");
    msg_error(&sink, "x", "two");
    msg_warn(&sink, "x", "three");
    assert_int_equal(sink.errors, 2);
    assert_int_equal(sink.warnings, 1);
}

/* A message is one line: control characters (from a file name or a rule)
 * become spaces, and a text longer than the buffer is cut, not overrun. */
static void test_text_is_one_line(void **state)
{
    (void)state;
    struct msgs ms = {0};
    struct msg_sink sink = {collect_msg, &ms, 0, 0};
    msg_error(&sink, "f", "a\nb\033[2Jc\x7f");
    assert_msg(&ms, 0, OD_SEV_ERROR, "f", 0, 0, "a b [2Jc ");
    char *big = malloc(5000);
    assert_non_null(big);
    memset(big, 'y', 4999);
    big[4999] = '\0';
    msg_error(&sink, "f", "%s", big);
    assert_int_equal(strlen(ms.items[1].text), 1023);
    free(big);
}

static char *print(const struct od_message *m, int color)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    assert_non_null(out);
    msg_print(out, m, color);
    fclose(out);
    return buf;
}

static void test_print_forms(void **state)
{
    (void)state;
    struct od_message m = {OD_SEV_ERROR, "rules/x.json", 4, 9, "unknown key", NULL, 0};
    char *s = print(&m, 0);
    assert_string_equal(s, "oomdiag: rules/x.json:4:9: error: unknown key\n");
    free(s);
    m = (struct od_message){OD_SEV_WARNING, "a.log", 0, 0, "cut", NULL, 0};
    s = print(&m, 0);
    assert_string_equal(s, "oomdiag: a.log: warning: cut\n");
    free(s);
    m = (struct od_message){OD_SEV_NOTE, NULL, 7, 7, "hello", NULL, 0};
    s = print(&m, 0);
    assert_string_equal(s, "oomdiag: note: hello\n"); /* no file: no location */
    free(s);
    /* Source line and caret; a tab in the source keeps the caret aligned,
     * the source stops at its first newline. */
    m = (struct od_message){OD_SEV_ERROR, "p", 1, 3, "here", "\tab(c\nrest", 3};
    s = print(&m, 0);
    assert_string_equal(s, "oomdiag: p:1:3: error: here\n     ab(c\n    \t  ^\n");
    free(s);
    /* A control character in the file name is shown as '?'. */
    m = (struct od_message){OD_SEV_ERROR, "a\033b", 0, 0, "t", NULL, 0};
    s = print(&m, 0);
    assert_string_equal(s, "oomdiag: a?b: error: t\n");
    free(s);
}

static void test_print_color(void **state)
{
    (void)state;
    struct od_message m = {OD_SEV_ERROR, NULL, 0, 0, "boom", NULL, 0};
    char *s = print(&m, 1);
    assert_string_equal(s, "oomdiag: \033[1;31merror\033[0m: boom\n");
    free(s);
    m.severity = OD_SEV_WARNING;
    s = print(&m, 1);
    assert_string_equal(s, "oomdiag: \033[1;33mwarning\033[0m: boom\n");
    free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_report_counts_and_delivers),
        cmocka_unit_test(test_report_without_fn),
        cmocka_unit_test(test_text_is_one_line),
        cmocka_unit_test(test_print_forms),
        cmocka_unit_test(test_print_color),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
