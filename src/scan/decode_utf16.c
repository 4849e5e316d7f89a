#include "decode_utf16.h"
#include "textsafe.h"

enum { REPLACEMENT = 0xFFFD };

void utf16_init(struct utf16_dec *d, int big_endian)
{
    d->big_endian = big_endian;
    d->have_byte = 0;
    d->byte = 0;
    d->high = 0;
}

/* Writes the UTF-8 of code unit U, pairing surrogates. */
static size_t put_unit(struct utf16_dec *d, unsigned u, char *o)
{
    size_t w = 0;
    if (d->high != 0) {
        if (u >= 0xDC00 && u <= 0xDFFF) {
            unsigned cp = 0x10000 + ((d->high - 0xD800) << 10) + (u - 0xDC00);
            d->high = 0;
            return textsafe_put_utf8(o, cp);
        }
        d->high = 0;
        w += textsafe_put_utf8(o, REPLACEMENT);
    }
    if (u >= 0xD800 && u <= 0xDBFF)
        d->high = u;
    else if (u >= 0xDC00 && u <= 0xDFFF)
        w += textsafe_put_utf8(o + w, REPLACEMENT);
    else
        w += textsafe_put_utf8(o + w, u);
    return w;
}

size_t utf16_decode(struct utf16_dec *d, const unsigned char *in, size_t n, size_t *used, char *out, size_t room)
{
    size_t i = 0, w = 0;
    int hi = d->big_endian ? 0 : 1; /* index of the high byte in a pair */
    while (w + UTF16_OUT_MAX <= room) {
        unsigned char b[2];
        if (d->have_byte) {
            if (i >= n)
                break;
            b[0] = d->byte;
            b[1] = in[i++];
            d->have_byte = 0;
        } else if (i + 1 < n) {
            b[0] = in[i];
            b[1] = in[i + 1];
            i += 2;
        } else {
            if (i < n) {
                d->byte = in[i++];
                d->have_byte = 1;
            }
            break;
        }
        unsigned u = ((unsigned)b[hi] << 8) | b[1 - hi];
        if (u < 0x80 && d->high == 0)
            out[w++] = (char)u;
        else
            w += put_unit(d, u, out + w);
    }
    *used = i;
    return w;
}

size_t utf16_finish(struct utf16_dec *d, char *out, size_t room)
{
    size_t w = 0;
    if (room < UTF16_OUT_MAX)
        return 0;
    if (d->high != 0) {
        w += textsafe_put_utf8(out + w, REPLACEMENT);
        d->high = 0;
    }
    if (d->have_byte) {
        w += textsafe_put_utf8(out + w, REPLACEMENT);
        d->have_byte = 0;
    }
    return w;
}
