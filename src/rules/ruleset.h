/* The loaded knowledge: signatures, causes, rank sources, line prefixes,
 * dtype sizes.
 * A ruleset owns what it loaded (strings, compiled conditions and
 * regexes) and od_ruleset_free releases it all; items from the builtin
 * image (image.h) borrow the image's static data instead, as their
 * `image`/`borrowed` flags say.  Pure data: load.c finds rule files,
 * rulefile.c reads each into it, ruleset.c holds, indexes and resolves it,
 * the matcher and classifier read it.  After od_ruleset_finish nothing in
 * it changes (its message sink aside): a signature's regex is compiled on
 * first use into its matcher's cache (matcher.h), the one written at load
 * (`rx`, user rule files) is only read, and a language's texts are an
 * overlay beside it (translate_apply builds it into struct od_words;
 * their readers look each text up with words_text, English the
 * fallback). */
#ifndef OOMDIAG_RULESET_H
#define OOMDIAG_RULESET_H

#include <cjson/cJSON.h>

#include "expr.h"
#include "fragments.h"
#include "msg.h"
#include "oomdiag/oomdiag.h"
#include "origin.h"
#include "regex.h"

struct prefilter;
struct sig;

struct sample {
    char *line;
    cJSON *fields; /* expected fields, or NULL; owned */
    struct origin at;
};

/* A signature's keys in a rule file, in the order --check-rules lists
 * them: OWN(key) for one the loader reads with code of its own,
 * FLAG(name) for a true/false key that is the `int name` member of struct
 * sig.  A flag's row and its member are all the C a new flag needs: the
 * loader reads it (rulefile.c), the image carries it (sig_flag_bits), and
 * the unit tests check both for every row (docs/hacking.md, "A rule
 * field"). */
/* clang-format off */
#define SIG_KEYS(OWN, FLAG) \
    OWN(id)                 \
    OWN(cause)              \
    OWN(framework)          \
    OWN(role)               \
    OWN(confidence)         \
    OWN(literal)            \
    OWN(pattern)            \
    FLAG(caseless)          \
    OWN(samples)            \
    OWN(unsampled)          \
    OWN(description)        \
    FLAG(fallback)          \
    FLAG(goes_on)           \
    OWN(series)             \
    OWN(series_unit)        \
    OWN(boundary)
/* clang-format on */

/* The FLAG rows of SIG_KEYS, in order. */
struct sig_flag {
    const char *key;
    size_t offset; /* of its int member in struct sig */
};
extern const struct sig_flag sig_flags[];
extern const size_t sig_flag_count;
/* S's flags as bits (bit I: sig_flags[I]), as the image keeps them; and back. */
unsigned sig_flag_bits(const struct sig *s);
void sig_set_flag_bits(struct sig *s, unsigned bits);

/* What only --check-rules reads of a signature, apart from its
 * definition: its examples and what its file says of them (kept only when
 * rulefile_opts.keep_samples; empty in a diagnosis run). */
struct sig_check {
    struct sample *samples; /* lines it must match */
    size_t sample_count;
    struct sample *no_match; /* lines it must not match */
    size_t no_match_count;
    cJSON *unsampled; /* "unsampled": groups no sample is known to show; owned */
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
    struct expansion expanded; /* with the fragments it calls: the image's, or the loader's under compile_now */
    int literal_derived;       /* literals[0] comes from the pattern */
    int caseless;
    int fallback;      /* a generic signature: it counts only where no specific one does (docs/rules.md) */
    int goes_on;       /* a retry or progress line that by itself shows the program went on past a failure */
    char *series;      /* a progress line's capture that holds a memory reading (memseries.h), or NULL */
    char *series_unit; /* the unit of a bare number there: B, KiB, MiB, GiB or %; NULL: bytes */
    char *boundary;    /* a progress line that marks a boundary ("evaluation", "checkpoint"), or NULL */
    /* The regex, when the loader compiled it (rulefile_opts.compile_now);
     * else NULL: the matcher compiles it on first use into its own cache
     * (sig_compile), with run counts and limits. */
    struct rx *rx;
    struct sig_check check; /* what only --check-rules reads */
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
    int decision;   /* enum od_decision, or OD_DECISION_NONE: the cause's */
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
    int decision; /* enum od_decision for a root of this cause, or OD_DECISION_NONE */
    struct origin at;
    int builtin;  /* from the embedded rules */
    int image;    /* from the builtin image (image.h): its conditions are the image's
                     static nodes, never freed */
    int borrowed; /* ... and its strings the image's too */
};

struct dtype {
    char *name;
    long long size;
};

/* A translation of the rules' texts from a rule file, kept at load (or,
 * for --check-rules alone, from an embedded translation file):
 * translate.h reads them into a language's words; the ruleset keeps and
 * frees them. */
struct translation {
    const char *file; /* interned in the ruleset */
    char *lang;       /* owned */
    cJSON *body;      /* owned */
    int builtin;
};

/* A declared evidence field (fielddecl.h reads them; the ruleset keeps
 * and frees them). */
enum field_kind { FIELD_KIND_BYTES, FIELD_KIND_INTEGER, FIELD_KIND_STRING, FIELD_KIND_SHAPE, FIELD_KIND_DTYPE };
struct field_decl {
    char *name; /* owned */
    enum field_kind kind;
    struct origin at;
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
    struct translation *translations;             /* translate.c fills them */
    size_t translation_count, translation_cap;
    struct fragments **fragment_sets; /* one per file that has "fragments" or sees a lexicon */
    struct fragments *lexicon;        /* the shared fragments ("lexicon": true files'), one of them; or NULL */
    size_t fragment_set_count, fragment_set_cap;
    struct field_decl *field_decls; /* fielddecl.c fills them */
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
/* Compiles S's pattern with the fragments it calls (or reads the image's
 * compiled form) into a new regex the caller owns; NULL after reporting
 * why to SINK (the pattern and a caret).  S does not change: the cache of
 * compiled signatures is the matcher's. */
struct rx *sig_compile(const struct sig *s, struct msg_sink *sink);

void sig_free(struct sig *s);
void cause_free(struct cause *c);
void rank_source_free(struct rank_source *r);
void line_prefix_free(struct line_prefix *p);

#endif
