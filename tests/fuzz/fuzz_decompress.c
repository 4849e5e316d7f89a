/* libFuzzer: decompress_step driven directly with arbitrary bytes in
 * arbitrary pieces.  Input: byte 0 picks the format (0 or 5..: by
 * decompress_sniff), byte 1 the input piece size, byte 2 the output room;
 * the rest is the compressed stream.  Checks the contract of
 * decompress.h: never more than ROOM written (the output buffer is exactly
 * ROOM bytes, so ASan sees an overrun), consumed <= given and *IN moved by
 * as much, an error has a message and is sticky (every later call fails
 * too), and the bytes decoded in pieces are those decoded in one go (one
 * a prefix of the other when the data is damaged: the damage may be seen
 * with more or less of the output before it handed out). */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decompress.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum { OUT_MAX = 4 * 1024 * 1024, CALLS_MAX = 200000 };

static void check(int ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "fuzz_decompress: broken promise: %s\n", what);
        abort();
    }
}

struct result {
    unsigned char *out;
    size_t len;
    int failed, complete;
};

/* Decodes IN in pieces of PIECE bytes into buffers of ROOM bytes. */
static void decode(enum decompress_kind kind, const unsigned char *in, size_t n, size_t piece, size_t room,
                   struct result *res)
{
    char err[256];
    memset(res, 0, sizeof *res);
    res->out = malloc(OUT_MAX);
    check(res->out != NULL, "out of memory");
    struct decompress *d = decompress_start(kind, err, sizeof err);
    check(d != NULL, "a decoder does not start");
    unsigned char *buf = malloc(room);
    check(buf != NULL, "out of memory");
    size_t given = 0; /* bytes of IN offered so far */
    const unsigned char *p = in;
    size_t left = 0;
    for (int calls = 0; calls < CALLS_MAX && res->len < OUT_MAX; calls++) {
        if (left == 0 || calls % 3 == 0) { /* offer the next piece */
            size_t more = n - given < piece ? n - given : piece;
            /* what is left unconsumed stays where it is: p..p+left */
            left += more;
            given += more;
        }
        int at_end = given == n;
        const unsigned char *before = p;
        size_t before_left = left;
        int complete = -1;
        err[0] = '\0';
        size_t got = decompress_step(d, &p, &left, at_end, buf, room, &complete, err, sizeof err);
        if (got == (size_t)-1) {
            check(err[0] != '\0', "an error without a message");
            /* (the input consumed before the damage stays consumed) */
            check(p >= before && (size_t)(p - before) <= before_left, "an error consumed more than given");
            check(before_left - left == (size_t)(p - before), "*in and *in_len disagree at an error");
            size_t again_left = left;
            const unsigned char *again = p;
            err[0] = '\0';
            check(decompress_step(d, &again, &again_left, at_end, buf, room, &complete, err, sizeof err) == (size_t)-1,
                  "an error is not sticky");
            check(err[0] != '\0', "a repeated error without a message");
            res->failed = 1;
            break;
        }
        check(got <= room, "more written than the room");
        check(p >= before && (size_t)(p - before) <= before_left, "consumed more than given");
        check(before_left - left == (size_t)(p - before), "*in and *in_len disagree");
        check(complete == 0 || complete == 1, "complete not set");
        size_t keep = got < OUT_MAX - res->len ? got : OUT_MAX - res->len;
        memcpy(res->out + res->len, buf, keep);
        res->len += keep;
        res->complete = complete;
        if (got == 0 && p == before && at_end)
            break; /* the end, or no progress at the end */
    }
    free(buf);
    decompress_free(d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 3)
        return 0;
    enum decompress_kind kind = data[0] >= 1 && data[0] <= 4 ? (enum decompress_kind)data[0] : DECOMPRESS_NONE;
    const unsigned char *in = data + 3;
    size_t n = size - 3;
    if (kind == DECOMPRESS_NONE)
        kind = decompress_sniff(in, n);
    if (kind == DECOMPRESS_NONE)
        return 0;
    check(decompress_name(kind) != NULL, "a format without a name");
    size_t piece = (size_t)data[1] % 64 + 1;
    size_t room = (size_t)data[2] % 97 + 1;
    struct result small, big;
    decode(kind, in, n, piece, room, &small);
    decode(kind, in, n, n > 0 ? n : 1, 256 * 1024, &big);
    size_t common = small.len < big.len ? small.len : big.len;
    check(memcmp(small.out, big.out, common) == 0, "pieces and one go decode differently");
    if (!small.failed && !big.failed && small.len < OUT_MAX && big.len < OUT_MAX) {
        check(small.len == big.len, "pieces and one go decode different lengths");
        check(small.complete == big.complete, "pieces and one go disagree on the stream's end");
    }
    free(small.out);
    free(big.out);
    return 0;
}
