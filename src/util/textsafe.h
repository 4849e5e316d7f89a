/* Making log text safe to show anywhere: valid UTF-8 (bad bytes become
 * U+FFFD), no control characters (tabs become spaces, others are
 * dropped), at most a given length.  The result is malloc'd; the caller
 * frees it.  Also the one UTF-8 decoder, encoder and cut of the tree, and
 * the display width of text. */
#ifndef OOMDIAG_TEXTSAFE_H
#define OOMDIAG_TEXTSAFE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Are the 8 bytes at P all printable ASCII (0x20 to 0x7e)?  Bytes below
 * 0x80 do not carry into their neighbours when 0x60 or 1 is added.
 * Inline: the scanners ask it of most of a log. */
static inline int textsafe_printable8(const unsigned char *p)
{
    const uint64_t high = 0x8080808080808080ULL;
    uint64_t v;
    memcpy(&v, p, sizeof v);
    return (v & high) == 0 && ((v + 0x6060606060606060ULL) & high) == high && ((v + 0x0101010101010101ULL) & high) == 0;
}

char *textsafe_dup(const char *in, size_t len, size_t max_out);

/* The length of the valid UTF-8 sequence at S (LEN bytes left), its code
 * point in *CP; or 0 where none starts (a stray byte, a sequence cut
 * short, an overlong form, a surrogate, past U+10FFFF). */
size_t textsafe_utf8_decode(const char *s, size_t len, unsigned long *cp);

/* The longest prefix of the LEN bytes at S that has at most MAX bytes and
 * does not end inside a UTF-8 sequence. */
size_t textsafe_utf8_cut(const char *s, size_t len, size_t max);

/* The display columns of the code point CP: 2 for East Asian wide and
 * full-width characters (CJK, Hangul, kana, full-width forms), 0 for
 * combining marks, 1 otherwise. */
int textsafe_cp_columns(unsigned long cp);

/* Writes code point CP (at most U+10FFFF) as UTF-8 at O (room for 4
 * bytes); returns the bytes written. */
size_t textsafe_put_utf8(char *o, unsigned cp);

/* The bytes of the longest prefix of the UTF-8 text S (LEN bytes) that
 * fits in COLS display columns, ending on a character boundary; *USED
 * (may be NULL) gets its columns. */
size_t textsafe_fit_columns(const char *s, size_t len, size_t cols, size_t *used);
/* The other end: the offset in S of the longest suffix that fits in COLS
 * columns, starting on a character boundary; *USED (may be NULL) gets its
 * columns. */
size_t textsafe_fit_tail(const char *s, size_t len, size_t cols, size_t *used);

#endif
