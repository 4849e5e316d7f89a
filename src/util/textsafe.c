#include "textsafe.h"

#include <stdlib.h>
#include <string.h>

size_t textsafe_utf8_decode(const char *str, size_t len, unsigned long *cp)
{
    const unsigned char *s = (const unsigned char *)str;
    size_t n;
    unsigned long c, min;
    if (len == 0)
        return 0;
    if (s[0] < 0x80) {
        *cp = s[0];
        return 1;
    }
    if ((s[0] & 0xe0) == 0xc0) {
        n = 2;
        c = s[0] & 0x1f;
        min = 0x80;
    } else if ((s[0] & 0xf0) == 0xe0) {
        n = 3;
        c = s[0] & 0x0f;
        min = 0x800;
    } else if ((s[0] & 0xf8) == 0xf0) {
        n = 4;
        c = s[0] & 0x07;
        min = 0x10000;
    } else {
        return 0;
    }
    if (n > len)
        return 0;
    for (size_t i = 1; i < n; i++) {
        if ((s[i] & 0xc0) != 0x80)
            return 0;
        c = (c << 6) | (s[i] & 0x3f);
    }
    if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
        return 0;
    *cp = c;
    return n;
}

size_t textsafe_utf8_cut(const char *s, size_t len, size_t max)
{
    size_t n = len < max ? len : max, k = n, cont = 0;
    while (k > 0 && cont < 3 && ((unsigned char)s[k - 1] & 0xc0) == 0x80) {
        k--;
        cont++;
    }
    if (k == 0)
        return n;
    unsigned char lead = (unsigned char)s[k - 1];
    size_t want = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
    return want > cont + 1 ? k - 1 : n;
}

char *textsafe_dup(const char *in, size_t len, size_t max_out)
{
    static const char replacement[] = "\xef\xbf\xbd";
    static const char ellipsis[] = "\xe2\x80\xa6";
    const unsigned char *s = (const unsigned char *)in;
    size_t room = len <= max_out / 3 ? len * 3 : max_out; /* U+FFFD triples a byte */
    char *out = malloc(room + sizeof ellipsis);
    size_t o = 0;
    if (out == NULL)
        return NULL;
    for (size_t i = 0; i < len;) {
        /* A run of printable ASCII, most of any log, is copied whole. */
        size_t r = i;
        while (r + 8 <= len && textsafe_printable8(s + r))
            r += 8;
        while (r < len && s[r] >= 0x20 && s[r] < 0x7f)
            r++;
        if (r > i) {
            size_t fit = room - o < r - i ? room - o : r - i;
            memcpy(out + o, s + i, fit);
            o += fit;
            if (fit < r - i) {
                memcpy(out + o, ellipsis, 3);
                o += 3;
                break;
            }
            i = r;
            continue;
        }
        unsigned long cp = s[i];
        size_t n = 1;
        if (cp >= 0x80) {
            n = textsafe_utf8_decode((const char *)s + i, len - i, &cp);
            if (cp >= 0x80 && cp <= 0x9f) /* C1 controls */
                n = 0;
        }
        const char *piece = (const char *)s + i;
        size_t plen = n;
        if (n == 0) {
            piece = replacement;
            plen = 3;
            n = 1;
        } else if (n == 1 && (s[i] < 0x20 || s[i] == 0x7f)) {
            piece = s[i] == '\t' ? " " : "";
            plen = s[i] == '\t' ? 1 : 0;
        }
        if (o + plen > room) {
            memcpy(out + o, ellipsis, 3);
            o += 3;
            break;
        }
        memcpy(out + o, piece, plen);
        o += plen;
        i += n;
    }
    /* Trailing spaces carry nothing. */
    while (o > 0 && out[o - 1] == ' ')
        o--;
    out[o] = '\0';
    return out;
}

int textsafe_cp_columns(unsigned long cp)
{
    static const unsigned long wide[][2] = {
        {0x1100, 0x115f}, {0x2e80, 0x303e},   {0x3041, 0x33ff},   {0x3400, 0x4dbf},   {0x4e00, 0x9fff},
        {0xa000, 0xa4cf}, {0xac00, 0xd7a3},   {0xf900, 0xfaff},   {0xfe30, 0xfe4f},   {0xff00, 0xff60},
        {0xffe0, 0xffe6}, {0x1f300, 0x1f64f}, {0x1f900, 0x1f9ff}, {0x20000, 0x3fffd},
    };
    if ((cp >= 0x300 && cp <= 0x36f) || (cp >= 0x200b && cp <= 0x200f))
        return 0;
    for (size_t i = 0; i < sizeof wide / sizeof wide[0]; i++)
        if (cp >= wide[i][0] && cp <= wide[i][1])
            return 2;
    return 1;
}

/* The bytes of the character at S (LEN > 0 bytes left) and, in *W, its
 * columns; a byte that starts no UTF-8 sequence is one column. */
static size_t next_char(const char *s, size_t len, size_t *w)
{
    unsigned long cp = (unsigned char)s[0];
    size_t n = 1;
    if (cp >= 0x80 && (n = textsafe_utf8_decode(s, len, &cp)) == 0) {
        n = 1;
        cp = (unsigned char)s[0];
    }
    /* Below U+0300 every character takes one column. */
    *w = cp < 0x300 ? 1 : (size_t)textsafe_cp_columns(cp);
    return n;
}

size_t textsafe_fit_columns(const char *s, size_t len, size_t cols, size_t *used)
{
    size_t i = 0, width = 0;
    while (i < len) {
        size_t w, n = next_char(s + i, len - i, &w);
        if (width + w > cols)
            break;
        width += w;
        i += n;
    }
    if (used != NULL)
        *used = width;
    return i;
}

size_t textsafe_fit_tail(const char *s, size_t len, size_t cols, size_t *used)
{
    size_t i = 0, width = 0;
    textsafe_fit_columns(s, len, (size_t)-1, &width);
    while (i < len && width > cols) {
        size_t w, n = next_char(s + i, len - i, &w);
        width -= w;
        i += n;
    }
    if (used != NULL)
        *used = width;
    return i;
}

size_t textsafe_put_utf8(char *o, unsigned cp)
{
    if (cp < 0x80) {
        o[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        o[0] = (char)(0xC0 | (cp >> 6));
        o[1] = (char)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        o[0] = (char)(0xE0 | (cp >> 12));
        o[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        o[2] = (char)(0x80 | (cp & 0x3F));
        return 3;
    }
    o[0] = (char)(0xF0 | (cp >> 18));
    o[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
    o[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
    o[3] = (char)(0x80 | (cp & 0x3F));
    return 4;
}
