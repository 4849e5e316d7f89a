/* Memory sizes as programs print them, to and from integer bytes.
 * Pure functions over caller-owned buffers; nothing is allocated. */
#ifndef OOMDIAG_SIZE_H
#define OOMDIAG_SIZE_H

#include <stddef.h>

/* Parses "512.00 MiB", "1.2 GiB", "0 bytes", "2.5GiB", "1,073,741,824 bytes",
 * "139. MiB", "4096kB", "123" (bytes).  Returns 0 and sets *bytes, or -1 if
 * TEXT (LEN bytes) is not a size. */
int size_parse(const char *text, size_t len, long long *bytes);

/* Formats BYTES the way PyTorch does: "2.87 GiB", "19.75 MiB", "512 bytes". */
void size_format(long long bytes, char *buf, size_t bufsize);

#endif
