/* The only user of PCRE2: compile a pattern once (JIT where available),
 * match with reusable match data, read named captures.  A struct rx is
 * created by rx_compile and released by rx_free; match data belongs to the
 * struct rx_matcher that owns it. */
#ifndef OOMDIAG_REGEX_H
#define OOMDIAG_REGEX_H

#include <stddef.h>

struct rx;

/* Compiles PATTERN. On error returns NULL, writes PCRE2's message into ERR
 * and the error offset into *err_off. */
struct rx *rx_compile(const char *pattern, int caseless, char *err, size_t errsize, size_t *err_off);
/* The same, with capture groups 1..HIDDEN left out of the names that
 * rx_each_capture, rx_name_count and rx_name see (a pattern's fragment
 * definitions, which come first and never capture). */
struct rx *rx_compile_hiding(const char *pattern, unsigned hidden, int caseless, char *err, size_t errsize,
                             size_t *err_off);
void rx_free(struct rx *rx);
/* RX's compiled form as bytes (malloc'd, *LEN of them; NULL when out of
 * memory), for the build's rule image; rx_deserialize reads them back
 * without compiling, if this process's PCRE2 is the one that wrote them
 * (same version and build), and returns NULL otherwise: compile then.
 * HIDDEN is as for rx_compile_hiding. */
unsigned char *rx_serialize(const struct rx *rx, size_t *len);
struct rx *rx_deserialize(const unsigned char *bytes, size_t len, unsigned hidden);
/* JIT-compiles RX (once; if the platform has no JIT it stays interpreted).
 * Worth it for a pattern that runs often: compiling costs more than a few
 * interpreted matches, so callers do it after some uses. */
void rx_jit(struct rx *rx);

/* Reusable match state, big enough for any pattern. */
struct rx_matcher;
struct rx_matcher *rx_matcher_create(void);
void rx_matcher_free(struct rx_matcher *m);

enum rx_result { RX_NOMATCH = 0, RX_MATCH = 1, RX_LIMIT = -1, RX_ERROR = -2 };
/* Matches RX against SUBJECT (LEN bytes, need not be NUL-terminated). */
enum rx_result rx_match(const struct rx *rx, struct rx_matcher *m, const char *subject, size_t len);

/* After a match: calls FN for each named group that took part. */
typedef int (*rx_capture_fn)(void *ctx, const char *name, const char *value, size_t len);
int rx_each_capture(const struct rx *rx, const struct rx_matcher *m, const char *subject, rx_capture_fn fn, void *ctx);

/* After a match: where the whole match starts and ends in the subject. */
void rx_match_span(const struct rx_matcher *m, size_t *start, size_t *end);

/* Number of named groups, and the name of group I (in name-table order). */
unsigned rx_name_count(const struct rx *rx);
const char *rx_name(const struct rx *rx, unsigned i);

#endif
