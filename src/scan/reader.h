/* The streaming line reader: read() (and a decompressor for gzip, xz,
 * bzip2 or zstd data, src/scan/decompress.h) into one
 * bounded buffer, decoding on the way what the first block shows: UTF-16
 * (LE or BE, with or without a byte-order mark) to UTF-8, a UTF-8 BOM
 * dropped, and a docker JSON-lines or CRI container log to the text its
 * records carry.  Lines end at "\n", "\r\n" or a lone "\r" (progress
 * bars); a run of NUL bytes also ends a piece of a line and is dropped, so
 * that the hole a crashed node leaves never hides the text after it.  Line
 * numbers count "\n" only (of the decoded text), so they match an
 * editor's.  A line longer than READER_LINE_CAP is cut there: its head
 * and its last READER_TAIL bytes are handed out (both with the same number,
 * marked truncated), the bytes between skipped.  The reader owns its buffers but not the descriptor; a
 * returned line is valid until the next call. */
#ifndef OOMDIAG_READER_H
#define OOMDIAG_READER_H

#include <stddef.h>

#include "container_log.h"
#include "decompress.h"
#include "sniff.h"

enum {
    READER_LINE_CAP = 1024 * 1024,
    READER_READ_SIZE = 128 * 1024,
    READER_SNIFF = 8192,
    READER_TAIL = 64 * 1024, /* of a line cut at READER_LINE_CAP, the end also read */
    READER_PIPE_SIZE = 1024 * 1024
};

struct reader;

struct line {
    const char *text; /* not NUL-terminated; holds no NUL byte */
    size_t len;
    unsigned long long number; /* 1-based physical line */
    int truncated;             /* the head or the tail of a line longer than READER_LINE_CAP */
    int has_escape;            /* the line holds an ESC byte (0x1b) */
    int cr_ended;              /* a lone "\r" ended it (a progress-bar update) */
};

/* Reads from FD; gzip, xz, bzip2 and zstd data (by its magic number) is
 * decompressed. */
struct reader *reader_create(int fd);
void reader_free(struct reader *r);
/* Starts over on another descriptor, keeping the buffers. */
void reader_reset(struct reader *r, int fd);

/* 1: *LN holds the next line; 0: end of input; -1: error (reader_error). */
int reader_next(struct reader *r, struct line *ln);
const char *reader_error(const struct reader *r);

/* After the first reader_next: is the input binary (a magic number of a
 * format that is never a log, or a first block mostly not text)?  A binary
 * input is read as it is, neither decoded nor unwrapped. */
int reader_is_binary(const struct reader *r);
/* After the first reader_next: the text's encoding and container format. */
enum sniff_encoding reader_encoding(const struct reader *r);
enum clog_format reader_format(const struct reader *r);
/* Lines (physical, of the decoded text) and bytes (of the input as read,
 * after decompression) consumed so far. */
unsigned long long reader_lines(const struct reader *r);
unsigned long long reader_bytes(const struct reader *r);
/* The compression the input was read through (DECOMPRESS_NONE: none). */
enum decompress_kind reader_compression(const struct reader *r);

#endif
