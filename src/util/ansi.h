/* Removing terminal escape sequences (ANSI colours, cursor moves, OSC
 * titles) from a line before it is matched.  Pure function. */
#ifndef OOMDIAG_ANSI_H
#define OOMDIAG_ANSI_H

#include <stddef.h>

/* Copies IN (LEN bytes) to OUT (room for LEN bytes) without escape
 * sequences; returns the new length.  IN and OUT may be the same. */
size_t ansi_strip(const char *in, size_t len, char *out);

#endif
