/* The shipped rule files (rules/NAME.json), embedded at build time by
 * cmake/embed_rules.cmake.  Static data; nothing to free. */
#ifndef OOMDIAG_BUILTIN_RULES_H
#define OOMDIAG_BUILTIN_RULES_H

#include <stddef.h>

struct builtin_rule {
    const char *name;
    const unsigned char *data; /* the file as written */
    size_t len;
    const unsigned char *lean; /* without samples and descriptions */
    size_t lean_len;
};
extern const struct builtin_rule builtin_rules[];
extern const size_t builtin_rule_count;

#endif
