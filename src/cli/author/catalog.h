/* What the rules know, for people: --list-rules and --explain.  Borrows
 * the ruleset; writes to the given FILE. */
#ifndef OOMDIAG_CATALOG_H
#define OOMDIAG_CATALOG_H

#include <stdio.h>

#include "oomdiag/oomdiag.h"
#include "words.h"

void catalog_list(FILE *out, const struct od_ruleset *rs);
/* Returns 0, or -1 if CAUSE is unknown. */
int catalog_explain(FILE *out, const struct od_ruleset *rs, const struct od_words *words, const char *cause);
/* --show-patterns: each signature whose id matches GLOB (fnmatch), its
 * pattern as PCRE2 reads it (JSON escapes undone), the pattern with its
 * fragments expanded (what is compiled), and its literals.  0, or -1 when
 * no id matches. */
int catalog_show_patterns(FILE *out, const struct od_ruleset *rs, const char *glob);
/* Is ID a known cause? */
int catalog_has_cause(const struct od_ruleset *rs, const char *id);

#endif
