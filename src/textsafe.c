#include "textsafe.h"

#include <stdlib.h>
#include <string.h>

/* Length of the valid UTF-8 sequence at S (LEN bytes left), or 0. */
static size_t utf8_length(const unsigned char *s, size_t len)
{
    size_t n;
    unsigned min;
    unsigned cp;
    if (s[0] < 0x80)
        return 1;
    if ((s[0] & 0xe0) == 0xc0) {
        n = 2;
        cp = s[0] & 0x1f;
        min = 0x80;
    } else if ((s[0] & 0xf0) == 0xe0) {
        n = 3;
        cp = s[0] & 0x0f;
        min = 0x800;
    } else if ((s[0] & 0xf8) == 0xf0) {
        n = 4;
        cp = s[0] & 0x07;
        min = 0x10000;
    } else {
        return 0;
    }
    if (n > len)
        return 0;
    for (size_t i = 1; i < n; i++) {
        if ((s[i] & 0xc0) != 0x80)
            return 0;
        cp = (cp << 6) | (s[i] & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
        return 0;
    if (cp >= 0x80 && cp <= 0x9f) /* C1 controls */
        return 0;
    return n;
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
        size_t n = utf8_length(s + i, len - i);
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
