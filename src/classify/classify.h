/* The job facts: the names a rule's condition or template may use besides
 * its signatures' captures (docs/rules.md, Conditions).  classify.c owns
 * the one table; --check-rules reads it to tell a typo from a fact. */
#ifndef OOMDIAG_CLASSIFY_H
#define OOMDIAG_CLASSIFY_H

#include <stddef.h>

/* The Ith job fact's name, or NULL past the last. */
const char *classify_fact_name(size_t i);

#endif
