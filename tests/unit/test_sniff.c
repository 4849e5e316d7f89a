#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "sniff.h"

#define U(s) ((const unsigned char *)(s))

static void test_magic(void **state)
{
    (void)state;
    assert_true(sniff_magic(U("\x7f"
                              "ELF\x02\x01"),
                            6));
    assert_true(sniff_magic(U("\x1f\x8b\x08\x00"), 4));
    assert_true(sniff_magic(U("PK\x03\x04rest"), 8));
    assert_true(sniff_magic(U("%PDF-1.7"), 8));
    assert_true(sniff_magic(U("\x80\x04\x95"), 3)); /* pickle */
    assert_true(sniff_magic(U("RIFF\x10\0\0\0WAVEfmt "), 16));
    assert_false(sniff_magic(U("RIFF\x10\0\0\0TEXT"), 12));
    /* Too short for the magic number: not judged binary. */
    assert_false(sniff_magic(U("\x7f"
                               "EL"),
                             3));
    assert_false(sniff_magic(U(""), 0));
    /* A log is never a magic number, even one that starts like one. */
    assert_false(sniff_magic(U("PK is a name\n"), 13));
    assert_false(sniff_magic(U("RuntimeError: CUDA out of memory\n"), 33));
    /* tar: "ustar" at offset 257. */
    unsigned char tar[300] = {0};
    memcpy(tar + 257, "ustar", 5);
    assert_true(sniff_magic(tar, sizeof tar));
    assert_false(sniff_magic(tar, 260));
    /* A Windows executable: MZ and PE where the header points. */
    unsigned char pe[128] = {'M', 'Z'};
    pe[60] = 100;
    memcpy(pe + 100, "PE\0\0", 4);
    assert_true(sniff_magic(pe, sizeof pe));
    pe[60] = 120; /* points past the block's end minus 4 */
    assert_false(sniff_magic(pe, sizeof pe));
    /* safetensors: a little-endian length, then {" */
    unsigned char st[16] = {0x40, 0, 0, 0, 0, 0, 0, 0, '{', '"', '_'};
    assert_true(sniff_magic(st, sizeof st));
    st[7] = 1; /* an absurd header length */
    assert_false(sniff_magic(st, sizeof st));
}

static void test_mostly_binary(void **state)
{
    (void)state;
    const char *log = "step 10 loss 0.25\n\tat main\r\n\033[1mbold\033[0m \a\b 中文 ünïcödé\n";
    assert_false(sniff_mostly_binary(U(log), strlen(log), 1));
    /* NUL bytes alone never make an input binary. */
    unsigned char holes[4096] = {0};
    memcpy(holes + 100, "kernel: Out of memory", 21);
    assert_false(sniff_mostly_binary(holes, sizeof holes, 1));
    assert_false(sniff_mostly_binary(holes, 50, 1)); /* all NULs */
    /* Control bytes: 3 of 10 is text still, 4 of 10 is not. */
    assert_false(sniff_mostly_binary(U("\x01\x02\x03"
                                       "abcdefg"),
                                     10, 1));
    assert_true(sniff_mostly_binary(U("\x01\x02\x03\x04"
                                      "abcdef"),
                                    10, 1));
    /* Invalid UTF-8: overlong, surrogate, stray continuation bytes. */
    assert_true(sniff_mostly_binary(U("\xc0\xaf\xed\xa0\x80\x80\x80\x80"
                                      "ab"),
                                    10, 1));
    /* A character cut at the block's end is judged only at the end. */
    const unsigned char cut[] = "abcdefgh\xe4\xb8";
    assert_false(sniff_mostly_binary(cut, 10, 0));
    const unsigned char cut_bad[] = "abcdefg\x01\x01\xe4\xb8"; /* 2 bad of 9, or 4 of 11 at the end */
    assert_false(sniff_mostly_binary(cut_bad, 11, 0));
    assert_true(sniff_mostly_binary(cut_bad, 11, 1));
}

static void test_encoding_bom(void **state)
{
    (void)state;
    size_t bom = 9;
    assert_int_equal(sniff_encoding(U("\xef\xbb\xbfhello"), 8, &bom), SNIFF_UTF8);
    assert_int_equal(bom, 3);
    assert_int_equal(sniff_encoding(U("\xff\xfeh\0i\0"), 6, &bom), SNIFF_UTF16LE);
    assert_int_equal(bom, 2);
    assert_int_equal(sniff_encoding(U("\xfe\xff\0h\0i"), 6, &bom), SNIFF_UTF16BE);
    assert_int_equal(bom, 2);
    assert_int_equal(sniff_encoding(U("plain text\n"), 11, &bom), SNIFF_UTF8);
    assert_int_equal(bom, 0);
    assert_int_equal(sniff_encoding(U(""), 0, &bom), SNIFF_UTF8);
}

static size_t utf16(const char *ascii, int big_endian, unsigned char *out)
{
    size_t n = 0;
    for (const char *p = ascii; *p; p++) {
        out[n++] = big_endian ? 0 : (unsigned char)*p;
        out[n++] = big_endian ? (unsigned char)*p : 0;
    }
    return n;
}

static void test_encoding_without_bom(void **state)
{
    (void)state;
    unsigned char buf[256];
    size_t bom = 9;
    size_t n = utf16("CUDA out of memory\r\n", 0, buf);
    assert_int_equal(sniff_encoding(buf, n, &bom), SNIFF_UTF16LE);
    assert_int_equal(bom, 0);
    n = utf16("CUDA out of memory\r\n", 1, buf);
    assert_int_equal(sniff_encoding(buf, n, &bom), SNIFF_UTF16BE);
    /* Too few units to tell: UTF-8. */
    n = utf16("abc", 0, buf);
    assert_int_equal(sniff_encoding(buf, n, &bom), SNIFF_UTF8);
    /* A text log with a run of NUL holes stays UTF-8. */
    unsigned char holes[64] = "line one\n";
    memcpy(holes + 40, "line two\n", 9);
    assert_int_equal(sniff_encoding(holes, sizeof holes, &bom), SNIFF_UTF8);
    /* Small 16-bit numbers look like UTF-16LE but do not decode to text. */
    unsigned short nums[64];
    for (int i = 0; i < 64; i++)
        nums[i] = (unsigned short)(i % 20 + 1);
    assert_int_equal(sniff_encoding((const unsigned char *)nums, sizeof nums, &bom), SNIFF_UTF8);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_magic),
        cmocka_unit_test(test_mostly_binary),
        cmocka_unit_test(test_encoding_bom),
        cmocka_unit_test(test_encoding_without_bom),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
