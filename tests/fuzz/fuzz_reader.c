/* libFuzzer: bytes -> a pipe (inputs that fit its buffer) or a memfd ->
 * reader_create/reader_next until the end.  The reader sniffs gzip by its
 * magic bytes, so the corpus holds small .gz files, and decodes UTF-16
 * and container logs.  Checks what reader.h promises: no line holds "\n"
 * or NUL, none is longer than READER_LINE_CAP, line numbers never go
 * back. */
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "reader.h"

enum { PIPE_MAX = 64 * 1024 };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int make_fd(const uint8_t *data, size_t size)
{
    if (size <= PIPE_MAX) { /* a pipe: short reads, as stdin gives */
        int p[2];
        if (pipe(p) != 0)
            abort();
        for (size_t off = 0; off < size;) {
            ssize_t n = write(p[1], data + off, size - off);
            if (n <= 0)
                abort();
            off += (size_t)n;
        }
        close(p[1]);
        return p[0];
    }
    int fd = memfd_create("fuzz_reader", 0);
    if (fd < 0)
        abort();
    for (size_t off = 0; off < size;) {
        ssize_t n = write(fd, data + off, size - off);
        if (n <= 0)
            abort();
        off += (size_t)n;
    }
    if (lseek(fd, 0, SEEK_SET) != 0)
        abort();
    return fd;
}

static void check(int ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "fuzz_reader: broken promise: %s\n", what);
        abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    int fd = make_fd(data, size);
    struct reader *r = reader_create(fd);
    struct line ln;
    unsigned long long last = 0, total = 0;
    int rc;
    if (r == NULL)
        abort();
    while ((rc = reader_next(r, &ln)) == 1) {
        check(ln.len <= READER_LINE_CAP, "a line is longer than READER_LINE_CAP");
        check(memchr(ln.text, '\n', ln.len) == NULL, "a line holds a newline");
        check(memchr(ln.text, '\0', ln.len) == NULL, "a line holds a NUL byte");
        check(ln.number >= 1 && ln.number >= last, "line numbers went back");
        last = ln.number;
        total += ln.len;
        (void)reader_is_binary(r);
    }
    check(rc == 0 || reader_error(r) != NULL, "an error without a message");
    check(rc != 0 || reader_error(r) == NULL, "a message without an error");
    if (reader_error(r))
        check(strlen(reader_error(r)) > 0, "an empty error message");
    /* UTF-16 decodes 2 bytes to at most 3, and a last odd byte to 3. */
    unsigned long long most = reader_encoding(r) == SNIFF_UTF8 ? reader_bytes(r) : reader_bytes(r) / 2 * 3 + 3;
    check(total <= most, "more line bytes than bytes read");
    check((reader_compression(r) != DECOMPRESS_NONE) || reader_bytes(r) == size, "bytes read differ from the input's size");
    check(reader_lines(r) >= last, "fewer lines counted than returned");
    reader_free(r);
    close(fd);
    return 0;
}
