/* Reading one rule file (JSON text) into a ruleset: syntax errors located
 * as FILE:LINE:COL, semantic errors named by JSON pointer, regex errors
 * with a caret at PCRE2's offset, unknown keys warned.  TEXT must live as
 * long as the ruleset (the items' origins point into it). */
#ifndef OOMDIAG_RULEFILE_H
#define OOMDIAG_RULEFILE_H

#include <stddef.h>

#include "ruleset.h"

/* The largest rule file read (load.c) or parsed (here). */
enum { RULEFILE_MAX_BYTES = 16 * 1024 * 1024 };

/* How to read one file; load.c picks them by where the file comes from. */
struct rulefile_opts {
    int builtin;         /* an embedded file: its items are marked builtin, its keys are not
                            checked (the test suite checks the files themselves) */
    int keep_samples;    /* keep sample lines (--check-rules); otherwise only check that
                            they exist (and, for an embedded lean copy, not even that) */
    int compile_now;     /* compile every signature's regex now (user rule files) rather
                            than at its first use */
    int builtin_context; /* embedded rules beside files being checked: an id already
                            defined is theirs, and this file's item is left out */
};

/* Returns 0, or -1 after reporting every error found in the file. */
int rulefile_load(struct od_ruleset *rs, const struct rulefile_opts *opts, const char *name, const char *text,
                  size_t len);

/* The literal a pattern implies: its leading plain text (before the first
 * group, class, quantifier or alternation), if 3 bytes or more; NULL
 * otherwise.  Malloc'd. */
char *rulefile_derive_literal(const char *pattern);

/* Is TEXT (LEN bytes) a rule file marked "lexicon": true (its fragments
 * shared with the files loaded after it)?  A directory loads those first. */
int rulefile_is_lexicon(const char *text, size_t len);

#endif
