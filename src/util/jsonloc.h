/* Locations in a JSON text: byte offset -> line and column, and the
 * position of a value named by a JSON pointer ("/signatures/3/pattern"),
 * found by a light scan of the raw text (cJSON keeps no positions).
 * A jsonloc borrows TEXT; jsonloc_free releases the line map. */
#ifndef OOMDIAG_JSONLOC_H
#define OOMDIAG_JSONLOC_H

#include <stddef.h>

struct jsonloc {
    const char *text;
    size_t len;
    size_t *line_starts;
    size_t line_count;
};

int jsonloc_init(struct jsonloc *loc, const char *text, size_t len);
void jsonloc_free(struct jsonloc *loc);
/* 1-based line and column of byte OFFSET. */
void jsonloc_position(const struct jsonloc *loc, size_t offset, unsigned long *line, unsigned long *col);
/* Copies line LINE (1-based, without its newline) into BUF. */
void jsonloc_line_text(const struct jsonloc *loc, unsigned long line, char *buf, size_t bufsize);
/* Offset of the value at POINTER (or of its key, for an object member).
 * If the path is only partly there, the offset of the deepest part found
 * (0 for none), so that a message still points near the problem. */
size_t jsonloc_find(const struct jsonloc *loc, const char *pointer);

#endif
