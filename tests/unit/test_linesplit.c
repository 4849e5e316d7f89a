/* The line splitter for live input gives the same lines, numbers and
 * flags as the file reader, however the bytes are cut into pieces; a
 * skipped stretch keeps the line numbers right. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "linesplit.h"
#include "reader.h"

struct got {
    char *text; /* "number|flags|text" per line, "\n"-separated */
    size_t len, cap;
    unsigned long long newlines;
};

static void add(struct got *g, const char *p, size_t n)
{
    if (g->len + n + 1 > g->cap) {
        g->cap = (g->len + n + 1) * 2;
        g->text = realloc(g->text, g->cap);
        assert_non_null(g->text);
    }
    memcpy(g->text + g->len, p, n);
    g->len += n;
    g->text[g->len] = '\0';
}

static void add_line(struct got *g, const struct line *ln)
{
    char head[64];
    int n = snprintf(head, sizeof head, "%llu|%d%d%d|", ln->number, ln->truncated, ln->has_escape, ln->cr_ended);
    add(g, head, (size_t)n);
    add(g, ln->text, ln->len);
    add(g, "\n", 1);
}

static int on_line(void *ctx, const struct line *ln, unsigned long long newlines)
{
    struct got *g = ctx;
    if (ln != NULL)
        add_line(g, ln);
    g->newlines += newlines;
    return 0;
}

/* The reader's view of DATA, through a pipe fed by a child process. */
static void by_reader(const char *data, size_t len, struct got *g, unsigned long long *lines)
{
    FILE *f = tmpfile();
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, len, f), len);
    fflush(f);
    rewind(f);
    struct reader *r = reader_create(fileno(f));
    struct line ln;
    while (reader_next(r, &ln) == 1)
        add_line(g, &ln);
    *lines = reader_lines(r);
    reader_free(r);
    fclose(f);
}

static void by_splitter(const char *data, size_t len, unsigned seed, struct got *g, unsigned long long *lines)
{
    struct linesplit ls;
    assert_int_equal(linesplit_init(&ls), 0);
    srand(seed);
    size_t at = 0;
    while (at < len) {
        size_t n = seed == 0 ? len : 1 + (size_t)rand() % (seed < 4 ? 3 : 70000);
        if (n > len - at)
            n = len - at;
        assert_int_equal(linesplit_push(&ls, data + at, n, on_line, g), 0);
        at += n;
    }
    assert_int_equal(linesplit_end(&ls, on_line, g), 0);
    *lines = linesplit_lines(&ls);
    assert_int_equal(ls.bytes, len);
    linesplit_free(&ls);
}

static void same_as_reader(const char *data, size_t len)
{
    struct got want = {0}, got;
    unsigned long long want_lines, got_lines;
    by_reader(data, len, &want, &want_lines);
    for (unsigned seed = 0; seed < 8; seed++) {
        memset(&got, 0, sizeof got);
        by_splitter(data, len, seed, &got, &got_lines);
        assert_int_equal(got.len, want.len);
        if (want.len)
            assert_memory_equal(got.text, want.text, want.len);
        assert_int_equal(got_lines, want_lines);
        free(got.text);
    }
    free(want.text);
}

static void line_ends(void **state)
{
    (void)state;
    static const char data[] = "plain\nwindows\r\nbar 1\rbar 2\rbar 3\n\n\r\r\ncolour \x1b[31mred\x1b[0m\nlast";
    same_as_reader(data, sizeof data - 1);
    same_as_reader("ends in cr\r", 11);
    same_as_reader("ends in crlf\r\n", 14);
    same_as_reader("", 0);
    same_as_reader("\n", 1);
}

static void long_lines(void **state)
{
    (void)state;
    size_t len = 3 * (size_t)READER_LINE_CAP + 100;
    char *data = malloc(len);
    assert_non_null(data);
    for (size_t i = 0; i < len; i++)
        data[i] = (char)('a' + i % 26);
    data[10] = '\n';
    data[READER_LINE_CAP + 11] = '\n'; /* a line of exactly the cap */
    data[READER_LINE_CAP + 20] = '\n';
    data[len - 50] = '\r'; /* a cut line's tail ended by a lone "\r" */
    same_as_reader(data, len);
    /* two-byte characters: the tail's first byte falls on every offset */
    for (size_t i = 0; i < len; i++)
        data[i] = (char)(i % 2 ? 0xa9 : 0xc3);
    for (size_t k = 0; k < 3; k++) {
        data[READER_LINE_CAP + READER_TAIL + 7 + k] = '\n';
        data[2 * READER_LINE_CAP + 5 * k] = '\n';
        same_as_reader(data, len);
    }
    free(data);
}

static void random_bytes(void **state)
{
    (void)state;
    size_t len = 400000;
    char *data = malloc(len);
    assert_non_null(data);
    srand(7);
    static const char pick[] = "ab\n\r\x1b \t";
    for (size_t i = 0; i < len; i++)
        data[i] = pick[rand() % (int)(sizeof pick - 1)];
    same_as_reader(data, len);
    free(data);
}

static void skip_keeps_numbers(void **state)
{
    (void)state;
    struct linesplit ls;
    struct got g = {0};
    assert_int_equal(linesplit_init(&ls), 0);
    assert_int_equal(linesplit_push(&ls, "one\ntw", 6, on_line, &g), 0);
    /* lost: "o\nthree\nfo" (2 newlines) */
    assert_int_equal(linesplit_skip(&ls, 11, 2, on_line, &g), 0);
    assert_int_equal(linesplit_push(&ls, "ur\nfive\n", 8, on_line, &g), 0);
    assert_int_equal(linesplit_end(&ls, on_line, &g), 0);
    assert_string_equal(g.text, "1|000|one\n2|100|tw\n4|000|ur\n5|000|five\n");
    assert_int_equal(linesplit_lines(&ls), 5);
    assert_int_equal(ls.bytes, 25);
    linesplit_free(&ls);
    free(g.text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(line_ends),
        cmocka_unit_test(long_lines),
        cmocka_unit_test(random_bytes),
        cmocka_unit_test(skip_keeps_numbers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
