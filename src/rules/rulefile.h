/* Reading one rule file (JSON text) into a ruleset: syntax errors located
 * as FILE:LINE:COL, semantic errors named by JSON pointer, regex errors
 * with a caret at PCRE2's offset, unknown keys warned.  Borrows TEXT for
 * the call only. */
#ifndef OOMDIAG_RULEFILE_H
#define OOMDIAG_RULEFILE_H

#include <stddef.h>

#include "ruleset.h"

/* Returns 0, or -1 after reporting every error found in the file. */
int rulefile_load(struct od_ruleset *rs, const char *name, const char *text, size_t len);

/* The literal a pattern implies: its leading plain text (before the first
 * group, class, quantifier or alternation), if 3 bytes or more; NULL
 * otherwise.  Malloc'd. */
char *rulefile_derive_literal(const char *pattern);

#endif
