/* Making log text safe to show anywhere: valid UTF-8 (bad bytes become
 * U+FFFD), no control characters (tabs become spaces, others are
 * dropped), at most a given length.  The result is malloc'd; the caller
 * frees it. */
#ifndef OOMDIAG_TEXTSAFE_H
#define OOMDIAG_TEXTSAFE_H

#include <stddef.h>

char *textsafe_dup(const char *in, size_t len, size_t max_out);

#endif
