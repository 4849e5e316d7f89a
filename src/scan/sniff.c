#include "sniff.h"

#include <stdint.h>
#include <string.h>

#include "decode_utf16.h"
#include "textsafe.h"

struct magic {
    size_t offset, len;
    const char *bytes;
};

/* Formats that are never a log.  gzip is here too: the reader inflates one
 * layer, so gzip inside gzip (a .tar.gz of a .gz) is an archive. */
static const struct magic magics[] = {
    {0, 4,
     "\x7f"
     "ELF"},                      /* executables, shared objects, core dumps */
    {0, 8, "\x89PNG\r\n\x1a\n"},  /* PNG */
    {0, 3, "\xff\xd8\xff"},       /* JPEG */
    {0, 6, "GIF87a"},             /* GIF */
    {0, 6, "GIF89a"},             /* GIF */
    {0, 4, "PK\x03\x04"},         /* zip: wheels, jars, torch.save checkpoints */
    {0, 4, "PK\x05\x06"},         /* empty zip */
    {0, 6, "7z\xbc\xaf\x27\x1c"}, /* 7-Zip */
    {0, 6,
     "\xfd"
     "7zXZ\x00"},                   /* xz */
    {0, 4, "\x28\xb5\x2f\xfd"},     /* zstd */
    {0, 4, "\x04\x22\x4d\x18"},     /* lz4 frame */
    {0, 2, "\x1f\x8b"},             /* gzip (inside gzip) */
    {0, 5, "%PDF-"},                /* PDF */
    {0, 4, "\xca\xfe\xba\xbe"},     /* Java class, Mach-O universal */
    {0, 4, "\xfe\xed\xfa\xce"},     /* Mach-O */
    {0, 4, "\xfe\xed\xfa\xcf"},     /* Mach-O 64 */
    {0, 4, "\xce\xfa\xed\xfe"},     /* Mach-O, little-endian */
    {0, 4, "\xcf\xfa\xed\xfe"},     /* Mach-O 64, little-endian */
    {0, 6, "\x93NUMPY"},            /* numpy .npy */
    {0, 8, "\x89HDF\r\n\x1a\n"},    /* HDF5 */
    {0, 16, "SQLite format 3\x00"}, /* SQLite */
    {0, 4, "PAR1"},                 /* Parquet */
    {257, 5, "ustar"},              /* tar */
    {0, 2, "\x80\x02"},             /* pickle, protocols 2 to 5 */
    {0, 2, "\x80\x03"},
    {0, 2, "\x80\x04"},
    {0, 2, "\x80\x05"},
};

static unsigned long long le64(const unsigned char *p)
{
    unsigned long long v = 0;
    for (int i = 7; i >= 0; i--)
        v = (v << 8) | p[i];
    return v;
}

int sniff_magic(const unsigned char *p, size_t n)
{
    for (size_t i = 0; i < sizeof magics / sizeof magics[0]; i++) {
        const struct magic *m = &magics[i];
        if (n >= m->offset + m->len && memcmp(p + m->offset, m->bytes, m->len) == 0)
            return 1;
    }
    /* RIFF containers (WAV, AVI, WebP): "RIFF", a size, a four-letter type. */
    if (n >= 12 && memcmp(p, "RIFF", 4) == 0 &&
        (memcmp(p + 8, "WAVE", 4) == 0 || memcmp(p + 8, "AVI ", 4) == 0 || memcmp(p + 8, "WEBP", 4) == 0))
        return 1;
    /* A Windows executable: "MZ", and "PE\0\0" where its header points. */
    if (n >= 64 && p[0] == 'M' && p[1] == 'Z') {
        size_t pe = (size_t)p[60] | (size_t)p[61] << 8 | (size_t)p[62] << 16 | (size_t)p[63] << 24;
        if (pe + 4 <= n && memcmp(p + pe, "PE\0\0", 4) == 0)
            return 1;
    }
    /* safetensors: the JSON header's length as 8 bytes, then the header. */
    if (n >= 10 && p[8] == '{' && p[9] == '"') {
        unsigned long long len = le64(p);
        if (len >= 2 && len < (1ULL << 32))
            return 1;
    }
    return 0;
}

/* Length of the valid UTF-8 sequence at P (N bytes available), 0 if it is
 * not one, -1 if it is cut by the end of the block. */
static int utf8_seq(const unsigned char *p, size_t n)
{
    unsigned c = p[0];
    int len;
    unsigned min;
    if (c >= 0xC2 && c <= 0xDF)
        len = 2, min = 0x80;
    else if (c >= 0xE0 && c <= 0xEF)
        len = 3, min = 0x800;
    else if (c >= 0xF0 && c <= 0xF4)
        len = 4, min = 0x10000;
    else
        return 0;
    unsigned cp = c & (0x7F >> len);
    for (int i = 1; i < len; i++) {
        if ((size_t)i >= n)
            return -1;
        if ((p[i] & 0xC0) != 0x80)
            return 0;
        cp = (cp << 6) | (p[i] & 0x3F);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
        return 0;
    return len;
}

/* Text controls: tab, newline, vertical tab, form feed, carriage return,
 * and BEL, backspace and ESC, which terminals and progress bars write. */
static int text_control(unsigned c)
{
    return (c >= '\a' && c <= '\r') || c == 0x1b;
}

int sniff_mostly_binary(const unsigned char *p, size_t n, int at_end)
{
    size_t text = 0, bad = 0;
    for (size_t i = 0; i < n;) {
        if (i + 8 <= n && textsafe_printable8(p + i)) { /* most of a log */
            text += 8;
            i += 8;
            continue;
        }
        unsigned c = p[i];
        if (c == 0) {
            i++;
        } else if (c < 0x80) {
            if ((c >= 0x20 && c != 0x7f) || text_control(c))
                text++;
            else
                bad++;
            i++;
        } else {
            int len = utf8_seq(p + i, n - i);
            if (len < 0 && !at_end)
                break;
            if (len > 0) {
                text += (size_t)len;
                i += (size_t)len;
            } else {
                bad++;
                i++;
            }
        }
    }
    return bad * 10 > (text + bad) * 3;
}

enum { SAMPLE = 4096 };

enum sniff_encoding sniff_encoding(const unsigned char *p, size_t n, size_t *bom)
{
    *bom = 0;
    if (n >= 3 && p[0] == 0xEF && p[1] == 0xBB && p[2] == 0xBF) {
        *bom = 3;
        return SNIFF_UTF8;
    }
    if (n >= 2 && p[0] == 0xFF && p[1] == 0xFE) {
        *bom = 2;
        return SNIFF_UTF16LE;
    }
    if (n >= 2 && p[0] == 0xFE && p[1] == 0xFF) {
        *bom = 2;
        return SNIFF_UTF16BE;
    }
    if (memchr(p, 0, n) == NULL) /* most logs */
        return SNIFF_UTF8;
    /* Code units with exactly one NUL byte: LO (the low byte is not NUL,
     * as ASCII in UTF-16LE) and HI (as in UTF-16BE); OTHER: neither byte
     * NUL.  Units of two NULs (a hole) say nothing. */
    size_t lo = 0, hi = 0, other = 0;
    for (size_t i = 0; i + 1 < n; i += 2) {
        int z0 = p[i] == 0, z1 = p[i + 1] == 0;
        if (z0 && z1)
            continue;
        if (z1)
            lo++;
        else if (z0)
            hi++;
        else
            other++;
    }
    enum sniff_encoding e;
    if (lo >= 4 && lo > other && hi * 8 < lo)
        e = SNIFF_UTF16LE;
    else if (hi >= 4 && hi > other && lo * 8 < hi)
        e = SNIFF_UTF16BE;
    else
        return SNIFF_UTF8;
    /* Arrays of small 16-bit numbers have the same pattern: the decoded
     * sample must be text. */
    struct utf16_dec d;
    char out[SAMPLE / 2 * 3 + UTF16_OUT_MAX];
    size_t used;
    utf16_init(&d, e == SNIFF_UTF16BE);
    size_t w = utf16_decode(&d, p, n < SAMPLE ? n : SAMPLE, &used, out, sizeof out);
    return sniff_mostly_binary((const unsigned char *)out, w, 0) ? SNIFF_UTF8 : e;
}
