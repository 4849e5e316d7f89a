/* --check-rules' lints of how rules are written, beside selftest.c's
 * sample checks: a literal the pattern already implies (a note), a summary
 * that can never be chosen (an error), a named group that no sample
 * captures, a capture name neither declared in "fields" nor known to the
 * engine (warnings).  Reports through the ruleset's message sink; borrows
 * the ruleset. */
#ifndef OOMDIAG_LINT_H
#define OOMDIAG_LINT_H

#include <stddef.h>

#include "oomdiag/oomdiag.h"

struct lint_counts {
    size_t errors, warnings, notes;
};

/* Lints the signatures and causes of rule files (and of the embedded rules
 * too with WITH_BUILTIN).  Signatures whose pattern does not compile are
 * left out (selftest reports them). */
void lint_rules(struct od_ruleset *rs, int with_builtin, struct lint_counts *counts);

#endif
