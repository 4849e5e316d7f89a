#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "container_log.h"

static enum clog_format detect(const char *s, int at_end)
{
    return clog_detect(s, strlen(s), at_end);
}

static const char docker[] =
    "{\"log\":\"step 1\\n\",\"stream\":\"stdout\",\"time\":\"2026-01-01T00:00:00.1Z\"}\n"
    "{\"log\":\"CUDA out of memory\\n\",\"stream\":\"stderr\",\"time\":\"2026-01-01T00:00:01Z\"}\n";
static const char cri[] = "2026-01-01T00:00:00.123456789Z stdout F step 1\n"
                          "2026-01-01T00:00:01+02:00 stderr P CUDA out \n"
                          "2026-01-01T00:00:01+02:00 stderr F of memory\n";

static void test_detect(void **state)
{
    (void)state;
    assert_int_equal(detect(docker, 1), CLOG_DOCKER_JSON);
    assert_int_equal(detect(cri, 1), CLOG_CRI);
    assert_int_equal(detect("plain log line\nanother\n", 1), CLOG_NONE);
    assert_int_equal(detect("", 1), CLOG_NONE);
    /* The first line must be a record. */
    char mixed[512];
    snprintf(mixed, sizeof mixed, "not a record\n%s", cri);
    assert_int_equal(detect(mixed, 1), CLOG_NONE);
    /* A bad timestamp is no CRI record. */
    assert_int_equal(detect("2026-01-01 00:00:00Z stdout F x\n", 1), CLOG_NONE);
    assert_int_equal(detect("2026-01-01T00:00:00Z stdin F x\n", 1), CLOG_NONE);
    /* One cut record among the first lines does not switch it off. */
    char cut[512];
    snprintf(cut, sizeof cut, "%s{\"log\":\"cut by a cr\n%s", docker, docker);
    assert_int_equal(detect(cut, 1), CLOG_DOCKER_JSON);
    /* CRLF line ends are stripped before judging. */
    assert_int_equal(detect("2026-01-01T00:00:00Z stdout F x\r\n", 1), CLOG_CRI);
    /* A first line longer than the block: judged by its start. */
    assert_int_equal(detect("{\"log\":\"a very long line", 0), CLOG_DOCKER_JSON);
    assert_int_equal(detect("{\"log\":\"a very long line", 1), CLOG_NONE); /* the whole input: no time key */
}

/* Decodes record REC with an output buffer of ROOM bytes at a time. */
static void decode(enum clog_format f, const char *rec, size_t room, char *out, size_t outsize, int *stream)
{
    struct clog_rec st;
    size_t len = strlen(rec), w = 0;
    char piece[256];
    assert_true(room <= sizeof piece);
    clog_begin(f, rec, len, &st);
    while (!st.done) {
        size_t got = clog_emit(&st, rec, len, piece, room);
        assert_true(got <= room);
        assert_true(w + got < outsize);
        memcpy(out + w, piece, got);
        w += got;
        if (got > 0)
            assert_int_equal(st.last, (unsigned char)piece[got - 1]);
    }
    out[w] = '\0';
    *stream = st.stream;
}

static void test_docker_records(void **state)
{
    (void)state;
    char out[256];
    int stream = -1;
    for (size_t room = 8; room <= 64; room += 7) {
        decode(CLOG_DOCKER_JSON,
               "{\"log\":\"a \\\"q\\\" \\\\ \\t\\u00e9\\ud83d\\ude00 \\ud800x "
               "\\q\\n\",\"stream\":\"stderr\",\"time\":\"t\"}",
               room, out, sizeof out, &stream);
        assert_string_equal(out, "a \"q\" \\ \t\xc3\xa9\xf0\x9f\x98\x80 \xef\xbf\xbdx \\q\n");
        assert_int_equal(stream, 2);
    }
    /* A part of a split line: no "\n" added. */
    decode(CLOG_DOCKER_JSON, "{\"log\":\"first half\",\"stream\":\"stdout\",\"time\":\"t\"}", 8, out, sizeof out,
           &stream);
    assert_string_equal(out, "first half");
    assert_int_equal(stream, 1);
    /* A record cut short (by a crash) ends with a newline, nothing lost. */
    decode(CLOG_DOCKER_JSON, "{\"log\":\"cut here\\", 8, out, sizeof out, &stream);
    assert_string_equal(out, "cut here\\\n");
    assert_int_equal(stream, 0);
    /* A record with empty text omits "log": nothing comes out. */
    decode(CLOG_DOCKER_JSON, "{\"stream\":\"stderr\",\"time\":\"t\"}", 8, out, sizeof out, &stream);
    assert_string_equal(out, "");
    assert_int_equal(stream, 2);
    /* A line that is no record is passed on as it is. */
    decode(CLOG_DOCKER_JSON, "garbage {\"log\"", 8, out, sizeof out, &stream);
    assert_string_equal(out, "garbage {\"log\"\n");
    assert_int_equal(stream, 0);
}

static void test_cri_records(void **state)
{
    (void)state;
    char out[256];
    int stream = -1;
    decode(CLOG_CRI, "2026-01-01T00:00:00Z stderr F CUDA out of memory", 8, out, sizeof out, &stream);
    assert_string_equal(out, "CUDA out of memory\n");
    assert_int_equal(stream, 2);
    decode(CLOG_CRI, "2026-01-01T00:00:00.5-07:00 stdout P part one ", 9, out, sizeof out, &stream);
    assert_string_equal(out, "part one "); /* partial: the next record continues it */
    assert_int_equal(stream, 1);
    /* Escapes mean nothing in CRI text. */
    decode(CLOG_CRI, "2026-01-01T00:00:00Z stdout F a\\nb", 8, out, sizeof out, &stream);
    assert_string_equal(out, "a\\nb\n");
    /* An empty text may lack the space after the tag. */
    decode(CLOG_CRI, "2026-01-01T00:00:00Z stdout F", 8, out, sizeof out, &stream);
    assert_string_equal(out, "\n");
    /* Further tags after the first are skipped. */
    decode(CLOG_CRI, "2026-01-01T00:00:00Z stdout F:x,y text", 8, out, sizeof out, &stream);
    assert_string_equal(out, "text\n");
    /* Not a record: as it is. */
    decode(CLOG_CRI, "no header here", 8, out, sizeof out, &stream);
    assert_string_equal(out, "no header here\n");
    assert_int_equal(stream, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_detect),
        cmocka_unit_test(test_docker_records),
        cmocka_unit_test(test_cri_records),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
