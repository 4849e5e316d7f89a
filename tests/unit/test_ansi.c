/* ansi_strip: terminal escape sequences removed, everything else kept. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "ansi.h"

/* Strips IN (LEN bytes, may hold NULs) and checks the result is exactly
 * EXPECT (ELEN bytes). */
static void check_n(const char *in, size_t len, const char *expect, size_t elen)
{
    char out[512];
    assert_true(len <= sizeof out);
    memset(out, 0x55, sizeof out);
    size_t n = ansi_strip(in, len, out);
    assert_int_equal(n, elen);
    assert_memory_equal(out, expect, elen);
}

static void check(const char *in, const char *expect)
{
    check_n(in, strlen(in), expect, strlen(expect));
}

static void test_colour_codes(void **state)
{
    (void)state;
    check("\x1b[31mred\x1b[0m text", "red text");
    check("\x1b[1;32;40mX\x1b[m", "X");
    check("a\x1b[38;5;196mb\x1b[38;2;255;0;0mc", "abc");
    check("[rank0]: \x1b[31mtorch.OutOfMemoryError\x1b[0m: CUDA out of memory.",
          "[rank0]: torch.OutOfMemoryError: CUDA out of memory.");
}

static void test_cursor_moves(void **state)
{
    (void)state;
    check("\x1b[2K\x1b[1Gprogress 50%", "progress 50%");
    check("\x1b[?25lhidden\x1b[?25h", "hidden");
    check("up\x1b[3Adown", "updown");
}

static void test_osc_title_bel(void **state)
{
    (void)state;
    check("\x1b]0;my title\x07"
          "after",
          "after");
    check("before\x1b]2;t\x07", "before");
}

static void test_osc_title_st(void **state)
{
    (void)state;
    check("\x1b]2;title\x1b\\after", "after");
    /* An OSC 8 hyperlink: both halves go, the link text stays. */
    check("\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\ end", "link end");
}

static void test_charset_designation(void **state)
{
    (void)state;
    check("\x1b(Bplain", "plain");
    check("a\x1b(0q\x1b(Bb", "aqb");
    check("x\x1b"
          "7y\x1b"
          "8z",
          "xyz"); /* save / restore cursor */
}

static void test_lone_esc_at_end(void **state)
{
    (void)state;
    check("abc\x1b", "abc");
    check("\x1b", "");
    check("abc\x1b[", "abc"); /* an unterminated CSI runs to the end */
    check("abc\x1b[31", "abc");
    check("abc\x1b]0;title", "abc"); /* an unterminated OSC too */
}

static void test_text_without_esc_unchanged(void **state)
{
    (void)state;
    check("", "");
    check("plain text, 100% [ok] (x) ;m", "plain text, 100% [ok] (x) ;m");
    check("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80", "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80");
    check_n("a\0b\r\x07"
            "c",
            6,
            "a\0b\r\x07"
            "c",
            6); /* NUL and other controls are not escapes */
}

static void test_in_place(void **state)
{
    (void)state;
    char buf[] = "\x1b[1m\x1b[31mCUDA\x1b[0m error: \x1b]0;t\x07out of memory\x1b";
    size_t n = ansi_strip(buf, strlen(buf), buf);
    assert_int_equal(n, strlen("CUDA error: out of memory"));
    assert_memory_equal(buf, "CUDA error: out of memory", n);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_colour_codes),
        cmocka_unit_test(test_cursor_moves),
        cmocka_unit_test(test_osc_title_bel),
        cmocka_unit_test(test_osc_title_st),
        cmocka_unit_test(test_charset_designation),
        cmocka_unit_test(test_lone_esc_at_end),
        cmocka_unit_test(test_text_without_esc_unchanged),
        cmocka_unit_test(test_in_place),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
