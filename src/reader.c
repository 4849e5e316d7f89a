#include "reader.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

/* ZBUF_SIZE must hold a whole first read: start_gzip moves it there. */
enum { BUF_SIZE = READER_LINE_CAP + READER_READ_SIZE, ZBUF_SIZE = READER_READ_SIZE };

struct reader {
    int fd;
    char *buf;
    size_t start, end; /* unread bytes are buf[start, end) */
    int eof, failed, sniffed, binary, skipping;
    char error[160];
    unsigned long long lineno; /* "\n" consumed so far */
    unsigned long long bytes;
    int open_line; /* bytes seen since the last "\n" */
    /* Where the next "\r" and ESC are, found by one memchr over the
     * buffer rather than one per line; valid while cached_end == end. */
    size_t next_cr, next_esc, cached_end;
    /* gzip */
    int gz, gz_done;
    z_stream zs;
    unsigned char *zbuf;
    int zeof;
};

struct reader *reader_create(int fd)
{
    struct reader *r = calloc(1, sizeof *r);
    if (r == NULL)
        return NULL;
    r->fd = fd;
    r->cached_end = (size_t)-1;
    r->buf = malloc(BUF_SIZE);
    if (r->buf == NULL) {
        free(r);
        return NULL;
    }
    return r;
}

void reader_reset(struct reader *r, int fd)
{
    char *buf = r->buf;
    unsigned char *zbuf = r->zbuf;
    if (r->gz)
        inflateEnd(&r->zs);
    memset(r, 0, sizeof *r);
    r->fd = fd;
    r->buf = buf;
    r->zbuf = zbuf;
    r->cached_end = (size_t)-1;
}

void reader_free(struct reader *r)
{
    if (r == NULL)
        return;
    if (r->gz)
        inflateEnd(&r->zs);
    free(r->zbuf);
    free(r->buf);
    free(r);
}

static int fail(struct reader *r, const char *what)
{
    snprintf(r->error, sizeof r->error, "%s", what);
    r->failed = 1;
    r->eof = 1;
    return -1;
}

static ssize_t raw_read(struct reader *r, void *dst, size_t n)
{
    for (;;) {
        ssize_t got = read(r->fd, dst, n);
        if (got >= 0 || errno != EINTR)
            return got;
    }
}

static int start_gzip(struct reader *r)
{
    if (r->zbuf == NULL)
        r->zbuf = malloc(ZBUF_SIZE);
    if (r->zbuf == NULL)
        return fail(r, "out of memory");
    memset(&r->zs, 0, sizeof r->zs);
    if (inflateInit2(&r->zs, 15 + 16) != Z_OK)
        return fail(r, "cannot start gzip decompression");
    r->gz = 1;
    /* The bytes already read are compressed: move them to zbuf. */
    memcpy(r->zbuf, r->buf + r->start, r->end - r->start);
    r->zs.next_in = r->zbuf;
    r->zs.avail_in = (uInt)(r->end - r->start);
    r->start = r->end = 0;
    return 0;
}

/* Inflates into buf[end, BUF_SIZE). Returns bytes produced.  On damaged
 * data what came before the damage is still returned, the failure set
 * for reader_next to report once those lines are out. */
static long gz_fill(struct reader *r)
{
    r->zs.next_out = (unsigned char *)r->buf + r->end;
    r->zs.avail_out = (uInt)(BUF_SIZE - r->end);
    while (r->zs.avail_out > 0) {
        if (r->zs.avail_in == 0 && !r->zeof) {
            ssize_t got = raw_read(r, r->zbuf, ZBUF_SIZE);
            if (got < 0) {
                fail(r, strerror(errno));
                break;
            }
            if (got == 0)
                r->zeof = 1;
            r->zs.next_in = r->zbuf;
            r->zs.avail_in = (uInt)got;
        }
        if (r->zs.avail_in == 0 && r->zeof) {
            if (!r->gz_done)
                fail(r, "truncated gzip data (unexpected end of compressed input)");
            break;
        }
        if (r->gz_done) { /* another gzip member follows */
            if (inflateReset(&r->zs) != Z_OK) {
                fail(r, "corrupt gzip data");
                break;
            }
            r->gz_done = 0;
        }
        int rc = inflate(&r->zs, Z_NO_FLUSH);
        if (rc == Z_STREAM_END) {
            r->gz_done = 1;
        } else if (rc == Z_BUF_ERROR && r->zs.avail_in == 0) {
            continue;
        } else if (rc != Z_OK) {
            char msg[128];
            snprintf(msg, sizeof msg, "corrupt gzip data (%s)", r->zs.msg ? r->zs.msg : "inflate failed");
            fail(r, msg);
            break;
        }
        if ((size_t)(BUF_SIZE - r->end) - r->zs.avail_out >= READER_READ_SIZE)
            break;
    }
    return (long)((size_t)(BUF_SIZE - r->end) - r->zs.avail_out);
}

/* Moves unread bytes to the front and reads more. 0, or -1 on error. */
static int fill(struct reader *r)
{
    r->cached_end = (size_t)-1;
    if (r->start > 0) {
        memmove(r->buf, r->buf + r->start, r->end - r->start);
        r->end -= r->start;
        r->start = 0;
    }
    long got;
    if (r->gz) {
        got = gz_fill(r);
        if (got < 0) {
            r->eof = 1;
            return -1;
        }
        if (got == 0)
            r->eof = 1;
    } else {
        size_t room = BUF_SIZE - r->end;
        if (room > READER_READ_SIZE)
            room = READER_READ_SIZE;
        ssize_t n = raw_read(r, r->buf + r->end, room);
        if (n < 0)
            return fail(r, strerror(errno));
        got = n;
        if (n == 0)
            r->eof = 1;
    }
    r->end += (size_t)got;
    r->bytes += (unsigned long long)got;
    if (!r->sniffed && (r->end > 0 || r->eof)) {
        if (!r->gz && r->end >= 2 && (unsigned char)r->buf[0] == 0x1f && (unsigned char)r->buf[1] == 0x8b) {
            r->bytes = 0;
            if (start_gzip(r) != 0)
                return -1;
            return fill(r);
        }
        if (!r->gz && r->end < 2 && !r->eof)
            return 0;
        r->sniffed = 1;
        size_t n = r->end < READER_SNIFF ? r->end : READER_SNIFF;
        r->binary = memchr(r->buf, '\0', n) != NULL;
    }
    return 0;
}

/* Position of the next byte C at or after FROM, or end if none. */
static size_t find_from(const struct reader *r, size_t from, int c)
{
    const char *p = from < r->end ? memchr(r->buf + from, c, r->end - from) : NULL;
    return p ? (size_t)(p - r->buf) : r->end;
}

static void set_flags(struct reader *r, struct line *ln)
{
    size_t at = (size_t)(ln->text - r->buf);
    if (r->next_esc < at)
        r->next_esc = find_from(r, at, 0x1b);
    ln->has_escape = r->next_esc < at + ln->len;
}

/* Hands out the LEN bytes at the read position as a line and consumes
 * SKIP more (its terminator); NEWLINE: a "\n" ended it. */
static void take(struct reader *r, struct line *ln, size_t len, size_t skip, int newline)
{
    ln->text = r->buf + r->start;
    ln->len = len;
    ln->number = r->lineno + 1;
    ln->truncated = 0;
    ln->cr_ended = 0;
    r->start += len + skip;
    r->lineno += newline != 0;
    r->open_line = !newline;
}

int reader_next(struct reader *r, struct line *ln)
{
    for (;;) {
        char *s = r->buf + r->start;
        size_t avail = r->end - r->start;
        /* A line ends within READER_LINE_CAP bytes or is cut there: the
         * buffer may hold more than that (a fill tops up a nearly full
         * one), and callers size their scratch space by the cap. */
        size_t look = avail <= READER_LINE_CAP ? avail : READER_LINE_CAP + 1;
        char *nl = look ? memchr(s, '\n', look) : NULL;
        size_t scan = nl ? (size_t)(nl - s) : look;
        if (r->cached_end != r->end) {
            r->next_cr = find_from(r, r->start, '\r');
            r->next_esc = find_from(r, r->start, 0x1b);
            r->cached_end = r->end;
        } else if (r->next_cr < r->start) {
            r->next_cr = find_from(r, r->start, '\r');
        }
        char *cr = r->next_cr < r->start + scan ? r->buf + r->next_cr : NULL;
        if (cr != NULL && (cr + 1 < s + avail || r->eof)) {
            int crlf = cr + 1 == nl;
            take(r, ln, (size_t)(cr - s), crlf ? 2 : 1, crlf);
            ln->cr_ended = !crlf;
        } else if (nl != NULL && cr == NULL) {
            take(r, ln, scan, 1, 1);
        } else if (avail >= READER_LINE_CAP) {
            /* No end in sight: hand out the first cap bytes, skip the rest. */
            take(r, ln, READER_LINE_CAP, 0, 0);
            ln->truncated = 1;
            if (r->skipping)
                continue;
            r->skipping = 1;
            set_flags(r, ln);
            return 1;
        } else if (r->eof) {
            if (avail == 0)
                return r->failed ? -1 : 0;
            take(r, ln, avail, 0, 1); /* a last line without "\n" still counts */
        } else {
            if (fill(r) != 0 && avail == 0 && r->end == r->start)
                return -1;
            continue;
        }
        if (r->skipping) { /* the tail of a cut line */
            r->skipping = 0;
            continue;
        }
        set_flags(r, ln);
        return 1;
    }
}

const char *reader_error(const struct reader *r)
{
    return r->failed ? r->error : NULL;
}

int reader_is_binary(const struct reader *r)
{
    return r->binary;
}

unsigned long long reader_lines(const struct reader *r)
{
    return r->lineno + (r->open_line ? 1 : 0);
}

unsigned long long reader_bytes(const struct reader *r)
{
    return r->bytes;
}

int reader_is_gzip(const struct reader *r)
{
    return r->gz;
}
