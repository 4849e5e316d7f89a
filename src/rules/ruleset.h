/* The loaded knowledge: signatures, causes, rank sources, line prefixes,
 * dtype sizes.
 * A ruleset owns what it loaded (strings, compiled conditions and
 * regexes) and od_ruleset_free releases it all; items from the builtin
 * image (image.h) borrow the image's static data instead, as their
 * `image`/`borrowed` flags say.  Pure data: load.c finds rule files,
 * rulefile.c reads each into it, ruleset.c holds, indexes and resolves it,
 * the matcher and classifier read it.  After od_ruleset_finish it does not
 * change but for each signature's lazily compiled regex and its fragment
 * expansion (a cache: a ruleset is not shared between threads). */
#ifndef OOMDIAG_RULESET_H
#define OOMDIAG_RULESET_H

#include <cjson/cJSON.h>

#include "expr.h"
#include "fragments.h"
#include "msg.h"
#include "oomdiag/oomdiag.h"
#include "regex.h"

struct prefilter;
struct translation;
struct field_decl;

/* Where a rule came from, for messages: the JSON pointer of the item in
 * its file's text, turned into a line and column only when a message needs
 * one (so that loading stays one pass over each file). */
struct origin {
    const char *file; /* interned in the ruleset */
    const char *text; /* the file's text, kept by the ruleset (or static) */
    size_t len;
    char *path; /* owned */
};

/* Line and column (1-based) of O; 0, 0 if unknown. */
void origin_locate(const struct origin *o, unsigned long *line, unsigned long *col);
/* msg_report at O. */
void origin_report(struct msg_sink *sink, enum od_severity sev, const struct origin *o, const char *source,
                   size_t caret, const char *fmt, ...) MSG_PRINTF(6, 7);

struct sample {
    char *line;
    cJSON *fields; /* expected fields, or NULL; owned */
    struct origin at;
};

/* Regex runs of one signature before its pattern is JIT-compiled: a log
 * that matches a signature a few times never pays for the compilation. */
enum { SIG_JIT_AFTER = 8 };

struct sig {
    char *id;
    char *cause_id;
    const struct cause *cause; /* resolved by ruleset_finish; NULL for progress */
    char *framework;           /* may be NULL */
    enum od_role role;
    enum od_confidence confidence;
    char **literals;
    size_t literal_count;
    char *pattern;             /* as written */
    struct fragments *frags;   /* its file's, kept by the ruleset; or NULL */
    struct expansion expanded; /* with the fragments it calls, once compiled */
    int literal_derived;       /* literals[0] comes from the pattern */
    int caseless;
    int fallback; /* a generic signature: it counts only where no specific one does (docs/rules.md) */
    int goes_on; /* a retry or progress line that by itself shows the program went on past a failure */
    /* The one cache in a finished ruleset: the regex, compiled on first
     * use (or marked failed, so that it is reported once).  A ruleset is
     * not shared between threads.  Run counts and limits are a matcher's. */
    struct rx *rx;
    int compile_failed;
    struct sample *samples;
    size_t sample_count;
    struct sample *no_match;
    size_t no_match_count;
    cJSON *unsampled; /* "unsampled": groups no sample is known to show; owned */
    struct origin at, pattern_at;
    size_t index;
    int builtin;                     /* from the embedded rules */
    int image;                       /* from the builtin image (image.h): its strings, literals and origin
                                        paths are the image's static data, not freed */
    const unsigned char *image_code; /* ... and its pattern compiled at build time */
    size_t image_code_len;           /* (rx_deserialize), or NULL */
};

struct rank_source {
    char *id;
    int from_path;
    char *pattern;
    struct rx *rx;
    struct sample *samples;
    size_t sample_count;
    struct origin at;
};

/* A shape of line prefix that tools put before a program's own text (a
 * time stamp, a journal's host and process, a container's name, a quote):
 * the scan takes it off so that a signature anchored at the start of the
 * program's text still finds it.  PATTERN starts with '^' and matches the
 * prefix alone. */
struct line_prefix {
    char *id;
    char *pattern;
    struct rx *rx;
    struct sample *samples; /* lines that carry it ("fields": {"rest": ...} what is left) */
    size_t sample_count;
    struct sample *no_match; /* lines that do not start with it */
    size_t no_match_count;
    struct origin at;
};

struct summary {
    struct expr *when;
    char *text;
    char *when_text; /* for --check-rules */
    struct origin at;
};

struct step {
    char *id, *action, *detail;
    struct expr *when, *first_when;
    char *when_text, *first_when_text; /* for --trace */
};

struct variant {
    char *id, *title;
    int confidence; /* the diagnosis's confidence at most (enum od_confidence), or -1: as its evidence says */
    struct expr *when;
    char *when_text;
    char **first;
    size_t first_count;
    struct summary *summaries;
    size_t summary_count;
};

struct cause {
    char *id, *title, *explanation;
    struct summary *summaries;
    size_t summary_count;
    struct variant *variants;
    size_t variant_count;
    struct step *steps;
    size_t step_count;
    char **follows; /* ids of the causes it can be a consequence of */
    size_t follows_count;
    struct origin at;
    int builtin;  /* from the embedded rules */
    int image;    /* from the builtin image (image.h): its conditions are the image's
                     static nodes, never freed */
    int borrowed; /* ... and its strings the image's too, until cause_own_strings */
};

struct dtype {
    char *name;
    long long size;
};

/* Ids to items, for the lookups a load makes for every rule. */
struct id_index {
    const char **keys;
    void **values;
    size_t cap, count; /* cap is a power of two, or 0 */
};

struct od_ruleset {
    struct msg_sink msgs;
    struct id_index sig_ids, cause_ids;
    struct sig **sigs;
    size_t sig_count, sig_cap;
    struct cause **causes;
    size_t cause_count, cause_cap;
    struct rank_source **ranks;
    size_t rank_count, rank_cap;
    struct line_prefix **prefixes; /* in the order they are tried */
    size_t prefix_count, prefix_cap;
    struct dtype *dtypes;
    size_t dtype_count, dtype_cap;
    char **files; /* interned file names */
    size_t file_count, file_cap;
    char **texts; /* user rule files' texts, kept for origin_locate */
    size_t text_count, text_cap;
    char *version;
    int no_samples; /* od_ruleset_keep_samples(rs, 0): load.c's default for what it adds */
    /* The builtin image's line prefix alternation and its code (image.h): the matcher's, while the
     * prefixes are exactly the image's (it compares the text). */
    const char *image_prefix_alt;
    const unsigned char *image_prefix_alt_code;
    size_t image_prefix_alt_len;
    struct prefilter *prefilter;
    const struct prefilter_data *image_prefilter; /* the builtin image's (image_add): serves while the
                                                     signatures are exactly the image's */
    struct translation *translations;             /* translate.c fills and frees them */
    size_t translation_count, translation_cap;
    struct fragments **fragment_sets; /* one per file that has "fragments" or sees a lexicon */
    struct fragments *lexicon;        /* the shared fragments ("lexicon": true files'), one of them; or NULL */
    size_t fragment_set_count, fragment_set_cap;
    struct field_decl *field_decls; /* fielddecl.c fills and frees them */
    size_t field_decl_count, field_decl_cap;
    int finished;
};

/* Interns NAME; the copy lives as long as the ruleset. NULL on no memory. */
const char *ruleset_intern_file(struct od_ruleset *rs, const char *name);
/* Takes TEXT (malloc'd) over until the ruleset is freed. 0 or -1. */
int ruleset_keep_text(struct od_ruleset *rs, char *text);
/* Room for SIGS more signatures and CAUSES more causes, so that adding
 * them reallocates and rehashes nothing.  0 or -1 (then adding still works). */
int ruleset_reserve(struct od_ruleset *rs, size_t sigs, size_t causes);
int ruleset_add_sig(struct od_ruleset *rs, struct sig *s);
int ruleset_add_cause(struct od_ruleset *rs, struct cause *c);
int ruleset_add_rank(struct od_ruleset *rs, struct rank_source *r);
int ruleset_add_prefix(struct od_ruleset *rs, struct line_prefix *p);
int ruleset_add_dtype(struct od_ruleset *rs, const char *name, long long size);
/* A new empty set of fragments that the ruleset owns; NULL on no memory. */
struct fragments *ruleset_add_fragments(struct od_ruleset *rs);

const struct cause *ruleset_cause(const struct od_ruleset *rs, const char *id);
const struct sig *ruleset_sig(const struct od_ruleset *rs, const char *id);
long long ruleset_dtype_size(const struct od_ruleset *rs, const char *name);
/* Compiles S's regex if it is not yet; 0, or -1 (reported to SINK with
 * the pattern and a caret, once: later calls return -1 quietly). */
int sig_compile(struct sig *s, struct msg_sink *sink);

/* Makes every string of C its own copy (before rewriting one of a cause
 * from the builtin image).  0, or -1 when out of memory. */
int cause_own_strings(struct cause *c);

void sig_free(struct sig *s);
void cause_free(struct cause *c);
void rank_source_free(struct rank_source *r);
void line_prefix_free(struct line_prefix *p);

#endif
