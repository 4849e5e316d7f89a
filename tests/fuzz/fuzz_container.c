/* libFuzzer: container runtimes' log records (container_log.h), docker's
 * json-file and CRI.  Byte 0 picks the format (0: clog_detect on the rest,
 * 1: docker JSON, 2: CRI), byte 1 the output room (at least 8); the rest
 * is records, one a line.  Each record is decoded through a buffer of
 * exactly ROOM bytes and again through a big one.  Checks: never more than
 * the room written, progress on every call, the position stays inside the
 * record, at most one byte more out than in (escapes shrink; the "\n" a
 * record ends with is the one more), and the same bytes whatever the
 * room. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "container_log.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(int ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "fuzz_container: broken promise: %s\n", what);
        abort();
    }
}

static size_t decode(enum clog_format f, const char *rec, size_t len, size_t room, char *out)
{
    struct clog_rec st;
    char *buf = malloc(room);
    check(buf != NULL, "out of memory");
    clog_begin(f, rec, len, &st);
    check(st.stream >= 0 && st.stream <= 2, "an unknown stream");
    size_t total = 0;
    while (!st.done) {
        size_t pos = st.pos;
        size_t got = clog_emit(&st, rec, len, buf, room);
        check(got <= room, "more written than the room");
        check(got > 0 || st.done || st.pos > pos, "no progress");
        check(st.pos <= len, "the position left the record");
        check(total + got <= len + 1, "more out than in");
        memcpy(out + total, buf, got);
        total += got;
        check(got == 0 || st.last == (unsigned char)buf[got - 1], "last is not the last byte");
    }
    free(buf);
    return total;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2)
        return 0;
    const char *text = (const char *)data + 2;
    size_t n = size - 2;
    enum clog_format f = clog_detect(text, n, 1);
    check(f == CLOG_NONE || f == CLOG_DOCKER_JSON || f == CLOG_CRI, "an unknown format");
    if (n > 0)
        (void)clog_detect(text, n - 1, 0); /* the same input, its end not seen yet */
    if (data[0] % 3 == 1)
        f = CLOG_DOCKER_JSON;
    else if (data[0] % 3 == 2)
        f = CLOG_CRI;
    if (f == CLOG_NONE)
        return 0;
    size_t room = 8 + (size_t)data[1] % 64;
    char *a = malloc(n + 2), *b = malloc(n + 2);
    check(a != NULL && b != NULL, "out of memory");
    for (size_t off = 0; off < n;) {
        const char *nl = memchr(text + off, '\n', n - off);
        size_t len = nl ? (size_t)(nl - text - off) : n - off;
        size_t la = decode(f, text + off, len, room, a);
        size_t lb = decode(f, text + off, len, len + 64, b);
        check(la == lb && memcmp(a, b, la) == 0, "a record decodes differently in another room");
        off += len + 1;
    }
    free(a);
    free(b);
    return 0;
}
