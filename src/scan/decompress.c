#include "decompress.h"

#include <bzlib.h>
#include <lzma.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include <zstd.h>

struct decompress {
    enum decompress_kind kind;
    int complete;     /* the input so far ends at a stream's end */
    char damage[128]; /* damaged data met after output that was returned first */
    union {
        z_stream gz;
        lzma_stream xz;
        bz_stream bz;
        ZSTD_DStream *zst;
    } u;
};

static const struct {
    enum decompress_kind kind;
    const char *name;
    size_t len;
    const char *magic;
} formats[] = {
    {DECOMPRESS_GZIP, "gzip", 2, "\x1f\x8b"},
    {DECOMPRESS_XZ, "xz", 6,
     "\xfd"
     "7zXZ\x00"},
    {DECOMPRESS_BZIP2, "bzip2", 3, "BZh"},
    {DECOMPRESS_ZSTD, "zstd", 4, "\x28\xb5\x2f\xfd"},
};

enum decompress_kind decompress_sniff(const unsigned char *p, size_t n)
{
    for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++) {
        if (n < formats[i].len || memcmp(p, formats[i].magic, formats[i].len) != 0)
            continue;
        /* "BZh" is also text: a bzip2 header goes on with a block size
         * digit and a block or end-of-stream magic. */
        if (formats[i].kind == DECOMPRESS_BZIP2 &&
            (n < 10 || p[3] < '1' || p[3] > '9' ||
             (memcmp(p + 4, "\x31\x41\x59\x26\x53\x59", 6) != 0 && memcmp(p + 4, "\x17\x72\x45\x38\x50\x90", 6) != 0)))
            continue;
        return formats[i].kind;
    }
    return DECOMPRESS_NONE;
}

const char *decompress_name(enum decompress_kind kind)
{
    for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++)
        if (formats[i].kind == kind)
            return formats[i].name;
    return NULL;
}

static int codec_init(struct decompress *d)
{
    switch (d->kind) {
    case DECOMPRESS_GZIP: return inflateInit2(&d->u.gz, 15 + 16) == Z_OK ? 0 : -1;
    case DECOMPRESS_XZ: {
        lzma_stream init = LZMA_STREAM_INIT;
        d->u.xz = init;
        return lzma_stream_decoder(&d->u.xz, UINT64_MAX, LZMA_CONCATENATED) == LZMA_OK ? 0 : -1;
    }
    case DECOMPRESS_BZIP2: return BZ2_bzDecompressInit(&d->u.bz, 0, 0) == BZ_OK ? 0 : -1;
    case DECOMPRESS_ZSTD:
        d->u.zst = ZSTD_createDStream();
        return d->u.zst != NULL && !ZSTD_isError(ZSTD_initDStream(d->u.zst)) ? 0 : -1;
    case DECOMPRESS_NONE: break;
    }
    return -1;
}

static void codec_end(struct decompress *d)
{
    switch (d->kind) {
    case DECOMPRESS_GZIP: inflateEnd(&d->u.gz); break;
    case DECOMPRESS_XZ: lzma_end(&d->u.xz); break;
    case DECOMPRESS_BZIP2: BZ2_bzDecompressEnd(&d->u.bz); break;
    case DECOMPRESS_ZSTD: ZSTD_freeDStream(d->u.zst); break;
    case DECOMPRESS_NONE: break;
    }
}

struct decompress *decompress_start(enum decompress_kind kind, char *err, size_t errsize)
{
    struct decompress *d = calloc(1, sizeof *d);
    if (d == NULL) {
        snprintf(err, errsize, "out of memory");
        return NULL;
    }
    d->kind = kind;
    if (codec_init(d) != 0) {
        snprintf(err, errsize, "cannot start %s decompression", decompress_name(kind) ? decompress_name(kind) : "");
        if (kind != DECOMPRESS_NONE)
            codec_end(d);
        free(d);
        return NULL;
    }
    return d;
}

void decompress_free(struct decompress *d)
{
    if (d == NULL)
        return;
    codec_end(d);
    free(d);
}

static size_t damaged(struct decompress *d, const char *why, char *err, size_t errsize)
{
    snprintf(err, errsize, "corrupt %s data (%s)", decompress_name(d->kind), why);
    return (size_t)-1;
}

/* One call of each codec: consumes from IN into OUT; the counts in *USED
 * and *MADE; 1 at a stream's end, 0 otherwise, -1 on damage (WHY). */
static int gzip_step(struct decompress *d, const unsigned char *in, size_t in_len, int at_end, unsigned char *out,
                     size_t room, size_t *used, size_t *made, const char **why)
{
    int end = 0;
    (void)at_end;
    z_stream *z = &d->u.gz;
    if (d->complete && in_len > 0 && inflateReset(z) != Z_OK) /* another member follows */
        return *why = "reset failed", -1;
    z->next_in = (unsigned char *)in;
    z->avail_in = (uInt)in_len;
    z->next_out = out;
    z->avail_out = (uInt)room;
    int rc = inflate(z, Z_NO_FLUSH);
    *used = in_len - z->avail_in;
    *made = room - z->avail_out;
    if (rc == Z_STREAM_END)
        end = 1;
    else if (rc != Z_OK && rc != Z_BUF_ERROR)
        return *why = z->msg ? z->msg : "inflate failed", -1;
    return end;
}

static int xz_step(struct decompress *d, const unsigned char *in, size_t in_len, int at_end, unsigned char *out,
                   size_t room, size_t *used, size_t *made, const char **why)
{
    int end = 0;
    lzma_stream *z = &d->u.xz;
    z->next_in = in;
    z->avail_in = in_len;
    z->next_out = out;
    z->avail_out = room;
    /* LZMA_CONCATENATED: the decoder ends only when told the input
     * has (and after LZMA_FINISH it takes nothing else). */
    lzma_ret rc = lzma_code(z, at_end && in_len == 0 ? LZMA_FINISH : LZMA_RUN);
    *used = in_len - z->avail_in;
    *made = room - z->avail_out;
    if (rc == LZMA_STREAM_END)
        end = 1;
    else if (rc != LZMA_OK && rc != LZMA_BUF_ERROR)
        return *why = rc == LZMA_DATA_ERROR     ? "data error"
                      : rc == LZMA_FORMAT_ERROR ? "format error"
                                                : "lzma failed",
               -1;
    return end;
}

static int bzip2_step(struct decompress *d, const unsigned char *in, size_t in_len, int at_end, unsigned char *out,
                      size_t room, size_t *used, size_t *made, const char **why)
{
    int end = 0;
    (void)at_end;
    bz_stream *z = &d->u.bz;
    if (d->complete && in_len > 0) { /* another stream follows */
        BZ2_bzDecompressEnd(z);
        memset(z, 0, sizeof *z);
        if (BZ2_bzDecompressInit(z, 0, 0) != BZ_OK)
            return *why = "restart failed", -1;
    }
    z->next_in = (char *)in;
    z->avail_in = (unsigned)in_len;
    z->next_out = (char *)out;
    z->avail_out = (unsigned)room;
    int rc = in_len == 0 && d->complete ? BZ_STREAM_END : BZ2_bzDecompress(z);
    *used = in_len - z->avail_in;
    *made = room - z->avail_out;
    if (rc == BZ_STREAM_END)
        end = 1;
    else if (rc != BZ_OK)
        return *why = rc == BZ_DATA_ERROR_MAGIC ? "bad magic" : "data error", -1;
    return end;
}

static int zstd_step(struct decompress *d, const unsigned char *in, size_t in_len, int at_end, unsigned char *out,
                     size_t room, size_t *used, size_t *made, const char **why)
{
    int end = 0;
    (void)at_end;
    ZSTD_inBuffer ib = {in, in_len, 0};
    ZSTD_outBuffer ob = {out, room, 0};
    size_t rc = ZSTD_decompressStream(d->u.zst, &ob, &ib);
    *used = ib.pos;
    *made = ob.pos;
    /* A failing call's output is not the data's: libzstd may leave
     * ob.pos past bytes it never decoded (issue 22: a damaged frame
     * decoded in one go claimed the whole room), so none is kept. */
    if (ZSTD_isError(rc))
        return *made = 0, *why = ZSTD_getErrorName(rc), -1;
    end = rc == 0; /* a frame is complete and flushed */
    return end;
}

static int codec_step(struct decompress *d, const unsigned char *in, size_t in_len, int at_end, unsigned char *out,
                      size_t room, size_t *used, size_t *made, const char **why)
{
    switch (d->kind) {
    case DECOMPRESS_GZIP: return gzip_step(d, in, in_len, at_end, out, room, used, made, why);
    case DECOMPRESS_XZ: return xz_step(d, in, in_len, at_end, out, room, used, made, why);
    case DECOMPRESS_BZIP2: return bzip2_step(d, in, in_len, at_end, out, room, used, made, why);
    case DECOMPRESS_ZSTD: return zstd_step(d, in, in_len, at_end, out, room, used, made, why);
    case DECOMPRESS_NONE: break;
    }
    return *why = "no format", -1;
}

size_t decompress_step(struct decompress *d, const unsigned char **in, size_t *in_len, int at_end, unsigned char *out,
                       size_t room, int *complete, char *err, size_t errsize)
{
    size_t total = 0;
    if (d->damage[0]) {
        snprintf(err, errsize, "%s", d->damage);
        return (size_t)-1;
    }
    while (total < room) {
        size_t used = 0, made = 0;
        const char *why = NULL;
        if (d->complete && *in_len == 0)
            break;
        int rc = codec_step(d, *in, *in_len, at_end, out + total, room - total, &used, &made, &why);
        if (rc < 0) { /* kept: a codec is not called again after damage */
            damaged(d, why, d->damage, sizeof d->damage);
            if (total + made == 0) {
                snprintf(err, errsize, "%s", d->damage);
                return (size_t)-1;
            }
            total += made; /* what came before the damage first, the damage next call */
            break;
        }
        *in += used;
        *in_len -= used;
        total += made;
        if (rc == 1)
            d->complete = 1;
        else if (used > 0 || made > 0)
            d->complete = 0;
        if (used == 0 && made == 0 && rc != 1)
            break; /* needs more input, or more room */
        if (rc == 1 && *in_len == 0)
            break;
    }
    *complete = d->complete;
    return total;
}
