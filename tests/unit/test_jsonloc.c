/* jsonloc: offsets to line:column, line text, and JSON pointers to the
 * position of their value (or key) in the raw text. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "jsonloc.h"

/* Line numbers are written at the right; columns are 1-based bytes. */
static const char doc[] =
    "{\n"                                                                                          /* 1 */
    "  \"oomdiag_rules\": 1,\n"                                                                    /* 2 */
    "  \"signatures\": [\n"                                                                        /* 3 */
    "    {\"id\": \"a\", \"pattern\": \"x{1}\", \"samples\": {\"match\": [\"}\", \"\\\"{[\"]}},\n" /* 4 */
    "    {\n"                                                                                      /* 5 */
    "      \"id\": \"b\",\n"                                                                       /* 6 */
    "      \"nested\": {\"pattern\": \"no\", \"arr\": [1, [2, {\"pattern\": 3}]]},\n"              /* 7 */
    "      \"note\": \"brace } and \\\" quote, \\\"pattern\\\": 1\",\n"                            /* 8 */
    "      \"pattern\": \"here\"\n"                                                                /* 9 */
    "    }\n"                                                                                      /* 10 */
    "  ],\n"                                                                                       /* 11 */
    "  \"causes\": [{\"id\": \"c\", \"remediation\": [{\"id\": \"s0\"}, {\"id\": \"s1\"},\n"       /* 12 */
    "    {\"id\": \"s2\", \"action\": \"x\"}]}]\n"                                                 /* 13 */
    "}\n";

static struct jsonloc loc;

static int setup(void **state)
{
    (void)state;
    return jsonloc_init(&loc, doc, sizeof doc - 1);
}

static int teardown(void **state)
{
    (void)state;
    jsonloc_free(&loc);
    return 0;
}

static void position_of(size_t off, unsigned long line, unsigned long col)
{
    unsigned long l = 0, c = 0;
    jsonloc_position(&loc, off, &l, &c);
    assert_int_equal(l, line);
    assert_int_equal(c, col);
}

/* POINTER is found at LINE:COL, where the text NEEDLE begins. */
static void found_at(const char *pointer, unsigned long line, unsigned long col, const char *needle)
{
    size_t off = jsonloc_find(&loc, pointer);
    unsigned long l = 0, c = 0;
    jsonloc_position(&loc, off, &l, &c);
    if (l != line || c != col)
        print_error("%s: found at %lu:%lu (offset %zu), expected %lu:%lu\n", pointer, l, c, off, line, col);
    assert_int_equal(l, line);
    assert_int_equal(c, col);
    assert_memory_equal(doc + off, needle, strlen(needle));
}

static void test_position(void **state)
{
    (void)state;
    struct jsonloc small;
    unsigned long l = 0, c = 0;
    assert_int_equal(jsonloc_init(&small, "ab\ncd\n\nef", 9), 0);
    static const struct {
        size_t off;
        unsigned long line, col;
    } cases[] = {{0, 1, 1}, {1, 1, 2}, {2, 1, 3}, {3, 2, 1}, {5, 2, 3},
                 {6, 3, 1}, {7, 4, 1}, {8, 4, 2}, {9, 4, 3}, {500, 4, 3} /* past the end: the end */};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        jsonloc_position(&small, cases[i].off, &l, &c);
        assert_int_equal(l, cases[i].line);
        assert_int_equal(c, cases[i].col);
    }
    jsonloc_free(&small);

    assert_int_equal(jsonloc_init(&small, "", 0), 0);
    jsonloc_position(&small, 0, &l, &c);
    assert_int_equal(l, 1);
    assert_int_equal(c, 1);
    jsonloc_free(&small);

    position_of(0, 1, 1);
    position_of(2, 2, 1);
    position_of(sizeof doc - 2, 14, 2); /* the last newline */
}

static void test_line_text(void **state)
{
    (void)state;
    char buf[128];
    jsonloc_line_text(&loc, 2, buf, sizeof buf);
    assert_string_equal(buf, "  \"oomdiag_rules\": 1,");
    jsonloc_line_text(&loc, 14, buf, sizeof buf);
    assert_string_equal(buf, "}");
    jsonloc_line_text(&loc, 15, buf, sizeof buf); /* the empty line after the last newline */
    assert_string_equal(buf, "");
    jsonloc_line_text(&loc, 16, buf, sizeof buf);
    assert_string_equal(buf, "");
    jsonloc_line_text(&loc, 0, buf, sizeof buf);
    assert_string_equal(buf, "");
    jsonloc_line_text(&loc, 2, buf, 6); /* cut to the buffer */
    assert_string_equal(buf, "  \"oo");

    struct jsonloc crlf;
    assert_int_equal(jsonloc_init(&crlf, "{\r\n  \"a\": 1\r\n}", 14), 0);
    jsonloc_line_text(&crlf, 1, buf, sizeof buf);
    assert_string_equal(buf, "{");
    jsonloc_line_text(&crlf, 2, buf, sizeof buf);
    assert_string_equal(buf, "  \"a\": 1");
    jsonloc_free(&crlf);
}

static void test_find_members(void **state)
{
    (void)state;
    found_at("/oomdiag_rules", 2, 3, "\"oomdiag_rules\"");
    found_at("/signatures", 3, 3, "\"signatures\"");
    found_at("/causes", 12, 3, "\"causes\"");
    found_at("/signatures/0", 4, 5, "{\"id\": \"a\"");
    found_at("/signatures/0/id", 4, 6, "\"id\"");
    found_at("/signatures/0/pattern", 4, 17, "\"pattern\": \"x{1}\"");
    found_at("/signatures/0/samples/match/1", 4, 63, "\"\\\"{[\"");
}

static void test_find_skips_nested_values_and_strings(void **state)
{
    (void)state;
    /* Signature 1's own "pattern" is on line 9: the ones inside "nested"
     * and inside the "note" string are not it. */
    found_at("/signatures/1", 5, 5, "{");
    found_at("/signatures/1/pattern", 9, 7, "\"pattern\": \"here\"");
    found_at("/signatures/1/nested/pattern", 7, 18, "\"pattern\": \"no\"");
    found_at("/signatures/1/nested/arr/1/1/pattern", 7, 51, "\"pattern\": 3");
    found_at("/signatures/1/note", 8, 7, "\"note\"");
}

static void test_find_arrays(void **state)
{
    (void)state;
    found_at("/causes/0/remediation/0", 12, 42, "{\"id\": \"s0\"}");
    found_at("/causes/0/remediation/0/id", 12, 43, "\"id\": \"s0\"");
    found_at("/causes/0/remediation/2", 13, 5, "{\"id\": \"s2\"");
    found_at("/causes/0/remediation/2/id", 13, 6, "\"id\": \"s2\"");
    found_at("/causes/0/remediation/2/action", 13, 18, "\"action\"");
}

static void test_find_missing(void **state)
{
    (void)state;
    assert_int_equal(jsonloc_find(&loc, ""), 0);
    assert_int_equal(jsonloc_find(&loc, "/nope"), 0);
    /* A pointer that goes further than the document stops at the deepest
     * part it found (callers use that as the nearest location). */
    found_at("/signatures/7", 3, 3, "\"signatures\"");
    found_at("/causes/0/remediation/5/id", 12, 26, "\"remediation\"");
    found_at("/signatures/0/nope", 4, 5, "{\"id\"");

    struct jsonloc bad;
    const char *text = "{\"a\": [1, \"unterminated";
    assert_int_equal(jsonloc_init(&bad, text, strlen(text)), 0);
    assert_int_equal(jsonloc_find(&bad, "/a/5"), 1);
    assert_int_equal(jsonloc_find(&bad, "/b"), 0);
    jsonloc_free(&bad);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_position),     cmocka_unit_test(test_line_text),
        cmocka_unit_test(test_find_members), cmocka_unit_test(test_find_skips_nested_values_and_strings),
        cmocka_unit_test(test_find_arrays),  cmocka_unit_test(test_find_missing),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
