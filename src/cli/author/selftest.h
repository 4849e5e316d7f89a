/* --check-rules: every signature compiles, every "match" sample matches
 * its own signature through the whole matching path (literal prefilter
 * included) with the expected fields, every "no_match" sample matches no
 * signature, and risky patterns are flagged.  Reports through the
 * ruleset's message sink; borrows the ruleset. */
#ifndef OOMDIAG_SELFTEST_H
#define OOMDIAG_SELFTEST_H

#include "oomdiag/oomdiag.h"

struct selftest_result {
    size_t signatures, samples, failures, warnings;
};

/* Returns 0 when every check passed, -1 otherwise.  WITH_BUILTIN: check
 * the embedded rules' signatures too (else only those of rule files). */
int selftest_run(struct od_ruleset *rs, int with_builtin, struct selftest_result *res);

/* Does PATTERN nest an unbounded quantifier inside another, e.g. (a+)+ ?
 * Returns the offset of the outer quantifier + 1, or 0. */
size_t selftest_nested_quantifier(const char *pattern);

#endif
