#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "decode_utf16.h"

/* Decodes IN in pieces of STEP bytes into a NUL-terminated string. */
static void decode(const unsigned char *in, size_t n, int be, size_t step, char *out, size_t room)
{
    struct utf16_dec d;
    utf16_init(&d, be);
    size_t w = 0;
    for (size_t i = 0; i < n;) {
        size_t piece = n - i < step ? n - i : step, used = 0;
        w += utf16_decode(&d, in + i, piece, &used, out + w, room - w - 1);
        assert_int_equal(used, piece); /* room enough: all consumed */
        i += used;
    }
    w += utf16_finish(&d, out + w, room - w - 1);
    out[w] = '\0';
}

static void test_ascii_and_bmp(void **state)
{
    (void)state;
    /* "hi é 中" in UTF-16LE */
    const unsigned char le[] = {'h', 0, 'i', 0, ' ', 0, 0xe9, 0, ' ', 0, 0x2d, 0x4e};
    const unsigned char be[] = {0, 'h', 0, 'i', 0, ' ', 0, 0xe9, 0, ' ', 0x4e, 0x2d};
    char out[64];
    for (size_t step = 1; step <= sizeof le; step++) {
        decode(le, sizeof le, 0, step, out, sizeof out);
        assert_string_equal(out, "hi \xc3\xa9 \xe4\xb8\xad");
        decode(be, sizeof be, 1, step, out, sizeof out);
        assert_string_equal(out, "hi \xc3\xa9 \xe4\xb8\xad");
    }
}

static void test_surrogates(void **state)
{
    (void)state;
    char out[64];
    /* U+1F600 as a pair, split at every byte. */
    const unsigned char pair[] = {0x3d, 0xd8, 0x00, 0xde, 'x', 0};
    for (size_t step = 1; step <= sizeof pair; step++) {
        decode(pair, sizeof pair, 0, step, out, sizeof out);
        assert_string_equal(out, "\xf0\x9f\x98\x80x");
    }
    /* A high surrogate followed by a letter: U+FFFD, then the letter. */
    const unsigned char lone_high[] = {0x3d, 0xd8, 'a', 0};
    decode(lone_high, sizeof lone_high, 0, 4, out, sizeof out);
    assert_string_equal(out, "\xef\xbf\xbd"
                             "a");
    /* A low surrogate alone. */
    const unsigned char lone_low[] = {0x00, 0xde, 'b', 0};
    decode(lone_low, sizeof lone_low, 0, 4, out, sizeof out);
    assert_string_equal(out, "\xef\xbf\xbd"
                             "b");
    /* Two high surrogates, then a low: one replacement, then the pair. */
    const unsigned char two_high[] = {0x3d, 0xd8, 0x3d, 0xd8, 0x00, 0xde};
    decode(two_high, sizeof two_high, 0, 1, out, sizeof out);
    assert_string_equal(out, "\xef\xbf\xbd\xf0\x9f\x98\x80");
}

/* What is pending at the end is not lost: U+FFFD for each. */
static void test_finish(void **state)
{
    (void)state;
    char out[64];
    const unsigned char odd[] = {'o', 0, 'k', 0, 'z'};
    decode(odd, sizeof odd, 0, 2, out, sizeof out);
    assert_string_equal(out, "ok\xef\xbf\xbd");
    const unsigned char high_end[] = {'o', 0, 0x3d, 0xd8, 'q'};
    decode(high_end, sizeof high_end, 0, 5, out, sizeof out);
    assert_string_equal(out, "o\xef\xbf\xbd\xef\xbf\xbd");
    /* Finish with too little room writes nothing and keeps the state. */
    struct utf16_dec d;
    size_t used;
    utf16_init(&d, 0);
    utf16_decode(&d, (const unsigned char *)"a", 1, &used, out, sizeof out);
    assert_int_equal(used, 1);
    assert_int_equal(utf16_finish(&d, out, UTF16_OUT_MAX - 1), 0);
    assert_int_equal(utf16_finish(&d, out, UTF16_OUT_MAX), 3);
    assert_int_equal(utf16_finish(&d, out, UTF16_OUT_MAX), 0); /* once */
}

/* A full output stops the decoder; it resumes where it stopped. */
static void test_small_room(void **state)
{
    (void)state;
    unsigned char in[200];
    for (size_t i = 0; i < 100; i++) {
        in[2 * i] = (unsigned char)('a' + i % 26);
        in[2 * i + 1] = 0;
    }
    struct utf16_dec d;
    utf16_init(&d, 0);
    char out[256], piece[UTF16_OUT_MAX + 2];
    size_t w = 0, i = 0;
    int rounds = 0;
    while (i < sizeof in) {
        size_t used = 0;
        size_t got = utf16_decode(&d, in + i, sizeof in - i, &used, piece, sizeof piece);
        assert_true(got <= sizeof piece);
        assert_true(got > 0);
        memcpy(out + w, piece, got);
        w += got;
        i += used;
        rounds++;
    }
    assert_int_equal(w, 100);
    assert_true(rounds > 10);
    for (size_t k = 0; k < 100; k++)
        assert_int_equal(out[k], 'a' + k % 26);
    /* Room below UTF16_OUT_MAX: nothing is consumed. */
    size_t used = 9;
    assert_int_equal(utf16_decode(&d, in, 2, &used, piece, UTF16_OUT_MAX - 1), 0);
    assert_int_equal(used, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ascii_and_bmp),
        cmocka_unit_test(test_surrogates),
        cmocka_unit_test(test_finish),
        cmocka_unit_test(test_small_room),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
