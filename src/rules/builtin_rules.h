/* The shipped rule files (rules/NAME.json) and translations, embedded at build time by
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

/* The shipped translation files ("oomdiag_lang": 1), parsed only when
 * their language is asked for. */
struct builtin_lang {
    const char *name;
    const char *lang; /* the file's "lang" */
    const unsigned char *data;
    size_t len;
};
extern const struct builtin_lang builtin_langs[];
extern const size_t builtin_lang_count;

#endif
