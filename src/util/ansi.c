#include "ansi.h"

#include <string.h>

enum { ESC = 0x1b, BEL = 0x07 };

/* Length of the escape sequence at IN[0] == ESC (at most LEN). */
static size_t sequence_length(const unsigned char *in, size_t len)
{
    size_t i = 1;
    if (len < 2)
        return len;
    if (in[1] == '[') { /* CSI: parameters, intermediates, one final byte */
        for (i = 2; i < len; i++)
            if (in[i] >= 0x40 && in[i] <= 0x7e)
                return i + 1;
        return len;
    }
    if (in[1] == ']' || in[1] == 'P' || in[1] == '_' || in[1] == '^') { /* OSC, DCS, APC, PM */
        for (i = 2; i < len; i++) {
            if (in[i] == BEL)
                return i + 1;
            if (in[i] == ESC && i + 1 < len && in[i + 1] == '\\')
                return i + 2;
        }
        return len;
    }
    while (i < len && in[i] >= 0x20 && in[i] <= 0x2f) /* intermediates, e.g. "ESC ( B" */
        i++;
    return i < len ? i + 1 : len;
}

size_t ansi_strip(const char *in, size_t len, char *out)
{
    const unsigned char *s = (const unsigned char *)in;
    size_t o = 0;
    for (size_t i = 0; i < len;) {
        const unsigned char *esc = memchr(s + i, ESC, len - i); /* the text up to it is copied as it is */
        size_t run = esc != NULL ? (size_t)(esc - (s + i)) : len - i;
        memmove(out + o, s + i, run); /* OUT may be IN */
        o += run;
        i += run;
        if (esc != NULL)
            i += sequence_length(s + i, len - i);
    }
    return o;
}
