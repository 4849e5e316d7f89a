/* Pattern fragments: a rule file's "fragments": {"size": "..."} are named
 * sub-patterns that its signature patterns call as PCRE2 subroutines,
 * (?&size).  A pattern that calls some is compiled with one
 * (?(DEFINE)(?<size>...)...) in front, holding only the fragments it
 * calls and theirs; the fragments' groups are hidden from the captures.
 * A file's fragments are its own, plus the shared lexicon: the fragments
 * of the files marked "lexicon": true loaded before it (SHARED, its first
 * SHARED_N, which a later lexicon file does not change); a file's own
 * fragment hides a lexicon one of the same name.  A file's struct
 * fragments is kept by the ruleset (patterns expand when first compiled)
 * and released by fragments_free with it (the lexicon is the ruleset's
 * too, and is not released with the files that see it); a struct
 * expansion belongs to its signature and is released by expansion_free. */
#ifndef OOMDIAG_FRAGMENTS_H
#define OOMDIAG_FRAGMENTS_H

#include <stddef.h>

#include <cjson/cJSON.h>

#include "regex.h"

struct fragment {
    char *name, *text;
    int used; /* called by some pattern of the file */
};

struct fragments {
    struct fragment *v;
    size_t n;
    struct fragments *shared; /* the lexicon this file sees (not owned), or NULL */
    size_t shared_n;          /* how many of its fragments it sees */
};

/* A file may define this many fragments; the lexicon may hold this many. */
enum { FRAGMENTS_MAX = 64, LEXICON_MAX = 192 };

/* What PCRE2 compiles for one pattern: TEXT is the pattern's leading
 * (*VERB)s, then PREFIX bytes of definitions, then the pattern's rest.
 * TEXT is NULL when the pattern calls no fragment (it compiles as it is). */
struct expansion {
    char *text;
    size_t verbs, prefix;
    unsigned hidden; /* groups the definitions hold (one per fragment) */
};

/* Called for each problem found in a part of a rule file (an error, or a
 * warning when WARNING): PATH is a JSON pointer in the file, and SOURCE
 * with CARET, when not NULL, the text to show. */
typedef void (*part_report_fn)(void *ctx, int warning, const char *path, const char *source, size_t caret,
                               const char *msg);

/* Reads OBJ (the "fragments" member) into FR, reporting bad names and
 * values (a fragment is a string, or {"pattern": "...", "comment": "..."},
 * and captures nothing).  With CHECK, the fragments are also compiled
 * together (with the lexicon FR->shared they may call) once so that a
 * PCRE2 error points into its fragment.  0, or -1 when something was
 * reported. */
int fragments_parse(struct fragments *fr, const cJSON *obj, int check, part_report_fn report, void *ctx);
void fragments_free(struct fragments *fr);

/* Adds FROM's fragments to the lexicon LEX: a name LEX holds already with
 * the same text is skipped (the same lexicon loaded twice); with another
 * text it is reported.  0, or -1 when something was reported or memory
 * ran out. */
int fragments_share(struct fragments *lex, const struct fragments *from, part_report_fn report, void *ctx);

/* The lexicon fragment of that name FR sees, or NULL. */
const struct fragment *fragments_lexicon_find(const struct fragments *fr, const char *name);

/* The offset in PATTERN of its first call of a fragment that neither FR
 * (which may be NULL) nor its lexicon defines and that is no group of the
 * pattern's own, with *NAME and *LEN set to the name; -1 when none. */
long fragments_unknown_call(const struct fragments *fr, const char *pattern, const char **name, size_t *len);

/* Expands PATTERN with the fragments it calls.  0 (X->text NULL when it
 * calls none), or -1 when out of memory.  FR does not change: a matcher
 * expands a pattern when it first compiles it, after the rules are
 * finished. */
int fragments_expand(struct fragments *fr, const char *pattern, struct expansion *x);
/* Marks the fragments PATTERN calls (and those they call) used: the
 * loader's note, for the warning about a fragment no pattern calls. */
void fragments_mark_used(struct fragments *fr, const char *pattern);
void expansion_free(struct expansion *x);

/* Compiles PATTERN as X expands it; an error offset is one into PATTERN
 * (or 0, with " (in a fragment)" added to ERR, when it lies in one). */
struct rx *expansion_compile(const char *pattern, const struct expansion *x, int caseless, char *err, size_t errsize,
                             size_t *err_off);

#endif
