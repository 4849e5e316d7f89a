/* Judges an input by its first block: is it binary (the magic number of a
 * format that is never a log, or mostly bytes that are not text), and in
 * which encoding is its text (a byte-order mark, or UTF-16's pattern of
 * NUL bytes)?  NUL bytes alone never make an input binary: a crashed node
 * leaves runs of them in a text log.  Pure functions over the caller's
 * bytes. */
#ifndef OOMDIAG_SNIFF_H
#define OOMDIAG_SNIFF_H

#include <stddef.h>

enum sniff_encoding { SNIFF_UTF8 = 0, SNIFF_UTF16LE, SNIFF_UTF16BE };

/* Does P (N bytes, the start of the input) begin with the magic number of
 * an executable, image, archive, compressed or serialised-data format? */
int sniff_magic(const unsigned char *p, size_t n);

/* Is the block P (N bytes) mostly not text: of its bytes other than NUL,
 * are more than 30% control characters or not valid UTF-8?  AT_END: the
 * block is the whole input (a character cut at its end then counts). */
int sniff_mostly_binary(const unsigned char *p, size_t n, int at_end);

/* The encoding of P (N bytes, the start of the input): a UTF-8 or UTF-16
 * byte-order mark (*BOM gets its length), or without one UTF-16 when most
 * code units of P that are not two NULs have one NUL byte on the same side
 * and the first 4 KiB decode to text.  SNIFF_UTF8 (*BOM 0) otherwise. */
enum sniff_encoding sniff_encoding(const unsigned char *p, size_t n, size_t *bom);

#endif
