/* Decompressing a log as it streams: gzip (zlib), xz (liblzma), bzip2
 * (libbz2) and zstd (libzstd), chosen by the data's magic number.  A
 * struct decompress is owned by its reader; it keeps the codec's state
 * only, never the bytes (the caller lends input and output buffers). */
#ifndef OOMDIAG_DECOMPRESS_H
#define OOMDIAG_DECOMPRESS_H

#include <stddef.h>

enum decompress_kind { DECOMPRESS_NONE, DECOMPRESS_GZIP, DECOMPRESS_XZ, DECOMPRESS_BZIP2, DECOMPRESS_ZSTD };

/* The most bytes decompress_sniff looks at. */
enum { DECOMPRESS_MAGIC_MAX = 10 };

/* The format whose magic number starts P (N bytes), or DECOMPRESS_NONE. */
enum decompress_kind decompress_sniff(const unsigned char *p, size_t n);
/* "gzip", "xz", "bzip2", "zstd" (NULL for DECOMPRESS_NONE). */
const char *decompress_name(enum decompress_kind kind);

struct decompress;

/* A decoder for KIND, or NULL when out of memory or the codec will not
 * start (ERR says which). */
struct decompress *decompress_start(enum decompress_kind kind, char *err, size_t errsize);
void decompress_free(struct decompress *d);

/* Decodes from *IN (*IN_LEN bytes) into OUT (ROOM bytes), advancing *IN
 * and *IN_LEN past what was consumed; concatenated streams (members,
 * frames) are read one after another.  Returns the bytes written to OUT,
 * or (size_t)-1 on damaged data with ERR set.  AT_END says no input
 * follows what *IN holds.  *COMPLETE is 1 when the input consumed so far
 * ends at the end of a stream: at the end of the input, 0 there means the
 * data was cut. */
size_t decompress_step(struct decompress *d, const unsigned char **in, size_t *in_len, int at_end, unsigned char *out,
                       size_t room, int *complete, char *err, size_t errsize);

#endif
