/* libFuzzer: the streaming UTF-16 decoder (decode_utf16.h) in arbitrary
 * pieces.  Byte 0: big-endian when odd; byte 1: the piece size; byte 2:
 * the output room (at least UTF16_OUT_MAX).  Checks: the output is valid
 * UTF-8 (an unpaired surrogate and a last odd byte become U+FFFD), never
 * more than the room is written (the buffer is exactly ROOM bytes), all
 * the input is consumed unless the output filled up, and decoding in
 * pieces gives the bytes decoding in one go gives. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decode_utf16.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(int ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "fuzz_utf16: broken promise: %s\n", what);
        abort();
    }
}

/* Is P (N bytes) valid UTF-8 (no surrogates, no overlong forms)? */
static int valid_utf8(const unsigned char *p, size_t n)
{
    for (size_t i = 0; i < n;) {
        unsigned c = p[i];
        size_t k = c < 0x80 ? 1 : (c & 0xe0) == 0xc0 ? 2 : (c & 0xf0) == 0xe0 ? 3 : (c & 0xf8) == 0xf0 ? 4 : 0;
        if (k == 0 || i + k > n || (k == 2 && c < 0xc2) || c > 0xf4)
            return 0;
        unsigned cp = k == 1 ? c : k == 2 ? c & 0x1f : k == 3 ? c & 0x0f : c & 0x07;
        for (size_t j = 1; j < k; j++) {
            if ((p[i + j] & 0xc0) != 0x80)
                return 0;
            cp = cp << 6 | (p[i + j] & 0x3f);
        }
        if ((k == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) || (k == 4 && (cp < 0x10000 || cp > 0x10ffff)))
            return 0;
        i += k;
    }
    return 1;
}

/* Decodes IN in pieces of PIECE bytes through a buffer of ROOM bytes into
 * OUT (at least 3 * N + 16 bytes: each byte pair gives at most 6 bytes). */
static size_t decode(int be, const unsigned char *in, size_t n, size_t piece, size_t room, unsigned char *out)
{
    struct utf16_dec d;
    utf16_init(&d, be);
    char *buf = malloc(room);
    check(buf != NULL, "out of memory");
    size_t len = 0;
    for (size_t off = 0; off < n;) {
        size_t take = n - off < piece ? n - off : piece, used = 0;
        size_t got = utf16_decode(&d, in + off, take, &used, buf, room);
        check(got <= room, "more written than the room");
        check(used <= take, "consumed more than given");
        check(used == take || got + 2 * UTF16_OUT_MAX > room, "input left over with room to spare");
        check(used > 0 || got > 0, "no progress");
        memcpy(out + len, buf, got);
        len += got;
        off += used;
    }
    size_t got = utf16_finish(&d, buf, room);
    check(got <= room, "finish wrote more than the room");
    memcpy(out + len, buf, got);
    len += got;
    free(buf);
    return len;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 3)
        return 0;
    int be = data[0] & 1;
    size_t piece = (size_t)data[1] % 33 + 1;
    size_t room = UTF16_OUT_MAX + (size_t)data[2] % 64;
    const unsigned char *in = data + 3;
    size_t n = size - 3;
    unsigned char *a = malloc(3 * n + 16), *b = malloc(3 * n + 16);
    check(a != NULL && b != NULL, "out of memory");
    size_t la = decode(be, in, n, piece, room, a);
    size_t lb = decode(be, in, n, n > 0 ? n : 1, 3 * n + 16 > 64 ? 3 * n + 16 : 64, b);
    check(la <= 3 * n + 16, "more output than the input can give");
    check(valid_utf8(a, la), "the output is not valid UTF-8");
    check(la == lb && memcmp(a, b, la) == 0, "pieces and one go decode differently");
    free(a);
    free(b);
    return 0;
}
