#include "container_log.h"

#include "textsafe.h"
#include <string.h>

static const char docker_log[] = "{\"log\":\"";
static const char docker_stream[] = "{\"stream\":\""; /* a record with empty text omits "log" */
enum { DOCKER_LOG_LEN = sizeof docker_log - 1, DOCKER_STREAM_LEN = sizeof docker_stream - 1 };

static int starts(const char *p, size_t n, const char *lit, size_t len)
{
    return n >= len && memcmp(p, lit, len) == 0;
}

static int digits(const char *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (p[i] < '0' || p[i] > '9')
            return 0;
    return 1;
}

/* Length of an RFC 3339 timestamp with optional fraction at P, 0 if none:
 * 2026-01-01T00:00:00.123456789Z or ...+02:00 (Go's RFC3339Nano). */
static size_t rfc3339(const char *p, size_t n)
{
    if (n < 20 || !digits(p, 4) || p[4] != '-' || !digits(p + 5, 2) || p[7] != '-' || !digits(p + 8, 2) ||
        p[10] != 'T' || !digits(p + 11, 2) || p[13] != ':' || !digits(p + 14, 2) || p[16] != ':' || !digits(p + 17, 2))
        return 0;
    size_t i = 19;
    if (i < n && p[i] == '.') {
        size_t f = ++i;
        while (i < n && i - f < 9 && p[i] >= '0' && p[i] <= '9')
            i++;
        if (i == f)
            return 0;
    }
    if (i < n && p[i] == 'Z')
        return i + 1;
    if (i + 6 <= n && (p[i] == '+' || p[i] == '-') && digits(p + i + 1, 2) && p[i + 3] == ':' && digits(p + i + 4, 2))
        return i + 6;
    return 0;
}

/* A CRI record's header "TIMESTAMP STREAM TAG " at P: the offset of its
 * text, 0 if P is not one.  *PARTIAL: the first tag is "P"; *STREAM: 1
 * stdout, 2 stderr. */
static size_t cri_header(const char *p, size_t n, int *partial, int *stream)
{
    size_t i = rfc3339(p, n);
    if (i == 0 || i >= n || p[i] != ' ')
        return 0;
    i++;
    if (starts(p + i, n - i, "stdout ", 7))
        *stream = 1;
    else if (starts(p + i, n - i, "stderr ", 7))
        *stream = 2;
    else
        return 0;
    i += 7;
    size_t tag = i;
    while (i < n && p[i] != ' ' && p[i] != ':')
        i++;
    if (i == tag)
        return 0;
    *partial = i - tag == 1 && p[tag] == 'P';
    while (i < n && p[i] != ' ') /* further tags, kept forward compatible */
        i++;
    return i < n ? i + 1 : i; /* an empty text may lack the space */
}

/* Is the whole line P (N bytes, "\r" and "\n" stripped) a record of F? */
static int is_record(enum clog_format f, const char *p, size_t n)
{
    if (f == CLOG_DOCKER_JSON) {
        if (!starts(p, n, docker_log, DOCKER_LOG_LEN) && !starts(p, n, docker_stream, DOCKER_STREAM_LEN))
            return 0;
        static const char time_key[] = "\"time\":\"";
        return n >= 2 && p[n - 2] == '"' && p[n - 1] == '}' && memmem(p, n, time_key, sizeof time_key - 1) != NULL;
    }
    int partial, stream;
    return cri_header(p, n, &partial, &stream) != 0;
}

/* Could P (N bytes), the start of a longer first line, be a record of F? */
static int is_record_start(enum clog_format f, const char *p, size_t n)
{
    if (f == CLOG_DOCKER_JSON)
        return starts(p, n, docker_log, DOCKER_LOG_LEN);
    int partial, stream;
    return n > 40 && cri_header(p, n, &partial, &stream) != 0;
}

enum clog_format clog_detect(const char *p, size_t n, int at_end)
{
    static const enum clog_format formats[] = {CLOG_DOCKER_JSON, CLOG_CRI};
    for (size_t k = 0; k < 2; k++) {
        enum clog_format f = formats[k];
        size_t at = 0, lines = 0, records = 0;
        int first = 0;
        while (lines < 8 && at < n) {
            const char *nl = memchr(p + at, '\n', n - at);
            if (nl == NULL && !at_end) {
                if (lines == 0) /* a first line longer than the block */
                    first = records = lines = (size_t)is_record_start(f, p, n);
                break;
            }
            size_t end = nl ? (size_t)(nl - p) : n, len = end - at;
            if (len > 0 && p[at + len - 1] == '\r')
                len--;
            int rec = is_record(f, p + at, len);
            if (lines == 0)
                first = rec;
            records += (size_t)rec;
            lines++;
            at = end + 1;
        }
        /* The first line a record, and most of the first eight: a record
         * cut by a crash among them does not switch the format off. */
        if (first && records * 2 > lines)
            return f;
    }
    return CLOG_NONE;
}

void clog_begin(enum clog_format f, const char *rec, size_t len, struct clog_rec *st)
{
    st->pos = 0;
    st->json = 0;
    st->newline = 1;
    st->done = 0;
    st->stream = 0;
    st->last = -1;
    if (f == CLOG_DOCKER_JSON) {
        const char *s = NULL;
        if (starts(rec, len, docker_log, DOCKER_LOG_LEN)) {
            st->pos = DOCKER_LOG_LEN;
            st->json = 1;
            st->newline = 0; /* the text carries its own "\n" */
            /* The text's own quotes are escaped: the first "stream" key
             * after it is the record's. */
            static const char key[] = "\"stream\":\"";
            s = memmem(rec + st->pos, len - st->pos, key, sizeof key - 1);
            if (s != NULL)
                s += sizeof key - 1;
        } else if (starts(rec, len, docker_stream, DOCKER_STREAM_LEN)) {
            st->done = 1; /* no text */
            st->newline = 0;
            s = rec + DOCKER_STREAM_LEN;
        }
        if (s != NULL && s + 6 <= rec + len)
            st->stream = memcmp(s, "stdout", 6) == 0 ? 1 : memcmp(s, "stderr", 6) == 0 ? 2 : 0;
        return;
    }
    int partial, stream;
    size_t text = cri_header(rec, len, &partial, &stream);
    if (text > 0) {
        st->pos = text;
        st->newline = !partial;
        st->stream = stream;
    }
}

static int hex4(const char *p, unsigned *v)
{
    unsigned x = 0;
    for (int i = 0; i < 4; i++) {
        char c = p[i];
        x <<= 4;
        if (c >= '0' && c <= '9')
            x |= (unsigned)(c - '0');
        else if (c >= 'a' && c <= 'f')
            x |= (unsigned)(c - 'a' + 10);
        else if (c >= 'A' && c <= 'F')
            x |= (unsigned)(c - 'A' + 10);
        else
            return 0;
    }
    *v = x;
    return 1;
}

/* Decodes the escape at REC[*POS] (a backslash) into O; advances *POS. */
static size_t unescape(const char *rec, size_t len, size_t *pos, char *o)
{
    size_t i = *pos;
    if (i + 1 >= len) { /* a backslash at the end of a cut record */
        *pos = len;
        o[0] = '\\';
        return 1;
    }
    char c = rec[i + 1];
    static const char from[] = "nrtbf\"\\/", to[] = "\n\r\t\b\f\"\\/";
    const char *k = c ? strchr(from, c) : NULL;
    if (k != NULL) {
        *pos = i + 2;
        o[0] = to[k - from];
        return 1;
    }
    unsigned u, lo;
    if (c == 'u' && i + 6 <= len && hex4(rec + i + 2, &u)) {
        *pos = i + 6;
        if (u >= 0xD800 && u <= 0xDBFF && i + 12 <= len && rec[i + 6] == '\\' && rec[i + 7] == 'u' &&
            hex4(rec + i + 8, &lo) && lo >= 0xDC00 && lo <= 0xDFFF) {
            *pos = i + 12;
            return textsafe_put_utf8(o, 0x10000 + ((u - 0xD800) << 10) + (lo - 0xDC00));
        }
        if (u >= 0xD800 && u <= 0xDFFF)
            u = 0xFFFD;
        return textsafe_put_utf8(o, u);
    }
    *pos = i + 1; /* not an escape JSON knows: keep the backslash */
    o[0] = '\\';
    return 1;
}

static size_t emit(struct clog_rec *st, const char *rec, size_t len, char *out, size_t room)
{
    size_t w = 0;
    while (!st->done && w + 4 < room) {
        if (st->pos >= len) { /* the end of the record (a JSON string cut short ends here too) */
            if (st->json) {
                st->json = 0;
                st->newline = 1;
            }
            if (st->newline)
                out[w++] = '\n';
            st->done = 1;
            break;
        }
        const char *p = rec + st->pos;
        size_t n = len - st->pos, k = room - w - 4;
        if (k > n)
            k = n;
        if (!st->json) { /* raw text */
            memcpy(out + w, p, k);
            w += k;
            st->pos += k;
            continue;
        }
        size_t run = 0; /* bytes before the next quote or backslash */
        while (run < k && p[run] != '"' && p[run] != '\\')
            run++;
        memcpy(out + w, p, run);
        w += run;
        st->pos += run;
        if (run == k)
            continue;
        if (p[run] == '"') { /* the end of the text; the rest (stream, time) is not needed */
            st->done = 1;
            if (st->newline)
                out[w++] = '\n';
            break;
        }
        w += unescape(rec, len, &st->pos, out + w);
    }
    return w;
}

size_t clog_emit(struct clog_rec *st, const char *rec, size_t len, char *out, size_t room)
{
    size_t w = emit(st, rec, len, out, room);
    if (w > 0)
        st->last = (unsigned char)out[w - 1];
    return w;
}
