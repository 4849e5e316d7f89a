/* A streaming UTF-16 to UTF-8 decoder: input arrives in pieces of any
 * length; a byte left over between pieces and a high surrogate waiting for
 * its pair are kept in the caller's struct utf16_dec.  An unpaired
 * surrogate and a last odd byte become U+FFFD, so no text is lost around
 * them.  The caller owns both buffers; nothing is allocated. */
#ifndef OOMDIAG_DECODE_UTF16_H
#define OOMDIAG_DECODE_UTF16_H

#include <stddef.h>

/* The most one decoded code unit writes: U+FFFD for a dropped high
 * surrogate, then a character of up to 3 bytes. */
enum { UTF16_OUT_MAX = 6 };

struct utf16_dec {
    int big_endian;
    int have_byte; /* BYTE is the first half of a code unit */
    unsigned char byte;
    unsigned high; /* a high surrogate waiting for its pair, or 0 */
};

void utf16_init(struct utf16_dec *d, int big_endian);
/* Decodes IN (N bytes) into OUT (ROOM bytes); *USED gets how many bytes of
 * IN were consumed (all of them unless OUT filled up).  Returns the bytes
 * written. */
size_t utf16_decode(struct utf16_dec *d, const unsigned char *in, size_t n, size_t *used, char *out, size_t room);
/* At the end of the input: what is still pending, as U+FFFD (ROOM at
 * least UTF16_OUT_MAX).  Returns the bytes written. */
size_t utf16_finish(struct utf16_dec *d, char *out, size_t room);

#endif
