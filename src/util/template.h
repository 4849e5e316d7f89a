/* Text templates of rule files: "{name}" placeholders filled from a
 * diagnosis's values.  The result is malloc'd; the caller frees it. */
#ifndef OOMDIAG_TEMPLATE_H
#define OOMDIAG_TEMPLATE_H

#include <stddef.h>

/* Writes the display text of NAME into BUF; returns 0, or -1 if NAME has
 * no value. */
typedef int (*template_lookup_fn)(void *ctx, const char *name, char *buf, size_t bufsize);

/* Expands TPL. Returns NULL if a placeholder has no value (the caller then
 * leaves the text out) or on a bad template. "{{" and "}}" are braces. */
char *template_expand(const char *tpl, template_lookup_fn lookup, void *ctx);

/* Checks TPL's syntax: 0, or -1 with *err_off at the problem. */
int template_check(const char *tpl, size_t *err_off);

#endif
