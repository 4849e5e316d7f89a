#include "reader.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "decode_utf16.h"
#include "decompress.h"

/* Three stages feed the line buffer, each pulling from the one below:
 * the input (read(), or a decompressor into buf), the text decoder
 * (UTF-16 through wbuf) and the container-log unwrapper (records through
 * rbuf).  The first block is read straight into buf and judged there
 * (prime) before the stages are chosen.  ZBUF_SIZE and WBUF_SIZE must
 * hold a whole first block: prime moves it there. */
enum {
    BUF_SIZE = READER_LINE_CAP + READER_READ_SIZE,
    ZBUF_SIZE = READER_READ_SIZE,
    WBUF_SIZE = READER_READ_SIZE,
    RBUF_SIZE = READER_LINE_CAP + READER_READ_SIZE
};

struct reader {
    int fd;
    char *buf;
    size_t start, end; /* unread bytes are buf[start, end) */
    int eof, failed, sniffed, binary;
    int skipping; /* after a cut line's head: 1, 2 once more than READER_TAIL bytes of its rest went by */
    char error[160];
    unsigned long long lineno; /* "\n" consumed so far */
    unsigned long long bytes;
    int open_line; /* bytes seen since the last "\n" */
    /* Where the next "\n", "\r", NUL and ESC are, each found by one memchr
     * over the buffer rather than one per line (a progress bar's "\r"
     * pieces would otherwise search for the same "\n" again and again);
     * valid while cached_end == end. */
    size_t next_nl, next_cr, next_nul, next_esc, cached_end;
    /* the input */
    int in_eof;
    enum decompress_kind zkind; /* the input's compression, by its magic number */
    struct decompress *dz;
    unsigned char *zbuf; /* compressed bytes read, zin[0, zin_len) not yet decoded */
    const unsigned char *zin;
    size_t zin_len;
    int zeof;
    /* the text decoder */
    enum sniff_encoding enc;
    struct utf16_dec u16;
    unsigned char *wbuf;
    size_t ws, we;
    int text_eof;
    int rec_in_eof; /* the container stage's input is exhausted */
    /* the container-log unwrapper */
    enum clog_format fmt;
    char *rbuf;
    size_t rs, re;
    size_t rec_len, rec_skip; /* the record being decoded: rbuf[rs, rs + rec_len), then rec_skip bytes */
    int in_rec, rec_discard;  /* rec_discard: the rest of a cut record is being dropped */
    int open_stream;          /* the stream whose line the text so far leaves open, or 0 */
    struct clog_rec rec;
};

/* A pipe's default 64 KiB buffer makes the writer and the reader take
 * turns every 64 KiB; as large a buffer as the system allows (1 MiB by
 * default) lets each read take a whole READER_READ_SIZE block. */
static void widen_pipe(int fd)
{
    struct stat st;
    if (fstat(fd, &st) == 0 && S_ISFIFO(st.st_mode))
        (void)fcntl(fd, F_SETPIPE_SZ, READER_PIPE_SIZE); /* the default stays where not allowed */
}

struct reader *reader_create(int fd)
{
    struct reader *r = calloc(1, sizeof *r);
    if (r == NULL)
        return NULL;
    r->fd = fd;
    r->cached_end = (size_t)-1;
    widen_pipe(fd);
    r->buf = malloc(BUF_SIZE);
    if (r->buf == NULL) {
        free(r);
        return NULL;
    }
    return r;
}

void reader_reset(struct reader *r, int fd)
{
    char *buf = r->buf, *rbuf = r->rbuf;
    unsigned char *zbuf = r->zbuf, *wbuf = r->wbuf;
    decompress_free(r->dz);
    memset(r, 0, sizeof *r);
    r->fd = fd;
    r->buf = buf;
    r->zbuf = zbuf;
    r->wbuf = wbuf;
    r->rbuf = rbuf;
    r->cached_end = (size_t)-1;
    widen_pipe(fd);
}

void reader_free(struct reader *r)
{
    if (r == NULL)
        return;
    decompress_free(r->dz);
    free(r->rbuf);
    free(r->wbuf);
    free(r->zbuf);
    free(r->buf);
    free(r);
}

/* Records the failure; the stages drain what they hold, then reader_next
 * reports it. */
static void fail(struct reader *r, const char *what)
{
    if (!r->failed)
        snprintf(r->error, sizeof r->error, "%s", what);
    r->failed = 1;
    r->in_eof = 1;
}

/* ---- the input ------------------------------------------------------------------------ */

/* read() rather than mmap: a mapped file that shrinks under the scan (a
 * log truncated by its writer) kills the process with SIGBUS, populated
 * pages or not, and a window of mmap would save only the kernel's copy,
 * about 1.5% of the CPU time of a whole run (issue 14); reads larger than
 * READER_READ_SIZE measured no gain, from a file or a pipe. */
static ssize_t raw_read(struct reader *r, void *dst, size_t n)
{
    for (;;) {
        ssize_t got = read(r->fd, dst, n);
        if (got >= 0 || errno != EINTR)
            return got;
    }
}

/* The bytes already in buf[start, end) are compressed (KIND): they move
 * to zbuf. */
static int start_decompress(struct reader *r, enum decompress_kind kind)
{
    char err[96];
    if (r->zbuf == NULL)
        r->zbuf = malloc(ZBUF_SIZE);
    if (r->zbuf == NULL) {
        fail(r, "out of memory");
        return -1;
    }
    if ((r->dz = decompress_start(kind, err, sizeof err)) == NULL) {
        fail(r, err);
        return -1;
    }
    r->zkind = kind;
    r->zeof = r->in_eof; /* the end of the raw input, not of the text */
    r->in_eof = 0;
    memcpy(r->zbuf, r->buf + r->start, r->end - r->start);
    r->zin = r->zbuf;
    r->zin_len = r->end - r->start;
    r->start = r->end = 0;
    r->bytes = 0;
    return 0;
}

/* Decompresses into DST (ROOM bytes). Returns bytes produced.  On damaged
 * data what came before the damage is still returned, the failure
 * recorded for reader_next to report once those lines are out. */
static size_t z_fill(struct reader *r, char *dst, size_t room)
{
    size_t total = 0;
    while (total < room) {
        if (r->zin_len == 0 && !r->zeof) {
            ssize_t got = raw_read(r, r->zbuf, ZBUF_SIZE);
            if (got < 0) {
                fail(r, strerror(errno));
                break;
            }
            r->zeof = got == 0;
            r->zin = r->zbuf;
            r->zin_len = (size_t)got;
        }
        char err[160];
        int complete = 0;
        size_t before = r->zin_len;
        size_t n = decompress_step(r->dz, &r->zin, &r->zin_len, r->zeof, (unsigned char *)dst + total, room - total,
                                   &complete, err, sizeof err);
        if (n == (size_t)-1) {
            fail(r, err);
            break;
        }
        total += n;
        if (r->zeof && r->zin_len == 0 && n == 0) {
            if (!complete) {
                snprintf(err, sizeof err, "truncated %s data (unexpected end of compressed input)",
                         decompress_name(r->zkind));
                fail(r, err);
            }
            r->in_eof = 1;
            break;
        }
        if (n == 0 && r->zin_len == before && r->zin_len > 0) {
            snprintf(err, sizeof err, "corrupt %s data (no progress)", decompress_name(r->zkind));
            fail(r, err);
            break;
        }
        if (total >= READER_READ_SIZE)
            break;
    }
    return total;
}

/* The input's next bytes into DST (at most ROOM); 0 at its end or after a
 * failure. */
static size_t read_input(struct reader *r, char *dst, size_t room)
{
    if (r->in_eof)
        return 0;
    size_t got;
    if (r->dz != NULL) {
        got = z_fill(r, dst, room);
    } else {
        ssize_t n = raw_read(r, dst, room);
        if (n < 0) {
            fail(r, strerror(errno));
            return 0;
        }
        got = (size_t)n;
    }
    if (got == 0)
        r->in_eof = 1;
    r->bytes += got;
    return got;
}

/* ---- the text decoder ------------------------------------------------------------------- */

/* Decoded text into DST (at most ROOM, at least UTF16_OUT_MAX); 0 only at
 * the end. */
static size_t read_text(struct reader *r, char *dst, size_t room)
{
    if (r->enc == SNIFF_UTF8)
        return read_input(r, dst, room);
    for (;;) {
        size_t w = 0;
        if (r->ws < r->we) {
            size_t used;
            w = utf16_decode(&r->u16, r->wbuf + r->ws, r->we - r->ws, &used, dst, room);
            r->ws += used;
        }
        if (w > 0)
            return w;
        if (r->ws < r->we)
            continue;
        if (r->text_eof)
            return 0;
        r->ws = 0;
        r->we = read_input(r, (char *)r->wbuf, WBUF_SIZE);
        if (r->we == 0) {
            r->text_eof = 1;
            w = utf16_finish(&r->u16, dst, room);
            if (w > 0)
                return w;
        }
    }
}

/* ---- the container-log unwrapper -------------------------------------------------------- */

/* The text of the next records into DST (at most ROOM); 0 only at the end. */
static size_t read_records(struct reader *r, char *dst, size_t room)
{
    size_t w = 0;
    while (w + 8 < room) {
        if (r->in_rec) {
            w += clog_emit(&r->rec, r->rbuf + r->rs, r->rec_len, dst + w, room - w);
            if (!r->rec.done)
                break;
            if (r->rec.last >= 0)
                r->open_stream = r->rec.last != '\n' ? r->rec.stream : 0;
            r->rs += r->rec_len + r->rec_skip;
            r->in_rec = 0;
            continue;
        }
        const char *at = r->rbuf + r->rs;
        const char *nl = r->rs < r->re ? memchr(at, '\n', r->re - r->rs) : NULL;
        if (r->rec_discard) { /* the rest of a record longer than the cap */
            if (nl != NULL) {
                r->rs = (size_t)(nl - r->rbuf) + 1;
                r->rec_discard = 0;
                continue;
            }
            r->rs = r->re;
        } else if (nl != NULL || r->re - r->rs >= READER_LINE_CAP || (r->rec_in_eof && r->rs < r->re)) {
            size_t len, skip = 0;
            if (nl != NULL) {
                len = (size_t)(nl - at); /* a "\r" before it is the text's (CRI) */
                skip = 1;
            } else if (r->re - r->rs >= READER_LINE_CAP) {
                len = READER_LINE_CAP;
                r->rec_discard = 1;
            } else { /* the last record, without "\n" */
                len = r->re - r->rs;
            }
            clog_begin(r->fmt, at, len, &r->rec);
            if (r->open_stream != 0 && r->rec.stream != 0 && r->rec.stream != r->open_stream) {
                /* A partial line of the other stream stays open: the
                 * streams' lines are not mixed, this one starts anew. */
                dst[w++] = '\n';
                r->open_stream = 0;
            }
            r->rec_len = len;
            r->rec_skip = skip;
            r->in_rec = 1;
            continue;
        }
        if (w > 0 || r->rec_in_eof)
            break;
        if (r->rs > 0) {
            memmove(r->rbuf, r->rbuf + r->rs, r->re - r->rs);
            r->re -= r->rs;
            r->rs = 0;
        }
        size_t space = RBUF_SIZE - r->re;
        size_t got = read_text(r, r->rbuf + r->re, space < READER_READ_SIZE ? space : READER_READ_SIZE);
        if (got == 0)
            r->rec_in_eof = 1;
        r->re += got;
    }
    return w;
}

/* ---- the first block -------------------------------------------------------------------- */

/* Moves buf[start, end) to the front of DST and empties buf. */
static size_t move_out(struct reader *r, void *dst)
{
    size_t n = r->end - r->start;
    memcpy(dst, r->buf + r->start, n);
    r->start = r->end = 0;
    return n;
}

/* Reads the first block (at least READER_SNIFF bytes, or the whole input)
 * into buf and chooses the stages from it. */
static void prime(struct reader *r)
{
    int z_checked = 0;
    r->sniffed = 1;
    while (r->end < READER_SNIFF && !r->in_eof) {
        r->end += read_input(r, r->buf + r->end, READER_READ_SIZE - r->end);
        /* One layer of compression, judged by the magic number once
         * enough bytes for the longest are in (or the input ended). */
        if (!z_checked && (r->end >= DECOMPRESS_MAGIC_MAX || r->in_eof)) {
            z_checked = 1;
            enum decompress_kind kind = decompress_sniff((const unsigned char *)r->buf, r->end);
            if (kind != DECOMPRESS_NONE && start_decompress(r, kind) != 0)
                return;
        }
    }
    const unsigned char *p = (const unsigned char *)r->buf;
    if (sniff_magic(p, r->end)) {
        r->binary = 1;
        return;
    }
    size_t bom;
    r->enc = sniff_encoding(p, r->end < READER_SNIFF ? r->end : READER_SNIFF, &bom);
    r->start = bom;
    if (r->enc != SNIFF_UTF8) {
        if (r->wbuf == NULL && (r->wbuf = malloc(WBUF_SIZE)) == NULL) {
            fail(r, "out of memory");
            return;
        }
        utf16_init(&r->u16, r->enc == SNIFF_UTF16BE);
        r->ws = 0;
        r->we = move_out(r, r->wbuf);
        r->end = read_text(r, r->buf, READER_READ_SIZE);
    }
    int at_end = r->in_eof && (r->enc == SNIFF_UTF8 || r->ws == r->we);
    size_t n = r->end - r->start;
    r->binary = sniff_mostly_binary(p + r->start, n < READER_SNIFF ? n : READER_SNIFF, at_end);
    if (r->binary)
        return;
    r->fmt = clog_detect(r->buf + r->start, n, at_end);
    if (r->fmt != CLOG_NONE) {
        if (r->rbuf == NULL && (r->rbuf = malloc(RBUF_SIZE)) == NULL) {
            r->fmt = CLOG_NONE;
            fail(r, "out of memory");
            return;
        }
        r->rs = 0;
        r->re = move_out(r, r->rbuf);
    }
}

/* Moves unread bytes to the front and reads more; sets eof at the end. */
static void fill(struct reader *r)
{
    r->cached_end = (size_t)-1;
    if (r->start > 0) {
        memmove(r->buf, r->buf + r->start, r->end - r->start);
        r->end -= r->start;
        r->start = 0;
    }
    size_t room = BUF_SIZE - r->end;
    if (room > READER_READ_SIZE)
        room = READER_READ_SIZE;
    size_t got = r->fmt != CLOG_NONE ? read_records(r, r->buf + r->end, room) : read_text(r, r->buf + r->end, room);
    if (got == 0)
        r->eof = 1;
    r->end += got;
}

/* ---- lines ------------------------------------------------------------------------------ */

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

/* The end of the run of NUL bytes at FROM. */
static size_t nul_run_end(const struct reader *r, size_t from)
{
    while (from < r->end && r->buf[from] == '\0')
        from++;
    return from;
}

/* Where the next "\n", "\r", NUL and ESC are from the read position on. */
static void find_ends(struct reader *r)
{
    if (r->cached_end != r->end) {
        r->next_nl = find_from(r, r->start, '\n');
        r->next_cr = find_from(r, r->start, '\r');
        r->next_nul = find_from(r, r->start, '\0');
        r->next_esc = find_from(r, r->start, 0x1b);
        r->cached_end = r->end;
        return;
    }
    if (r->next_nl < r->start)
        r->next_nl = find_from(r, r->start, '\n');
    if (r->next_cr < r->start)
        r->next_cr = find_from(r, r->start, '\r');
    if (r->next_nul < r->start)
        r->next_nul = find_from(r, r->start, '\0');
}

/* take() for a piece that an end closes.  After a cut line's head, the
 * piece is the line's end: its last READER_TAIL bytes (from a character's
 * first byte) are handed out too, where a progress bar's last update
 * leaves the error; the bytes between head and tail are skipped.  0: an
 * empty tail, nothing to hand out. */
static int take_end(struct reader *r, struct line *ln, size_t len, size_t skip, int newline)
{
    int tail = r->skipping != 0;
    if (tail && (len > READER_TAIL || r->skipping == 2)) { /* 2: the line's rest was longer */
        size_t cut = len - READER_TAIL;
        while (cut < len && ((unsigned char)r->buf[r->start + cut] & 0xc0) == 0x80)
            cut++;
        r->start += cut;
        len -= cut;
    }
    r->skipping = 0;
    take(r, ln, len, skip, newline);
    ln->truncated = tail;
    return !tail || len > 0;
}

/* A NUL byte at NUL ends the piece at the read position; a run of them is
 * dropped, with a line end right after it.  0: nothing to hand out. */
static int take_nul(struct reader *r, struct line *ln, const char *nul)
{
    size_t run_end = nul_run_end(r, r->next_nul);
    if (nul == r->buf + r->start) {
        r->start = run_end;
        r->open_line = 1;
        return 0;
    }
    size_t after = run_end < r->end && r->buf[run_end] == '\n'                                      ? 1
                   : run_end + 1 < r->end && r->buf[run_end] == '\r' && r->buf[run_end + 1] == '\n' ? 2
                                                                                                    : 0;
    return take_end(r, ln, (size_t)(nul - (r->buf + r->start)), run_end - r->next_nul + after, after > 0);
}

/* No end within READER_LINE_CAP bytes: the first cap bytes are handed out
 * as the line's head (1); after the head, all but the last READER_TAIL
 * bytes seen so far are skipped (0). */
static int take_head(struct reader *r, struct line *ln)
{
    if (r->skipping) {
        r->start += READER_LINE_CAP - READER_TAIL; /* no end in the first cap + 1 bytes */
        r->skipping = 2;
        return 0;
    }
    take(r, ln, READER_LINE_CAP, 0, 0);
    ln->truncated = 1;
    r->skipping = 1;
    return 1;
}

int reader_next(struct reader *r, struct line *ln)
{
    if (!r->sniffed)
        prime(r);
    for (;;) {
        char *s = r->buf + r->start;
        size_t avail = r->end - r->start;
        /* A line ends within READER_LINE_CAP bytes or is cut there: the
         * buffer may hold more than that (a fill tops up a nearly full
         * one), and callers size their scratch space by the cap. */
        size_t look = avail <= READER_LINE_CAP ? avail : READER_LINE_CAP + 1;
        find_ends(r);
        size_t lim = r->start + look;
        char *nl = r->next_nl < lim ? r->buf + r->next_nl : NULL;
        size_t scan = nl ? r->next_nl : lim;
        char *cr = r->next_cr < scan ? r->buf + r->next_cr : NULL;
        if (cr != NULL)
            scan = r->next_cr;
        char *nul = r->next_nul < scan ? r->buf + r->next_nul : NULL;
        int got;
        if (nul != NULL) {
            got = take_nul(r, ln, nul);
        } else if (cr != NULL && (cr + 1 < s + avail || r->eof)) {
            int crlf = cr + 1 == nl;
            got = take_end(r, ln, (size_t)(cr - s), crlf ? 2 : 1, crlf);
            ln->cr_ended = !crlf;
        } else if (nl != NULL && cr == NULL) {
            got = take_end(r, ln, (size_t)(nl - s), 1, 1);
        } else if (avail >= READER_LINE_CAP) {
            got = take_head(r, ln);
        } else if (r->eof) {
            if (avail == 0 && !r->skipping)
                return r->failed ? -1 : 0;
            got = take_end(r, ln, avail, 0, 1); /* a last line without "\n" still counts */
        } else {
            fill(r);
            continue;
        }
        if (got) {
            set_flags(r, ln);
            return 1;
        }
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

enum sniff_encoding reader_encoding(const struct reader *r)
{
    return r->enc;
}

enum clog_format reader_format(const struct reader *r)
{
    return r->fmt;
}

unsigned long long reader_lines(const struct reader *r)
{
    return r->lineno + (r->open_line ? 1 : 0);
}

unsigned long long reader_bytes(const struct reader *r)
{
    return r->bytes;
}

enum decompress_kind reader_compression(const struct reader *r)
{
    return r->zkind;
}
