/* The streaming line reader: line ends, line numbers, long lines, NUL
 * bytes and binary sniffing, gzip (whole, concatenated, truncated,
 * corrupt), UTF-16 and BOMs, docker JSON-lines and CRI container logs,
 * counters; read-block edges of a regular file and a file cut short while
 * it is read. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#include <cmocka.h>

#include "helpers.h"
#include "reader.h"

static struct reader *rd;
static int rd_fd = -1;

static int teardown(void **state)
{
    (void)state;
    reader_free(rd);
    rd = NULL;
    if (rd_fd >= 0)
        close(rd_fd);
    rd_fd = -1;
    return 0;
}

static void open_fd(int fd)
{
    rd_fd = fd;
    rd = reader_create(fd);
    assert_non_null(rd);
}

static void open_data(const void *data, size_t len)
{
    open_fd(tmpfd_with(data, len));
}

/* The next line is TEXT (LEN bytes) with NUMBER, not truncated. */
static void next_line_n(const char *text, size_t len, unsigned long long number)
{
    struct line ln;
    int rc = reader_next(rd, &ln);
    if (rc != 1)
        print_error("expected line %llu, got rc %d (%s)\n", number, rc, rc < 0 ? reader_error(rd) : "");
    assert_int_equal(rc, 1);
    assert_int_equal(ln.len, len);
    assert_memory_equal(ln.text, text, len);
    assert_int_equal(ln.number, number);
    assert_int_equal(ln.truncated, 0);
}

static void next_line(const char *text, unsigned long long number)
{
    next_line_n(text, strlen(text), number);
}

static void at_end(void)
{
    struct line ln;
    assert_int_equal(reader_next(rd, &ln), 0);
    assert_null(reader_error(rd));
    assert_int_equal(reader_next(rd, &ln), 0); /* and stays there */
}

/* ---- line ends ----------------------------------------------------------------- */

static void test_lf_lines(void **state)
{
    (void)state;
    static const char data[] = "one\ntwo\n\nfour\n";
    open_data(data, sizeof data - 1);
    next_line("one", 1);
    next_line("two", 2);
    next_line("", 3);
    next_line("four", 4);
    at_end();
    assert_int_equal(reader_lines(rd), 4);
    assert_int_equal(reader_bytes(rd), 14);
    assert_int_equal(reader_is_binary(rd), 0);
    assert_int_equal((reader_compression(rd) != DECOMPRESS_NONE), 0);
}

static void test_crlf_lines(void **state)
{
    (void)state;
    static const char data[] = "a\r\nb\r\n\r\nd\r\n";
    open_data(data, sizeof data - 1);
    next_line("a", 1);
    next_line("b", 2);
    next_line("", 3);
    next_line("d", 4);
    at_end();
    assert_int_equal(reader_lines(rd), 4);
}

static void test_lone_cr_progress_segments(void **state)
{
    (void)state;
    static const char data[] = "a\rb\rc\nd";
    open_data(data, sizeof data - 1);
    next_line("a", 1);
    next_line("b", 1);
    next_line("c", 1);
    next_line("d", 2);
    at_end();
    assert_int_equal(reader_lines(rd), 2);
    assert_int_equal(reader_bytes(rd), 7);
}

static void test_cr_then_crlf(void **state)
{
    (void)state;
    static const char data[] = "x\r\r\ny\n10%\r50%\r100%\r\nz";
    open_data(data, sizeof data - 1);
    next_line("x", 1);
    next_line("", 1); /* "\r\n" ends the (empty) last segment of line 1 */
    next_line("y", 2);
    next_line("10%", 3);
    next_line("50%", 3);
    next_line("100%", 3);
    next_line("z", 4);
    at_end();
}

static void test_lone_cr_at_end(void **state)
{
    (void)state;
    static const char data[] = "a\r";
    open_data(data, sizeof data - 1);
    next_line("a", 1);
    at_end();
    assert_int_equal(reader_lines(rd), 1); /* a line was started */
}

static void test_no_final_newline(void **state)
{
    (void)state;
    static const char data[] = "a\nlast";
    open_data(data, sizeof data - 1);
    next_line("a", 1);
    next_line("last", 2);
    at_end();
    assert_int_equal(reader_lines(rd), 2);
    assert_int_equal(reader_bytes(rd), 6);
}

static void test_empty_input(void **state)
{
    (void)state;
    open_data("", 0);
    at_end();
    assert_int_equal(reader_lines(rd), 0);
    assert_int_equal(reader_bytes(rd), 0);
    assert_int_equal(reader_is_binary(rd), 0);
    assert_int_equal((reader_compression(rd) != DECOMPRESS_NONE), 0);
}

static void test_single_newline(void **state)
{
    (void)state;
    open_data("\n", 1);
    next_line("", 1);
    at_end();
    assert_int_equal(reader_lines(rd), 1);
}

/* ---- NUL bytes and binary sniffing ------------------------------------------ */

static void test_nul_ends_a_piece(void **state)
{
    (void)state;
    /* A NUL byte ends a piece of a line, as "\r" does, and is dropped; the
     * line number stays; a few NULs do not make a text file binary. */
    static const char data[] = "ab\0cd\nx\0\n\0\0y\n";
    open_data(data, sizeof data - 1);
    next_line("ab", 1);
    next_line("cd", 1);
    next_line("x", 2);
    next_line("y", 3);
    at_end();
    assert_int_equal(reader_is_binary(rd), 0);
    assert_int_equal(reader_lines(rd), 3);
    assert_int_equal(reader_bytes(rd), sizeof data - 1);
}

/* TEXT, then N NUL bytes, then TEXT2: a network filesystem's hole. */
static char *with_hole(const char *text, size_t n, const char *text2, size_t *len)
{
    size_t a = strlen(text), b = strlen(text2);
    char *data = calloc(1, a + n + b);
    assert_non_null(data);
    memcpy(data, text, a);
    memcpy(data + a + n, text2, b);
    *len = a + n + b;
    return data;
}

static void test_nul_hole_before_the_failure(void **state)
{
    (void)state;
    /* A hole larger than the first block, and one across buffer fills:
     * the text after it is read, with the line numbers it had. */
    static const size_t holes[] = {100, READER_SNIFF * 4, 3 * (size_t)READER_LINE_CAP};
    for (size_t i = 0; i < 3; i++) {
        size_t len;
        char *data = with_hole("step 10\nstep 11\n", holes[i], "RuntimeError: CUDA out of memory.\n", &len);
        open_data(data, len);
        next_line("step 10", 1);
        next_line("step 11", 2);
        next_line("RuntimeError: CUDA out of memory.", 3);
        at_end();
        assert_int_equal(reader_is_binary(rd), 0);
        assert_int_equal(reader_bytes(rd), len);
        teardown(NULL);
        free(data);
    }
    /* A hole in the middle of a line: both pieces keep its number. */
    size_t len;
    char *data = with_hole("step 12 lo", 5000, "ss 0.5\nnext\n", &len);
    open_data(data, len);
    next_line("step 12 lo", 1);
    next_line("ss 0.5", 1);
    next_line("next", 2);
    at_end();
    free(data);
}

static void test_binary_by_magic_number(void **state)
{
    (void)state;
#define BYTES(lit)                                                                                                     \
    {                                                                                                                  \
        lit, sizeof lit - 1                                                                                            \
    }
    static const struct {
        const char *bytes;
        size_t len;
    } files[] = {
        BYTES("\x7f"
              "ELF\x02\x01\x01\ntext\n"),
        BYTES("\x89PNG\r\n\x1a\n\0\0\0\rIHDR"),
        BYTES("PK\x03\x04\x14\0\0\0\x08\0archive/data.pkl"),
        BYTES("\x80\x02}q\0(X\x04\0\0\0stepq"),
        BYTES("\x93NUMPY\x01\0v\0{'descr': '<f4'"),
    };
#undef BYTES
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        open_data(files[i].bytes, files[i].len);
        struct line ln;
        assert_int_equal(reader_next(rd, &ln), 1);
        if (!reader_is_binary(rd))
            fail_msg("file %zu is not judged binary", i);
        teardown(NULL);
    }
    /* safetensors: the header's length in 8 bytes, then its JSON. */
    static const char st[] = "\x4a\x01\0\0\0\0\0\0{\"__metadata__\":{\"format\":\"pt\"}}";
    open_data(st, sizeof st - 1);
    struct line ln;
    assert_int_equal(reader_next(rd, &ln), 1);
    assert_int_equal(reader_is_binary(rd), 1);
}

/* LEN bytes that are mostly not text (no magic number). */
static char *junk(size_t len)
{
    char *p = malloc(len);
    assert_non_null(p);
    for (size_t i = 0; i < len; i++) {
        unsigned char b = (unsigned char)(i * 37 + 11);
        p[i] = (char)(b == '\n' || b == '\r' ? 1 : b);
    }
    return p;
}

static void test_binary_mostly_not_text(void **state)
{
    (void)state;
    char *data = junk(4096);
    open_data(data, 4096);
    struct line ln;
    assert_int_equal(reader_next(rd, &ln), 1);
    assert_int_equal(reader_is_binary(rd), 1);
    assert_int_equal(reader_encoding(rd), SNIFF_UTF8);
    assert_int_equal(reader_format(rd), CLOG_NONE);
    free(data);
}

static void test_binary_judged_by_the_first_block(void **state)
{
    (void)state;
    /* Junk after the first block does not make a text log binary. */
    size_t len = READER_SNIFF + 4096;
    char *data = junk(len);
    memset(data, 'a', READER_SNIFF);
    data[READER_SNIFF - 1] = '\n';
    open_data(data, len);
    struct line ln;
    assert_int_equal(reader_next(rd, &ln), 1);
    assert_int_equal(reader_is_binary(rd), 0);
    assert_int_equal(ln.len, READER_SNIFF - 1);
    teardown(NULL);
    free(data);

    /* Some junk in the first block: still text. */
    char text[2000];
    for (size_t i = 0; i < sizeof text; i++)
        text[i] = i % 50 == 49 ? '\n' : 'a' + (char)(i % 26);
    memcpy(text + 100, "\x01\x02\x03\xff\xfe\x7f\x10\x11", 8);
    memcpy(text + 500, "caf\xe9 na\xefve", 11); /* Latin-1, not UTF-8 */
    open_data(text, sizeof text);
    assert_int_equal(reader_next(rd, &ln), 1);
    assert_int_equal(reader_is_binary(rd), 0);
}

/* ---- long lines ----------------------------------------------------------------- */

/* The next line is a cut one: READER_LINE_CAP bytes of C. */
static void next_cut_line(char c, unsigned long long number)
{
    struct line ln;
    assert_int_equal(reader_next(rd, &ln), 1);
    assert_int_equal(ln.len, READER_LINE_CAP);
    assert_int_equal(ln.truncated, 1);
    assert_int_equal(ln.number, number);
    for (size_t i = 0; i < ln.len; i++)
        if (ln.text[i] != c)
            fail_msg("byte %zu of the cut line is %d", i, ln.text[i]);
}

/* PREFIX, then LONG bytes of 'x', then SUFFIX. */
/* The next line is the tail of a cut line: LEN bytes of C, then END. */
static void next_tail_line(char c, size_t len, const char *end, unsigned long long number)
{
    struct line ln;
    size_t e = strlen(end);
    assert_int_equal(reader_next(rd, &ln), 1);
    assert_int_equal(ln.len, len + e);
    assert_int_equal(ln.truncated, 1);
    assert_int_equal(ln.number, number);
    for (size_t i = 0; i < len; i++)
        if (ln.text[i] != c)
            fail_msg("byte %zu of the tail is %d", i, ln.text[i]);
    assert_memory_equal(ln.text + len, end, e);
}

static char *long_input(const char *prefix, size_t n, const char *suffix, size_t *len)
{
    size_t p = strlen(prefix), s = strlen(suffix);
    char *data = malloc(p + n + s);
    assert_non_null(data);
    memcpy(data, prefix, p);
    memset(data + p, 'x', n);
    memcpy(data + p + n, suffix, s);
    *len = p + n + s;
    return data;
}

static void test_long_line_cut(void **state)
{
    (void)state;
    size_t len;
    char *data = long_input("", READER_LINE_CAP + 5000, "\nnext\n", &len);
    open_data(data, len);
    next_cut_line('x', 1);
    next_tail_line('x', 5000, "", 1);
    next_line("next", 2);
    at_end();
    assert_int_equal(reader_lines(rd), 2);
    assert_int_equal(reader_bytes(rd), len);
    free(data);
}

static void test_very_long_line_cut(void **state)
{
    (void)state;
    size_t len;
    char *data = long_input("", 3 * (size_t)READER_LINE_CAP + 17, "\nnext\n", &len);
    open_data(data, len);
    next_cut_line('x', 1);
    next_tail_line('x', READER_TAIL, "", 1);
    next_line("next", 2);
    at_end();
    free(data);
}

static void test_long_line_at_end_without_newline(void **state)
{
    (void)state;
    size_t len;
    char *data = long_input("", READER_LINE_CAP + 10, "", &len);
    open_data(data, len);
    next_cut_line('x', 1);
    next_tail_line('x', 10, "", 1);
    at_end();
    assert_int_equal(reader_lines(rd), 1);
    free(data);
}

static void test_line_of_exactly_the_cap(void **state)
{
    (void)state;
    size_t len;
    char *data = long_input("", READER_LINE_CAP - 1, "\nnext\n", &len);
    open_data(data, len);
    struct line ln;
    assert_int_equal(reader_next(rd, &ln), 1);
    assert_int_equal(ln.len, READER_LINE_CAP - 1);
    assert_int_equal(ln.truncated, 0);
    next_line("next", 2);
    at_end();
    free(data);
}

static void test_long_line_after_short_line(void **state)
{
    (void)state;
    /* The long line starts mid-buffer: a fill can then bring its end
     * past the cap, and the line must still be cut there (callers size
     * their scratch space by READER_LINE_CAP). */
    size_t len;
    char *data = long_input("short\n", READER_LINE_CAP + 5000, "\nnext\n", &len);
    open_data(data, len);
    next_line("short", 1);
    next_cut_line('x', 2);
    next_tail_line('x', 5000, "", 2);
    next_line("next", 3);
    at_end();
    free(data);
}

/* Issue 21: a progress bar that never ends its line leaves the error at
 * the end of a line of megabytes; the tail is read as well as the head,
 * from a character's first byte (a cut never starts inside one). */
static void test_long_line_tail_is_read(void **state)
{
    (void)state;
    static const char err[] = "RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB";
    size_t n = 5 * (size_t)READER_LINE_CAP + 3, len;
    char *data = long_input("start\n", n, "", &len);
    /* "\xc3\xa9" pairs across where the tail's first byte would be */
    size_t at = 6 + n + (sizeof err - 1) - READER_TAIL - 1;
    data[at] = (char)0xc3;
    data[at + 1] = (char)0xa9;
    char *all = malloc(len + sizeof err + 8);
    assert_non_null(all);
    memcpy(all, data, len);
    memcpy(all + len, err, sizeof err - 1);
    memcpy(all + len + sizeof err - 1, "\nend\n", 5);
    open_data(all, len + sizeof err - 1 + 5);
    next_line("start", 1);
    next_cut_line('x', 2);
    next_tail_line('x', READER_TAIL - 1 - (sizeof err - 1), err, 2);
    next_line("end", 3);
    at_end();
    assert_int_equal(reader_lines(rd), 3);
    free(all);
    free(data);
}

/* ---- pipes --------------------------------------------------------------------- */

/* A pipe fed by a child process: each piece written after a pause. */
static int pipe_in_pieces(const char *const *pieces, const size_t *lens, size_t n)
{
    int p[2];
    assert_int_equal(pipe(p), 0);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        close(p[0]);
        for (size_t i = 0; i < n; i++) {
            struct timespec ts = {0, 50 * 1000 * 1000};
            nanosleep(&ts, NULL);
            if (write(p[1], pieces[i], lens[i]) != (ssize_t)lens[i])
                _exit(1);
        }
        _exit(0);
    }
    close(p[1]);
    return p[0];
}

static void test_pipe_input(void **state)
{
    (void)state;
    open_fd(pipe_with("a\nb\r\nc", 6));
    next_line("a", 1);
    next_line("b", 2);
    next_line("c", 3);
    at_end();
    assert_int_equal(reader_bytes(rd), 6);
}

static void test_pipe_crlf_split_across_reads(void **state)
{
    (void)state;
    /* The "\r" arrives alone: the reader must wait for the next byte
     * before it decides between a progress segment and "\r\n". */
    const char *pieces[] = {"a\r", "\nb\r", "c\n"};
    const size_t lens[] = {2, 3, 2};
    open_fd(pipe_in_pieces(pieces, lens, 3));
    next_line("a", 1);
    next_line("b", 2);
    next_line("c", 2);
    at_end();
    int status = 0;
    wait(&status);
    assert_int_equal(status, 0);
}

/* ---- regular files: read-block edges, truncation ------------------------------- */

/* Appends to BUF (N bytes so far) lines of 'f' (at most 64 bytes with
 * their "\n") up to offset TARGET; counts them in *LINES. */
static size_t pad_to(char *buf, size_t n, size_t target, unsigned long long *lines)
{
    while (n < target) {
        size_t len = target - n > 64 ? 64 : target - n;
        memset(buf + n, 'f', len - 1);
        buf[n + len - 1] = '\n';
        n += len;
        (*lines)++;
    }
    return n;
}

static size_t put(char *buf, size_t n, const char *text)
{
    memcpy(buf + n, text, strlen(text));
    return n + strlen(text);
}

static int is_padding(const struct line *ln)
{
    for (size_t i = 0; i < ln->len; i++)
        if (ln->text[i] != 'f')
            return 0;
    return ln->len > 0;
}

/* The next line that is not padding is TEXT with NUMBER. */
static void next_after_padding(const char *text, unsigned long long number)
{
    struct line ln;
    do
        assert_int_equal(reader_next(rd, &ln), 1);
    while (is_padding(&ln));
    assert_int_equal(ln.len, strlen(text));
    assert_memory_equal(ln.text, text, ln.len);
    assert_int_equal(ln.number, number);
    assert_int_equal(ln.truncated, 0);
}

/* The end, after LINES lines of BYTES bytes in all. */
static void at_end_after(unsigned long long lines, unsigned long long bytes)
{
    at_end();
    assert_int_equal(reader_lines(rd), lines);
    assert_int_equal(reader_bytes(rd), bytes);
}

static void test_line_across_read_blocks(void **state)
{
    (void)state;
    enum { B = READER_READ_SIZE };
    char *data = malloc(4 * B);
    assert_non_null(data);
    unsigned long long lines = 0, edge, crlf, prog;
    size_t n = pad_to(data, 0, B - 5, &lines);
    n = put(data, n, "EDGE1 a line across the first edge\n");
    edge = ++lines;
    n = pad_to(data, n, 2 * B - 6, &lines);
    n = put(data, n, "CRLF1\r\n"); /* "\r" the last byte of the second block, "\n" the first of the third */
    crlf = ++lines;
    n = pad_to(data, n, 3 * B - 6, &lines);
    n = put(data, n, "PROG1\rPROG2\n"); /* a lone "\r" the last byte of the third block */
    prog = ++lines;
    n = pad_to(data, n, 4 * B - 4, &lines);
    n = put(data, n, "TAIL"); /* no "\n": the file ends on the fourth edge */
    lines++;
    assert_int_equal(n, 4 * B);
    assert_int_equal(data[2 * B - 1], '\r');
    assert_int_equal(data[3 * B - 1], '\r');
    open_data(data, n);
    next_after_padding("EDGE1 a line across the first edge", edge);
    next_after_padding("CRLF1", crlf);
    next_after_padding("PROG1", prog);
    struct line ln;
    assert_int_equal(reader_next(rd, &ln), 1);
    assert_int_equal(ln.len, 5);
    assert_memory_equal(ln.text, "PROG2", 5);
    assert_int_equal(ln.number, prog);
    next_after_padding("TAIL", lines);
    at_end_after(lines, 4 * B);
    free(data);
}

/* Opens a file of SIZE bytes of padding lines (counted in *LINES); returns
 * its bytes, to be freed. */
static char *open_padding(size_t size, unsigned long long *lines)
{
    char *data = malloc(size);
    assert_non_null(data);
    *lines = 0;
    assert_int_equal(pad_to(data, 0, size, lines), size);
    open_data(data, size);
    return data;
}

/* A file of exactly one read block: with its last "\n" on the edge, and
 * with a last line that has none. */
static void test_file_of_exactly_one_read_block(void **state)
{
    (void)state;
    enum { B = READER_READ_SIZE };
    unsigned long long lines;
    char *data = open_padding(B, &lines);
    struct line ln;
    for (unsigned long long i = 1; i <= lines; i++) {
        assert_int_equal(reader_next(rd, &ln), 1);
        assert_int_equal(ln.number, i);
        assert_int_equal(ln.len, 63);
    }
    at_end_after(lines, B);
    teardown(state);

    data[B - 1] = 'x'; /* the last line now runs to the end of the file */
    open_data(data, B);
    for (unsigned long long i = 1; i < lines; i++)
        assert_int_equal(reader_next(rd, &ln), 1);
    assert_int_equal(reader_next(rd, &ln), 1);
    assert_int_equal(ln.number, lines);
    assert_int_equal(ln.len, 64);
    assert_int_equal(ln.text[63], 'x');
    at_end_after(lines, B);
    free(data);
}

/* A file cut short while it is read (a log rotated away under the scan):
 * what was read still comes out, what is left of a cut line is a last
 * line, and the reader ends without an error. */
static void test_file_truncated_while_read(void **state)
{
    (void)state;
    enum { B = READER_READ_SIZE, SIZE = 8 * B };
    unsigned long long lines;
    char *data = open_padding(SIZE, &lines);
    struct line ln;
    assert_int_equal(reader_next(rd, &ln), 1);
    /* Cut 30 bytes into the second block: the first block is read already. */
    assert_int_equal(ftruncate(rd_fd, B + 30), 0);
    unsigned long long got = 1;
    int rc;
    while ((rc = reader_next(rd, &ln)) == 1) {
        got++;
        assert_int_equal(ln.number, got);
        assert_true(ln.len == 63 || ln.len == 30);
    }
    assert_int_equal(rc, 0);
    assert_null(reader_error(rd));
    assert_true(reader_bytes(rd) <= B + 30);
    assert_true(reader_bytes(rd) >= B);
    /* Whole lines only, but for a last one cut at the new end. */
    assert_int_equal(got, (reader_bytes(rd) + 63) / 64);
    assert_int_equal(reader_lines(rd), got);
    teardown(state);

    /* Emptied before the first read: an empty input. */
    open_data(data, SIZE);
    assert_int_equal(ftruncate(rd_fd, 0), 0);
    at_end_after(0, 0);
    free(data);
}

/* ---- gzip ------------------------------------------------------------------------ */

static char *gz_path;

static int gz_setup(void **state)
{
    (void)state;
    gz_path = tmpdir_create();
    return 0;
}

static int gz_teardown(void **state)
{
    teardown(state);
    tmpdir_remove(gz_path);
    gz_path = NULL;
    return 0;
}

/* Appends one gzip member holding DATA to DIR/log.gz; returns its path. */
static const char *gz_append(const char *data, size_t len)
{
    static char path[4096];
    snprintf(path, sizeof path, "%s/log.gz", gz_path);
    gzFile gz = gzopen(path, "ab");
    assert_non_null(gz);
    if (len > 0)
        assert_int_equal(gzwrite(gz, data, (unsigned)len), (int)len);
    assert_int_equal(gzclose(gz), Z_OK);
    return path;
}

static void open_path(const char *path)
{
    open_fd(open(path, O_RDONLY));
    assert_true(rd_fd >= 0);
}

static void test_gzip(void **state)
{
    (void)state;
    open_path(gz_append("one\ntwo\r\nthree", 14));
    next_line("one", 1);
    next_line("two", 2);
    next_line("three", 3);
    at_end();
    assert_int_equal((reader_compression(rd) != DECOMPRESS_NONE), 1);
    assert_int_equal(reader_bytes(rd), 14); /* decompressed bytes */
    assert_int_equal(reader_lines(rd), 3);
}

static void test_gzip_concatenated_members(void **state)
{
    (void)state;
    gz_append("a\nb\nhel", 7);
    open_path(gz_append("lo\nc\n", 5)); /* a line spans the two members */
    next_line("a", 1);
    next_line("b", 2);
    next_line("hello", 3);
    next_line("c", 4);
    at_end();
    assert_int_equal(reader_bytes(rd), 12);
}

static void test_gzip_large(void **state)
{
    (void)state;
    /* 3.2 MB of text, many buffers' worth, from a few KiB of gzip. */
    static const char line[] = "step 1 loss 0.5\n";
    size_t n = 200000, len = n * (sizeof line - 1);
    char *data = malloc(len);
    assert_non_null(data);
    for (size_t i = 0; i < n; i++)
        memcpy(data + i * (sizeof line - 1), line, sizeof line - 1);
    open_path(gz_append(data, len));
    struct line ln;
    for (unsigned long long i = 1; i <= n; i++) {
        assert_int_equal(reader_next(rd, &ln), 1);
        assert_int_equal(ln.number, i);
        assert_int_equal(ln.len, sizeof line - 2);
        assert_memory_equal(ln.text, line, sizeof line - 2);
    }
    at_end();
    assert_int_equal(reader_bytes(rd), len);
    assert_int_equal(reader_lines(rd), n);
    free(data);
}

static void test_gzip_compressed_over_64k(void **state)
{
    (void)state;
    /* Regression (fixed): src/reader.c start_gzip copies the bytes of the first read()
     * (up to READER_READ_SIZE = 128 KiB from a regular file) into zbuf,
     * which is ZBUF_SIZE = 64 KiB: a heap buffer overflow for every gzip
     * file whose compressed size exceeds 64 KiB (here about 450 KiB).
     * AddressSanitizer: heap-buffer-overflow WRITE of size 131072 in
     * start_gzip (reader.c:98); without it, "malloc(): corrupted top size". */
    size_t cap = 4 * 1024 * 1024, len = 0;
    char *data = malloc(cap);
    assert_non_null(data);
    for (int i = 1; i <= 200000; i++)
        len += (size_t)snprintf(data + len, cap - len, "line %d\n", i);
    open_path(gz_append(data, len));
    struct line ln;
    char expect[32];
    for (unsigned long long i = 1; i <= 200000; i++) {
        assert_int_equal(reader_next(rd, &ln), 1);
        int k = snprintf(expect, sizeof expect, "line %llu", i);
        assert_int_equal(ln.number, i);
        assert_int_equal(ln.len, (size_t)k);
        assert_memory_equal(ln.text, expect, (size_t)k);
    }
    at_end();
    assert_int_equal(reader_bytes(rd), len);
    free(data);
}

static void test_gzip_magic_split_across_reads(void **state)
{
    (void)state;
    size_t len;
    char *gz = read_whole_file(gz_append("x\ny\n", 4), &len);
    const char *pieces[] = {gz, gz + 1};
    const size_t lens[] = {1, len - 1};
    open_fd(pipe_in_pieces(pieces, lens, 2));
    next_line("x", 1);
    next_line("y", 2);
    at_end();
    assert_int_equal((reader_compression(rd) != DECOMPRESS_NONE), 1);
    wait(NULL);
    free(gz);
}

/* Reads lines until the end or an error; returns the last reader_next. */
static int drain(unsigned long long *lines)
{
    struct line ln;
    int rc;
    *lines = 0;
    while ((rc = reader_next(rd, &ln)) == 1)
        ++*lines;
    return rc;
}

static void test_gzip_truncated(void **state)
{
    (void)state;
    char text[4096];
    size_t len = 0, gzlen;
    for (int i = 0; i < 100; i++)
        len += (size_t)snprintf(text + len, sizeof text - len, "step %d loss %d.%02d\n", i, 100 - i, i);
    char *gz = read_whole_file(gz_append(text, len), &gzlen);

    /* Cut in the middle of the deflate data. */
    unsigned long long lines;
    open_data(gz, gzlen / 2);
    assert_int_equal(drain(&lines), -1);
    assert_non_null(reader_error(rd));
    assert_non_null(strstr(reader_error(rd), "truncated"));
    struct line ln;
    assert_int_equal(reader_next(rd, &ln), -1); /* the error stays */
    teardown(NULL);

    /* Cut in the 8-byte trailer: all the data is there, the check is not.
     * Every line is still delivered before the error. */
    open_data(gz, gzlen - 3);
    assert_int_equal(drain(&lines), -1);
    assert_int_equal(lines, 100);
    assert_non_null(strstr(reader_error(rd), "truncated"));
    teardown(NULL);

    /* Only the magic bytes. */
    open_data(gz, 2);
    assert_int_equal(drain(&lines), -1);
    assert_non_null(strstr(reader_error(rd), "truncated"));
    free(gz);
}

static void test_gzip_corrupt(void **state)
{
    (void)state;
    char text[4096];
    size_t len = 0, gzlen;
    unsigned long long lines;
    for (int i = 0; i < 100; i++)
        len += (size_t)snprintf(text + len, sizeof text - len, "step %d loss %d\n", i, i * 7);
    char *gz = read_whole_file(gz_append(text, len), &gzlen);

    /* A bad compression method in the header. */
    gz[2] = 9;
    open_data(gz, gzlen);
    assert_int_equal(drain(&lines), -1);
    assert_non_null(reader_error(rd));
    assert_non_null(strstr(reader_error(rd), "corrupt"));
    assert_int_equal(lines, 0);
    teardown(NULL);
    gz[2] = 8;

    /* A wrong CRC in the trailer. */
    gz[gzlen - 8] ^= 0x55;
    open_data(gz, gzlen);
    assert_int_equal(drain(&lines), -1);
    assert_non_null(strstr(reader_error(rd), "corrupt"));
    teardown(NULL);
    gz[gzlen - 8] ^= 0x55;

    /* Garbage after a complete member. */
    char *more = malloc(gzlen + 16);
    assert_non_null(more);
    memcpy(more, gz, gzlen);
    memcpy(more + gzlen, "garbage garbage!", 16);
    open_data(more, gzlen + 16);
    assert_int_equal(drain(&lines), -1);
    assert_non_null(strstr(reader_error(rd), "corrupt"));
    free(more);
    free(gz);
}

static void test_not_gzip_with_one_magic_byte(void **state)
{
    (void)state;
    static const char data[] = "\x1f"
                               "plain\n";
    open_data(data, sizeof data - 1);
    next_line("\x1f"
              "plain",
              1);
    at_end();
    assert_int_equal((reader_compression(rd) != DECOMPRESS_NONE), 0);
    teardown(NULL);
    open_data("\x1f", 1); /* a one-byte input */
    next_line("\x1f", 1);
    at_end();
}

/* ---- line flags and reset ------------------------------------------------------ */

static void test_has_escape_flag(void **state)
{
    (void)state;
    static const char data[] = "plain\n\x1b[31mred\x1b[0m\nx\x1b\rplain again\n";
    open_data(data, sizeof data - 1);
    struct line ln;
    static const int expect[] = {0, 1, 1, 0};
    for (size_t i = 0; i < 4; i++) {
        assert_int_equal(reader_next(rd, &ln), 1);
        assert_int_equal(ln.has_escape, expect[i]);
    }
    at_end();
}

static void test_cr_ended_flag(void **state)
{
    (void)state;
    static const char data[] = "10%\r50%\r100%\r\ndone\nlast\r";
    open_data(data, sizeof data - 1);
    struct line ln;
    static const struct {
        const char *text;
        int cr_ended;
    } expect[] = {{"10%", 1}, {"50%", 1}, {"100%", 0}, {"done", 0}, {"last", 1}};
    for (size_t i = 0; i < 5; i++) {
        assert_int_equal(reader_next(rd, &ln), 1);
        assert_int_equal(ln.len, strlen(expect[i].text));
        assert_memory_equal(ln.text, expect[i].text, ln.len);
        assert_int_equal(ln.cr_ended, expect[i].cr_ended);
    }
    at_end();
}

static void test_reset_starts_over(void **state)
{
    (void)state;
    open_data("\x7f"
              "ELF\nb\x00",
              7); /* a binary first input, cut short */
    next_line("\x7f"
              "ELF",
              1);
    assert_int_equal(reader_is_binary(rd), 1);
    int other = tmpfd_with("x\ny\n", 4);
    reader_reset(rd, other);
    close(rd_fd);
    rd_fd = other;
    next_line("x", 1);
    next_line("y", 2);
    at_end();
    assert_int_equal(reader_is_binary(rd), 0);
    assert_int_equal(reader_lines(rd), 2);
    assert_int_equal(reader_bytes(rd), 4);
}

static void test_reset_after_gzip(void **state)
{
    (void)state;
    size_t len;
    char *gz = read_whole_file(gz_append("g1\ng2\n", 6), &len);
    open_data(gz, len);
    next_line("g1", 1);
    assert_int_equal((reader_compression(rd) != DECOMPRESS_NONE), 1);
    int other = tmpfd_with("plain\n", 6);
    reader_reset(rd, other);
    close(rd_fd);
    rd_fd = other;
    next_line("plain", 1);
    at_end();
    assert_int_equal((reader_compression(rd) != DECOMPRESS_NONE), 0);
    assert_int_equal(reader_bytes(rd), 6);
    /* And gzip again after plain text, on the kept buffers. */
    other = tmpfd_with(gz, len);
    reader_reset(rd, other);
    close(rd_fd);
    rd_fd = other;
    next_line("g1", 1);
    next_line("g2", 2);
    at_end();
    assert_int_equal((reader_compression(rd) != DECOMPRESS_NONE), 1);
    free(gz);
}

/* ---- encodings ------------------------------------------------------------------ */

/* TEXT (UTF-8) as UTF-16, big-endian if BE, with a BOM if BOM; EXTRA more
 * bytes of EXTRA_BYTES appended as they are.  *LEN gets the length. */
static char *utf16(const char *text, int be, int bom, const char *extra, size_t extra_len, size_t *len)
{
    size_t n = strlen(text), w = 0;
    unsigned char *out = malloc(4 * n + 2 + extra_len);
    assert_non_null(out);
    unsigned units[2];
    if (bom) {
        out[w++] = be ? 0xFE : 0xFF;
        out[w++] = be ? 0xFF : 0xFE;
    }
    for (size_t i = 0; i < n;) {
        const unsigned char *p = (const unsigned char *)text + i;
        unsigned cp;
        if (p[0] < 0x80)
            cp = p[0], i += 1;
        else if (p[0] < 0xE0)
            cp = (p[0] & 0x1Fu) << 6 | (p[1] & 0x3Fu), i += 2;
        else if (p[0] < 0xF0)
            cp = (p[0] & 0x0Fu) << 12 | (p[1] & 0x3Fu) << 6 | (p[2] & 0x3Fu), i += 3;
        else
            cp = (p[0] & 0x07u) << 18 | (p[1] & 0x3Fu) << 12 | (p[2] & 0x3Fu) << 6 | (p[3] & 0x3Fu), i += 4;
        size_t k = 1;
        if (cp >= 0x10000) {
            units[0] = 0xD800 + ((cp - 0x10000) >> 10);
            units[1] = 0xDC00 + ((cp - 0x10000) & 0x3FF);
            k = 2;
        } else {
            units[0] = cp;
        }
        for (size_t j = 0; j < k; j++) {
            out[w++] = (unsigned char)(be ? units[j] >> 8 : units[j] & 0xFF);
            out[w++] = (unsigned char)(be ? units[j] & 0xFF : units[j] >> 8);
        }
    }
    memcpy(out + w, extra, extra_len);
    *len = w + extra_len;
    return (char *)out;
}

static void test_utf8_bom_dropped(void **state)
{
    (void)state;
    static const char data[] = "\xEF\xBB\xBFKilled\nnext\n";
    open_data(data, sizeof data - 1);
    next_line("Killed", 1);
    next_line("next", 2);
    at_end();
    assert_int_equal(reader_encoding(rd), SNIFF_UTF8);
    assert_int_equal(reader_bytes(rd), sizeof data - 1);
}

static void test_utf16_with_bom(void **state)
{
    (void)state;
    /* As Windows PowerShell writes "python train.py > log.txt": UTF-16LE,
     * a BOM, CRLF; and the big-endian twin. */
    static const char text[] = "step 1 \xE2\x96\x88 caf\xC3\xA9\r\n"
                               "\xE6\x98\xBE\xE5\xAD\x98\xE4\xB8\x8D\xE8\xB6\xB3 \xF0\x9F\x98\x80\r\n"
                               "10%\r50%\r\n"
                               "torch.OutOfMemoryError: CUDA out of memory.\r\n";
    for (int be = 0; be <= 1; be++) {
        size_t len;
        char *data = utf16(text, be, 1, "", 0, &len);
        open_data(data, len);
        next_line("step 1 \xE2\x96\x88 caf\xC3\xA9", 1);
        next_line("\xE6\x98\xBE\xE5\xAD\x98\xE4\xB8\x8D\xE8\xB6\xB3 \xF0\x9F\x98\x80", 2);
        next_line("10%", 3);
        next_line("50%", 3);
        next_line("torch.OutOfMemoryError: CUDA out of memory.", 4);
        at_end();
        assert_int_equal(reader_encoding(rd), be ? SNIFF_UTF16BE : SNIFF_UTF16LE);
        assert_int_equal(reader_is_binary(rd), 0);
        assert_int_equal(reader_bytes(rd), len); /* bytes of the input, not of the text */
        teardown(NULL);
        free(data);
    }
}

static void test_utf16_without_bom(void **state)
{
    (void)state;
    static const char text[] = "RuntimeError: CUDA error: out of memory\n"
                               "CUDA kernel errors might be asynchronously reported\n";
    for (int be = 0; be <= 1; be++) {
        size_t len;
        char *data = utf16(text, be, 0, "", 0, &len);
        open_data(data, len);
        next_line("RuntimeError: CUDA error: out of memory", 1);
        next_line("CUDA kernel errors might be asynchronously reported", 2);
        at_end();
        assert_int_equal(reader_encoding(rd), be ? SNIFF_UTF16BE : SNIFF_UTF16LE);
        teardown(NULL);
        free(data);
    }
}

static void test_utf16_odd_length_and_lone_surrogates(void **state)
{
    (void)state;
    /* A file cut at an odd byte: the last byte is U+FFFD, the text before
     * it stays. */
    size_t len;
    char *data = utf16("Killed\nab", 0, 1, "c", 1, &len);
    open_data(data, len);
    next_line("Killed", 1);
    next_line("ab\xEF\xBF\xBD", 2);
    at_end();
    teardown(NULL);
    free(data);

    /* A high surrogate before a plain unit, a lone low surrogate, and a
     * high surrogate at the end: each is U+FFFD, nothing else lost. */
    static const unsigned char le[] = {0xFF, 0xFE, 'a', 0, 0x3D, 0xD8, 'b', 0, '\n', 0,
                                       0x00, 0xDE, 'c', 0, '\n', 0,    'd', 0, 0x3D, 0xD8};
    open_data(le, sizeof le);
    next_line("a\xEF\xBF\xBD"
              "b",
              1);
    next_line("\xEF\xBF\xBD"
              "c",
              2);
    next_line("d\xEF\xBF\xBD", 3);
    at_end();
    teardown(NULL);

    /* Only a BOM and one byte. */
    open_data("\xFF\xFE\x41", 3);
    next_line("\xEF\xBF\xBD", 1);
    at_end();
}

static void test_utf16_large_and_in_odd_pieces(void **state)
{
    (void)state;
    /* Many buffers' worth from a file, then the same through a pipe whose
     * pieces end at odd bytes (inside code units). */
    size_t cap = 2 * 1024 * 1024, n = 0, len;
    char *text = malloc(cap);
    assert_non_null(text);
    for (int i = 1; i <= 60000; i++)
        n += (size_t)snprintf(text + n, cap - n, "line %d \xE2\x80\x94 ok\n", i);
    char *data = utf16(text, 0, 1, "", 0, &len);
    for (int mode = 0; mode < 2; mode++) {
        if (mode == 0) {
            open_data(data, len);
        } else {
            const char *pieces[] = {data, data + 1, data + 4097, data + 200001};
            const size_t lens[] = {1, 4096, 200001 - 4097, len - 200001};
            open_fd(pipe_in_pieces(pieces, lens, 4));
        }
        struct line ln;
        char expect[64];
        for (unsigned long long i = 1; i <= 60000; i++) {
            assert_int_equal(reader_next(rd, &ln), 1);
            int k = snprintf(expect, sizeof expect, "line %llu \xE2\x80\x94 ok", i);
            assert_int_equal(ln.number, i);
            assert_int_equal(ln.len, (size_t)k);
            assert_memory_equal(ln.text, expect, (size_t)k);
        }
        at_end();
        assert_int_equal(reader_bytes(rd), len);
        teardown(NULL);
        if (mode == 1)
            wait(NULL);
    }
    free(data);
    free(text);
}

static void test_utf16_hole_and_not_utf16(void **state)
{
    (void)state;
    /* A hole of NUL units in a UTF-16 log: the text after it is read. */
    size_t a, b;
    char *head = utf16("step 5\n", 0, 1, "", 0, &a);
    char *tail = utf16("Killed\n", 0, 0, "", 0, &b);
    char *data = calloc(1, a + 10000 + b);
    assert_non_null(data);
    memcpy(data, head, a);
    memcpy(data + a + 10000, tail, b);
    open_data(data, a + 10000 + b);
    next_line("step 5", 1);
    next_line("Killed", 2);
    at_end();
    teardown(NULL);
    free(data);
    free(head);
    free(tail);

    /* Without a BOM, a hole first: the units after it still say UTF-16. */
    tail = utf16("torch.OutOfMemoryError: CUDA out of memory.\n", 0, 0, "", 0, &b);
    data = calloc(1, 5000 + b);
    assert_non_null(data);
    memcpy(data + 5000, tail, b);
    open_data(data, 5000 + b);
    next_line("torch.OutOfMemoryError: CUDA out of memory.", 1);
    at_end();
    assert_int_equal(reader_encoding(rd), SNIFF_UTF16LE);
    teardown(NULL);
    free(data);
    free(tail);

    /* 16-bit numbers below 256 have UTF-16LE's pattern of NULs, but
     * decode to control characters: binary, not UTF-16. */
    unsigned char nums[4096];
    for (size_t i = 0; i < sizeof nums; i += 2) {
        nums[i] = (unsigned char)(i / 2 % 16 + 1);
        nums[i + 1] = 0;
    }
    open_data(nums, sizeof nums);
    struct line ln;
    assert_int_equal(reader_next(rd, &ln), 1);
    assert_int_equal(reader_encoding(rd), SNIFF_UTF8);
    assert_int_equal(reader_is_binary(rd), 1);
}

/* ---- container logs ------------------------------------------------------------ */

static void test_docker_json_log(void **state)
{
    (void)state;
    /* As moby's json-file driver writes: the text JSON-escaped (controls
     * as \u00XX, <>& as \u003c \u003e \u0026), a line over 16 KiB split
     * into records without the final "\n". */
    static const char data[] =
        "{\"log\":\"Traceback (most recent call "
        "last):\\n\",\"stream\":\"stderr\",\"time\":\"2026-01-01T00:00:00.1Z\"}\n"
        "{\"log\":\"  File \\\"train.py\\\", line 3, in \\u003cmodule\\u003e\\n\",\"stream\":\"stderr\","
        "\"time\":\"2026-01-01T00:00:00.2Z\"}\n"
        "{\"log\":\"\\u001b[31mtab\\u0009here \\\\ \\u0026 \\ud83d\\ude00\\n\",\"stream\":\"stdout\","
        "\"attrs\":{\"tag\":\"x\"},\"time\":\"2026-01-01T00:00:00.3Z\"}\n"
        "{\"log\":\"torch.OutOfMemoryError: CUDA out \",\"stream\":\"stderr\",\"time\":\"2026-01-01T00:00:00.4Z\"}\n"
        "{\"log\":\"of memory.\\n\",\"stream\":\"stderr\",\"time\":\"2026-01-01T00:00:00.5Z\"}\n"
        "{\"log\":\"10%\\r50%\\r\\n\",\"stream\":\"stderr\",\"time\":\"2026-01-01T00:00:00.6Z\"}\n";
    open_data(data, sizeof data - 1);
    next_line("Traceback (most recent call last):", 1);
    next_line("  File \"train.py\", line 3, in <module>", 2);
    struct line ln;
    assert_int_equal(reader_next(rd, &ln), 1);
    static const char third[] = "\x1b[31mtab\there \\ & \xF0\x9F\x98\x80";
    assert_int_equal(ln.len, sizeof third - 1);
    assert_memory_equal(ln.text, third, sizeof third - 1);
    assert_int_equal(ln.has_escape, 1);
    next_line("torch.OutOfMemoryError: CUDA out of memory.", 4); /* joined */
    next_line("10%", 5);
    next_line("50%", 5);
    at_end();
    assert_int_equal(reader_format(rd), CLOG_DOCKER_JSON);
    assert_int_equal(reader_bytes(rd), sizeof data - 1);
}

static void test_docker_json_broken_records(void **state)
{
    (void)state;
    /* A record cut by a crash, a line that is no record, an unknown
     * escape, a record with empty text ("log" left out): no text is
     * lost, no record runs into the next. */
    static const char data[] =
        "{\"log\":\"step 1\\n\",\"stream\":\"stdout\",\"time\":\"2026-01-01T00:00:00Z\"}\n"
        "{\"log\":\"step 2\\n\",\"stream\":\"stdout\",\"time\":\"2026-01-01T00:00:00Z\"}\n"
        "{\"log\":\"step 3\\n\",\"stream\":\"stdout\",\"time\":\"2026-01-01T00:00:00Z\"}\n"
        "{\"log\":\"torch.OutOfMemoryError: CUDA out of mem\n"
        "not a record\n"
        "{\"stream\":\"stdout\",\"time\":\"2026-01-01T00:00:01Z\"}\n"
        "{\"log\":\"odd \\q and \\u12 end\\n\",\"stream\":\"stdout\",\"time\":\"2026-01-01T00:00:02Z\"}\n"
        "{\"log\":\"last, cut \\";
    open_data(data, sizeof data - 1);
    next_line("step 1", 1);
    next_line("step 2", 2);
    next_line("step 3", 3);
    next_line("torch.OutOfMemoryError: CUDA out of mem", 4);
    next_line("not a record", 5);
    next_line("odd \\q and \\u12 end", 6);
    next_line("last, cut \\", 7);
    at_end();
    assert_int_equal(reader_format(rd), CLOG_DOCKER_JSON);
}

static void test_container_detection_needs_the_first_lines(void **state)
{
    (void)state;
    /* A text log that holds a JSON record later, or whose first line only
     * looks like one, is read as it is. */
    static const char later[] = "step 1\n{\"log\":\"x\\n\",\"stream\":\"stdout\",\"time\":\"2026-01-01T00:00:00Z\"}\n";
    open_data(later, sizeof later - 1);
    next_line("step 1", 1);
    next_line("{\"log\":\"x\\n\",\"stream\":\"stdout\",\"time\":\"2026-01-01T00:00:00Z\"}", 2);
    at_end();
    assert_int_equal(reader_format(rd), CLOG_NONE);
    teardown(NULL);

    static const char first[] =
        "{\"log\":\"x\\n\",\"stream\":\"stdout\",\"time\":\"2026-01-01T00:00:00Z\"}\nplain text\n";
    open_data(first, sizeof first - 1);
    next_line("{\"log\":\"x\\n\",\"stream\":\"stdout\",\"time\":\"2026-01-01T00:00:00Z\"}", 1);
    next_line("plain text", 2);
    at_end();
    assert_int_equal(reader_format(rd), CLOG_NONE);
    teardown(NULL);

    static const char cri_like[] = "2026-01-01T00:00:00Z stdout F ok\n2026-01-01 00:00:01 INFO step 2\n";
    open_data(cri_like, sizeof cri_like - 1);
    next_line("2026-01-01T00:00:00Z stdout F ok", 1);
    next_line("2026-01-01 00:00:01 INFO step 2", 2);
    at_end();
    assert_int_equal(reader_format(rd), CLOG_NONE);
}

static void test_cri_log(void **state)
{
    (void)state;
    /* As kubelet, containerd and CRI-O write: "P" records continued by the
     * next until an "F"; the text raw, "\r" progress updates in it. */
    static const char data[] = "2026-01-01T00:00:00.123456789Z stdout F step 1\n"
                               "2026-01-01T00:00:00.2Z stderr P torch.OutOfMemoryError: CUDA\n"
                               "2026-01-01T00:00:00.3Z stderr P  out of\n"
                               "2026-01-01T00:00:00.4Z stderr F  memory.\n"
                               "2026-01-01T00:00:01+02:00 stdout F 10%\r50%\r100%\n"
                               "2026-01-01T00:00:02.5Z stdout F \n"
                               "2026-01-01T00:00:03.5Z stdout F:x tagged\n"
                               "2026-01-01T00:00:03.6Z stdout F written with crlf\r\n"
                               "garbage in the middle\n"
                               "2026-01-01T00:00:04.5Z stderr P Killed";
    open_data(data, sizeof data - 1);
    next_line("step 1", 1);
    next_line("torch.OutOfMemoryError: CUDA out of memory.", 2);
    next_line("10%", 3);
    next_line("50%", 3);
    next_line("100%", 3);
    next_line("", 4);
    next_line("tagged", 5);
    next_line("written with crlf", 6);
    next_line("garbage in the middle", 7);
    next_line("Killed", 8); /* a lone "P" at the end keeps its text */
    at_end();
    assert_int_equal(reader_format(rd), CLOG_CRI);
    teardown(NULL);

    /* A lone "P" record as the whole input. */
    static const char lone[] = "2026-01-01T00:00:00Z stderr P Segmentation fault (core dumped)\n";
    open_data(lone, sizeof lone - 1);
    next_line("Segmentation fault (core dumped)", 1);
    at_end();
    assert_int_equal(reader_format(rd), CLOG_CRI);
}

static void test_container_log_long_record(void **state)
{
    (void)state;
    /* A record longer than the line cap is cut there; the records after it
     * are read. */
    size_t len;
    char *data = long_input("2026-01-01T00:00:00Z stdout F ", 2 * (size_t)READER_LINE_CAP,
                            "\n2026-01-01T00:00:01Z stderr F Killed\n", &len);
    open_data(data, len);
    struct line ln;
    assert_int_equal(reader_next(rd, &ln), 1);
    assert_int_equal(ln.len, READER_LINE_CAP - 30); /* the record's first cap bytes, less its header */
    assert_int_equal(ln.text[ln.len - 1], 'x');
    next_line("Killed", 2);
    at_end();
    free(data);
}

static void test_gzip_of_utf16_and_of_cri(void **state)
{
    (void)state;
    /* The decoders work under gzip: a compressed UTF-16 log, then a
     * compressed CRI log on the same reader. */
    size_t len;
    char *data = utf16("Killed\n", 0, 1, "", 0, &len);
    open_path(gz_append(data, len));
    next_line("Killed", 1);
    at_end();
    assert_int_equal((reader_compression(rd) != DECOMPRESS_NONE), 1);
    assert_int_equal(reader_encoding(rd), SNIFF_UTF16LE);
    assert_int_equal(reader_bytes(rd), len);
    free(data);
    close(rd_fd);
    char path[4096];
    snprintf(path, sizeof path, "%s/log.gz", gz_path);
    unlink(path);
    static const char cri[] = "2026-01-01T00:00:00Z stderr P CUDA out\n2026-01-01T00:00:00Z stderr F  of memory\n";
    rd_fd = open(gz_append(cri, sizeof cri - 1), O_RDONLY);
    assert_true(rd_fd >= 0);
    reader_reset(rd, rd_fd);
    next_line("CUDA out of memory", 1);
    at_end();
    assert_int_equal(reader_format(rd), CLOG_CRI);
    assert_int_equal(reader_encoding(rd), SNIFF_UTF8);
    assert_int_equal((reader_compression(rd) != DECOMPRESS_NONE), 1);
}

static void test_container_log_streams_not_mixed(void **state)
{
    (void)state;
    /* A partial line of stderr (a progress bar) left open when a stdout
     * record comes: the stdout line stands alone, not glued to the bar. */
    static const char cri[] = "2026-01-01T00:00:00Z stderr P train:  50%|\r\n"
                              "2026-01-01T00:00:01Z stdout F step 10 loss 2.5\n"
                              "2026-01-01T00:00:02Z stderr F  100%|\n"
                              "2026-01-01T00:00:03Z stderr P Killed\n"
                              "2026-01-01T00:00:04Z stderr F \n";
    open_data(cri, sizeof cri - 1);
    next_line("train:  50%|", 1);
    next_line("step 10 loss 2.5", 2);
    next_line(" 100%|", 3);
    next_line("Killed", 4); /* the same stream goes on joining */
    at_end();
    teardown(NULL);

    /* A progress update's "\r" at the end of a "P" record is the text's. */
    static const char bar[] = "2026-01-01T00:00:00Z stderr P 10%\r\n2026-01-01T00:00:01Z stderr F 20%\r\n";
    open_data(bar, sizeof bar - 1);
    struct line ln;
    assert_int_equal(reader_next(rd, &ln), 1);
    assert_int_equal(ln.cr_ended, 1);
    assert_memory_equal(ln.text, "10%", 3);
    next_line("20%", 1);
    at_end();
    teardown(NULL);

    static const char docker[] =
        "{\"log\":\"epoch 1 [\",\"stream\":\"stdout\",\"time\":\"2026-01-01T00:00:00Z\"}\n"
        "{\"log\":\"Traceback (most recent call last):\\n\",\"stream\":\"stderr\",\"time\":\"2026-01-01T00:00:01Z\"}\n"
        "{\"log\":\"RuntimeError: \",\"stream\":\"stderr\",\"time\":\"2026-01-01T00:00:02Z\"}\n"
        "{\"log\":\"CUDA error: out of memory\\n\",\"stream\":\"stderr\",\"time\":\"2026-01-01T00:00:03Z\"}\n";
    open_data(docker, sizeof docker - 1);
    next_line("epoch 1 [", 1);
    next_line("Traceback (most recent call last):", 2);
    next_line("RuntimeError: CUDA error: out of memory", 3);
    at_end();
}

/* xz and zstd are read, not skipped as binary: their magic number starts
 * a decompressor, and a damaged stream is an error that says which. */
static void test_xz_and_zstd_are_decompressed(void **state)
{
    (void)state;
    static const char xz[] = "\xfd"
                             "7zXZ\0\0\x04\xe6\xd6\xb4\x46";
    static const char zst[] = "\x28\xb5\x2f\xfd\x04\x58text";
    unsigned long long lines;
    open_data(xz, sizeof xz - 1);
    assert_int_equal(drain(&lines), -1);
    assert_false(reader_is_binary(rd));
    assert_int_equal(reader_compression(rd), DECOMPRESS_XZ);
    assert_non_null(strstr(reader_error(rd), "xz data"));
    teardown(NULL);
    open_data(zst, sizeof zst - 1);
    assert_int_equal(drain(&lines), -1);
    assert_int_equal(reader_compression(rd), DECOMPRESS_ZSTD);
    assert_non_null(strstr(reader_error(rd), "zstd data"));
    teardown(NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(test_lf_lines, teardown),
        cmocka_unit_test_teardown(test_crlf_lines, teardown),
        cmocka_unit_test_teardown(test_lone_cr_progress_segments, teardown),
        cmocka_unit_test_teardown(test_cr_then_crlf, teardown),
        cmocka_unit_test_teardown(test_lone_cr_at_end, teardown),
        cmocka_unit_test_teardown(test_no_final_newline, teardown),
        cmocka_unit_test_teardown(test_empty_input, teardown),
        cmocka_unit_test_teardown(test_single_newline, teardown),
        cmocka_unit_test_teardown(test_nul_ends_a_piece, teardown),
        cmocka_unit_test_teardown(test_nul_hole_before_the_failure, teardown),
        cmocka_unit_test_teardown(test_binary_by_magic_number, teardown),
        cmocka_unit_test_teardown(test_xz_and_zstd_are_decompressed, teardown),
        cmocka_unit_test_teardown(test_binary_mostly_not_text, teardown),
        cmocka_unit_test_teardown(test_binary_judged_by_the_first_block, teardown),
        cmocka_unit_test_teardown(test_long_line_cut, teardown),
        cmocka_unit_test_teardown(test_very_long_line_cut, teardown),
        cmocka_unit_test_teardown(test_long_line_at_end_without_newline, teardown),
        cmocka_unit_test_teardown(test_line_of_exactly_the_cap, teardown),
        cmocka_unit_test_teardown(test_long_line_after_short_line, teardown),
        cmocka_unit_test_teardown(test_long_line_tail_is_read, teardown),
        cmocka_unit_test_teardown(test_pipe_input, teardown),
        cmocka_unit_test_teardown(test_pipe_crlf_split_across_reads, teardown),
        cmocka_unit_test_teardown(test_line_across_read_blocks, teardown),
        cmocka_unit_test_teardown(test_file_of_exactly_one_read_block, teardown),
        cmocka_unit_test_teardown(test_file_truncated_while_read, teardown),
        cmocka_unit_test_setup_teardown(test_gzip, gz_setup, gz_teardown),
        cmocka_unit_test_setup_teardown(test_gzip_concatenated_members, gz_setup, gz_teardown),
        cmocka_unit_test_setup_teardown(test_gzip_large, gz_setup, gz_teardown),
        cmocka_unit_test_setup_teardown(test_gzip_compressed_over_64k, gz_setup, gz_teardown),
        cmocka_unit_test_setup_teardown(test_gzip_magic_split_across_reads, gz_setup, gz_teardown),
        cmocka_unit_test_setup_teardown(test_gzip_truncated, gz_setup, gz_teardown),
        cmocka_unit_test_setup_teardown(test_gzip_corrupt, gz_setup, gz_teardown),
        cmocka_unit_test_teardown(test_not_gzip_with_one_magic_byte, teardown),
        cmocka_unit_test_teardown(test_has_escape_flag, teardown),
        cmocka_unit_test_teardown(test_cr_ended_flag, teardown),
        cmocka_unit_test_teardown(test_reset_starts_over, teardown),
        cmocka_unit_test_setup_teardown(test_reset_after_gzip, gz_setup, gz_teardown),
        cmocka_unit_test_teardown(test_utf8_bom_dropped, teardown),
        cmocka_unit_test_teardown(test_utf16_with_bom, teardown),
        cmocka_unit_test_teardown(test_utf16_without_bom, teardown),
        cmocka_unit_test_teardown(test_utf16_odd_length_and_lone_surrogates, teardown),
        cmocka_unit_test_teardown(test_utf16_large_and_in_odd_pieces, teardown),
        cmocka_unit_test_teardown(test_utf16_hole_and_not_utf16, teardown),
        cmocka_unit_test_teardown(test_docker_json_log, teardown),
        cmocka_unit_test_teardown(test_docker_json_broken_records, teardown),
        cmocka_unit_test_teardown(test_container_detection_needs_the_first_lines, teardown),
        cmocka_unit_test_teardown(test_cri_log, teardown),
        cmocka_unit_test_teardown(test_container_log_long_record, teardown),
        cmocka_unit_test_setup_teardown(test_gzip_of_utf16_and_of_cri, gz_setup, gz_teardown),
        cmocka_unit_test_teardown(test_container_log_streams_not_mixed, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
