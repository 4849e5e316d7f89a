/* textsafe_dup: valid UTF-8, no control characters, bounded length. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "textsafe.h"

#define FFFD "\xef\xbf\xbd"
#define ELLIPSIS "\xe2\x80\xa6"

static void check_n(const char *in, size_t len, size_t max, const char *expect)
{
    char *out = textsafe_dup(in, len, max);
    assert_non_null(out);
    assert_string_equal(out, expect);
    free(out);
}

static void check(const char *in, size_t max, const char *expect)
{
    check_n(in, strlen(in), max, expect);
}

static void test_plain_and_valid_utf8_kept(void **state)
{
    (void)state;
    check("hello world", 100, "hello world");
    check("", 100, "");
    check("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80 \xc2\xa0", 100,
          "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80 \xc2\xa0");
    check("\xef\xbf\xbf \xf4\x8f\xbf\xbf", 100, "\xef\xbf\xbf \xf4\x8f\xbf\xbf"); /* U+FFFF, U+10FFFF */
}

static void test_invalid_bytes_become_fffd(void **state)
{
    (void)state;
    check("a\xff"
          "b",
          100, "a" FFFD "b");
    check("\x80", 100, FFFD);                 /* a lone continuation byte */
    check("ab\xe2\x82", 100, "ab" FFFD FFFD); /* a sequence cut by the end */
    check("\xe2\x82"
          "x",
          100, FFFD FFFD "x"); /* ... or by an ASCII byte */
    check("\xfe\xff", 100, FFFD FFFD);
    check("\xf8\x88\x80\x80\x80", 100, FFFD FFFD FFFD FFFD FFFD); /* 5-byte forms are gone */
    check("\xed\xa0\x80", 100, FFFD FFFD FFFD);                   /* a UTF-16 surrogate */
    check("\xf4\x90\x80\x80", 100, FFFD FFFD FFFD FFFD);          /* above U+10FFFF */
}

static void test_overlong_rejected(void **state)
{
    (void)state;
    check("\xc0\xaf", 100, FFFD FFFD); /* '/' in 2 bytes */
    check("\xc1\xbf", 100, FFFD FFFD);
    check("\xe0\x80\xaf", 100, FFFD FFFD FFFD);          /* '/' in 3 bytes */
    check("\xe0\x9f\xbf", 100, FFFD FFFD FFFD);          /* U+07FF in 3 bytes */
    check("\xf0\x82\x82\xac", 100, FFFD FFFD FFFD FFFD); /* the euro sign in 4 bytes */
    check("\xc0\x80", 100, FFFD FFFD);                   /* "modified UTF-8" NUL */
}

static void test_control_chars_dropped(void **state)
{
    (void)state;
    check("a\x01"
          "b\x7f"
          "c\x1b"
          "d\x08"
          "e\x07"
          "f\r",
          100, "abcdef");
    check_n("a\0b", 3, 100, "ab");
    check("\x1b[31mred", 100, "[31mred"); /* the ESC goes; stripping sequences is ansi_strip's job */
}

static void test_tab_becomes_space(void **state)
{
    (void)state;
    check("a\tb\t\tc", 100, "a b  c");
    check("\tx", 100, " x");
}

static void test_c1_controls_replaced(void **state)
{
    (void)state;
    /* U+0080..U+009F (e.g. 0x9B, the 8-bit CSI) never come out as such:
     * each byte of the sequence becomes U+FFFD. */
    check("a\xc2\x80"
          "b\xc2\x9b"
          "c\xc2\x9f"
          "d",
          100, "a" FFFD FFFD "b" FFFD FFFD "c" FFFD FFFD "d");
    check("\xc2\xa0", 100, "\xc2\xa0"); /* U+00A0 is not a control */
}

static void test_truncation_with_ellipsis(void **state)
{
    (void)state;
    check("abcdef", 3, "abc" ELLIPSIS);
    check("abc", 3, "abc"); /* exactly at the limit: no ellipsis */
    check("abcd", 4, "abcd");
    check("abcde", 4, "abcd" ELLIPSIS);
    check("abc", 0, ELLIPSIS);
    check("", 0, "");
    check("abc\x01\x02", 3, "abc"); /* full, then only dropped bytes */
    check("abc\x01"
          "d",
          3, "abc" ELLIPSIS);              /* full, then more text */
    check("ab\tcdef", 4, "ab c" ELLIPSIS); /* a run cut after a tab */
    check("ab\xc3\xa9"
          "cdef",
          5,
          "ab\xc3\xa9"
          "c" ELLIPSIS); /* and after a sequence */
}

static void test_truncation_keeps_sequences_whole(void **state)
{
    (void)state;
    check("a\xc3\xa9", 2, "a" ELLIPSIS);     /* é would need bytes 2..3 */
    check("a\xe2\x82\xac", 3, "a" ELLIPSIS); /* € would need 2..4 */
    check("\xe2\x82\xac\xe2\x82\xac", 3, "\xe2\x82\xac" ELLIPSIS);
    check("\xe2\x82\xac\xe2\x82\xac", 5, "\xe2\x82\xac" ELLIPSIS);
    check("\xe2\x82\xac\xe2\x82\xac", 6, "\xe2\x82\xac\xe2\x82\xac");
    check("ab\xf0\x9f\x98\x80", 5, "ab" ELLIPSIS);
    check("ab\xff", 4, "ab" ELLIPSIS); /* a replacement counts 3 bytes too */
    check("a\x01\x01\x01"
          "b",
          2, "ab"); /* dropped bytes cost nothing */
}

/* Is S well-formed UTF-8 (no overlongs, surrogates or values past U+10FFFF)? */
static int valid_utf8(const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        unsigned cp, n;
        if (p[0] < 0x80) {
            p++;
            continue;
        }
        if ((p[0] & 0xe0) == 0xc0)
            n = 1, cp = p[0] & 0x1fu;
        else if ((p[0] & 0xf0) == 0xe0)
            n = 2, cp = p[0] & 0x0fu;
        else if ((p[0] & 0xf8) == 0xf0)
            n = 3, cp = p[0] & 0x07u;
        else
            return 0;
        for (unsigned k = 1; k <= n; k++) {
            if ((p[k] & 0xc0) != 0x80)
                return 0;
            cp = cp << 6 | (p[k] & 0x3fu);
        }
        if ((n == 1 && cp < 0x80) || (n == 2 && cp < 0x800) || (n == 3 && cp < 0x10000) || cp > 0x10ffff ||
            (cp >= 0xd800 && cp <= 0xdfff))
            return 0;
        p += n + 1;
    }
    return 1;
}

static void test_result_is_always_valid_and_bounded(void **state)
{
    (void)state;
    /* Every byte value, at every limit: the output never holds a control
     * byte, never exceeds max + the ellipsis, and ends on a whole sequence. */
    unsigned char all[256];
    static const char mixed[] = "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\xff\tx\xc2\x9b\xe2\x82\x01\xf0\x9f\x98\x80 ";
    for (int i = 0; i < 256; i++)
        all[i] = (unsigned char)i;
    for (size_t max = 0; max < 80; max++) {
        char *out = max % 2 ? textsafe_dup(mixed, sizeof mixed - 1, max / 2)
                            : textsafe_dup((const char *)all, sizeof all, max / 2);
        assert_non_null(out);
        size_t n = strlen(out);
        assert_true(n <= max / 2 + 3);
        assert_true(valid_utf8(out));
        for (size_t k = 0; k < n; k++) {
            unsigned char c = (unsigned char)out[k];
            assert_true(c >= 0x20 && c != 0x7f);
        }
        free(out);
    }
}

/* Eight bytes at once: printable only when every one is, whatever byte
 * stands where (carries from a neighbour included). */
static void test_printable8(void **state)
{
    (void)state;
    unsigned char w[8];
    for (int pos = 0; pos < 8; pos++)
        for (int b = 0; b < 256; b++) {
            memset(w, 'a', sizeof w);
            w[pos] = (unsigned char)b;
            assert_int_equal(textsafe_printable8(w), b >= 0x20 && b < 0x7f);
            memset(w, 0x7e, sizeof w); /* next to the top printable byte */
            w[pos] = (unsigned char)b;
            assert_int_equal(textsafe_printable8(w), b >= 0x20 && b < 0x7f);
            memset(w, 0x20, sizeof w); /* and the lowest */
            w[pos] = (unsigned char)b;
            assert_int_equal(textsafe_printable8(w), b >= 0x20 && b < 0x7f);
        }
}

/* A byte to drop or replace at every offset of a long ASCII run. */
static void test_odd_byte_anywhere_in_a_run(void **state)
{
    (void)state;
    char in[41], want[64];
    for (int at = 0; at < 40; at++) {
        memset(in, 'x', 40);
        in[40] = '\0';
        in[at] = '\x01';
        memset(want, 'x', 39);
        want[39] = '\0';
        check_n(in, 40, 100, want);
        in[at] = '\xff';
        memset(want, 'x', at);
        memcpy(want + at, FFFD, 3);
        memset(want + at + 3, 'x', (size_t)(39 - at));
        want[42] = '\0';
        check_n(in, 40, 100, want);
    }
}

static void test_trailing_spaces_trimmed(void **state)
{
    (void)state;
    check("abc   ", 100, "abc");
    check("abc\t\t", 100, "abc");
    check("abc \x01 \x02", 100, "abc");
    check("   ", 100, "");
    check("  lead", 100, "  lead");
    check("a b", 100, "a b");
}

static void test_utf8_decode(void **state)
{
    (void)state;
    unsigned long cp = 7;
    assert_int_equal(textsafe_utf8_decode("A", 1, &cp), 1);
    assert_int_equal(cp, 'A');
    assert_int_equal(textsafe_utf8_decode("\xc3\xa9", 2, &cp), 2);
    assert_int_equal(cp, 0xe9);
    assert_int_equal(textsafe_utf8_decode("\xe6\x97\xa5", 3, &cp), 3);
    assert_int_equal(cp, 0x65e5);
    assert_int_equal(textsafe_utf8_decode("\xf0\x9f\x98\x80", 4, &cp), 4);
    assert_int_equal(cp, 0x1f600);
    assert_int_equal(textsafe_utf8_decode("\xc2\x85", 2, &cp), 2); /* C1: decoded; what to do is the caller's */
    assert_int_equal(cp, 0x85);
    cp = 7;
    assert_int_equal(textsafe_utf8_decode("", 0, &cp), 0);
    assert_int_equal(textsafe_utf8_decode("\xe6\x97\xa5", 2, &cp), 0); /* cut short by LEN */
    assert_int_equal(textsafe_utf8_decode("\xe6\x97"
                                          "A",
                                          3, &cp),
                     0);                                                   /* not a continuation */
    assert_int_equal(textsafe_utf8_decode("\x80", 1, &cp), 0);             /* stray continuation */
    assert_int_equal(textsafe_utf8_decode("\xc0\x80", 2, &cp), 0);         /* overlong NUL */
    assert_int_equal(textsafe_utf8_decode("\xed\xa0\x80", 3, &cp), 0);     /* surrogate */
    assert_int_equal(textsafe_utf8_decode("\xf4\x90\x80\x80", 4, &cp), 0); /* past U+10FFFF */
    assert_int_equal(textsafe_utf8_decode("\xff", 1, &cp), 0);
    assert_int_equal(cp, 7); /* untouched where nothing was decoded */
}

static void test_utf8_cut(void **state)
{
    (void)state;
    const char *s = "ab\xe6\x97\xa5"
                    "c"; /* a b 日 c: 6 bytes */
    assert_int_equal(textsafe_utf8_cut(s, 6, 100), 6);
    assert_int_equal(textsafe_utf8_cut(s, 6, 6), 6);
    assert_int_equal(textsafe_utf8_cut(s, 6, 5), 5);
    assert_int_equal(textsafe_utf8_cut(s, 6, 4), 2); /* inside 日: before it */
    assert_int_equal(textsafe_utf8_cut(s, 6, 3), 2);
    assert_int_equal(textsafe_utf8_cut(s, 6, 2), 2);
    assert_int_equal(textsafe_utf8_cut(s, 6, 0), 0);
    /* A text already cut inside a character loses the piece. */
    assert_int_equal(textsafe_utf8_cut(s, 4, 100), 2);
    assert_int_equal(textsafe_utf8_cut("\xf0\x9f\x98", 3, 3), 0);
}

static void test_fit_columns(void **state)
{
    (void)state;
    size_t used = 0;
    const char *s = "a\xe6\x97\xa5"
                    "b"; /* a 日 b: columns 1 + 2 + 1 */
    assert_int_equal(textsafe_fit_columns(s, 5, 10, &used), 5);
    assert_int_equal(used, 4);
    assert_int_equal(textsafe_fit_columns(s, 5, 2, &used), 1); /* 日 does not fit in one column */
    assert_int_equal(used, 1);
    assert_int_equal(textsafe_fit_columns(s, 5, 3, &used), 4);
    assert_int_equal(used, 3);
    assert_int_equal(textsafe_fit_columns("\xffz", 2, 1, &used), 1); /* a stray byte: one column */
}

static void test_fit_tail(void **state)
{
    (void)state;
    size_t used = 0;
    const char *s = "a\xe6\x97\xa5"
                    "b";                                     /* a 日 b: columns 1 + 2 + 1 */
    assert_int_equal(textsafe_fit_tail(s, 5, 10, &used), 0); /* all of it fits */
    assert_int_equal(used, 4);
    assert_int_equal(textsafe_fit_tail(s, 5, 3, &used), 1); /* 日b */
    assert_int_equal(used, 3);
    assert_int_equal(textsafe_fit_tail(s, 5, 2, &used), 4); /* 日 does not fit beside b: only b */
    assert_int_equal(used, 1);
    assert_int_equal(textsafe_fit_tail(s, 5, 0, &used), 5);
    assert_int_equal(used, 0);
    assert_int_equal(textsafe_fit_tail("z\xff", 2, 1, &used), 1); /* a stray byte: one column */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_plain_and_valid_utf8_kept),
        cmocka_unit_test(test_invalid_bytes_become_fffd),
        cmocka_unit_test(test_overlong_rejected),
        cmocka_unit_test(test_control_chars_dropped),
        cmocka_unit_test(test_tab_becomes_space),
        cmocka_unit_test(test_printable8),
        cmocka_unit_test(test_odd_byte_anywhere_in_a_run),
        cmocka_unit_test(test_c1_controls_replaced),
        cmocka_unit_test(test_truncation_with_ellipsis),
        cmocka_unit_test(test_truncation_keeps_sequences_whole),
        cmocka_unit_test(test_result_is_always_valid_and_bounded),
        cmocka_unit_test(test_trailing_spaces_trimmed),
        cmocka_unit_test(test_utf8_decode),
        cmocka_unit_test(test_utf8_cut),
        cmocka_unit_test(test_fit_columns),
        cmocka_unit_test(test_fit_tail),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
