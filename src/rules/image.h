/* The embedded rules as static data: what a diagnosis run would load from
 * the lean embedded copies (no samples), resolved at build time by
 * tools/rules_image/rules_image.c running the real loader, so that
 * start-up parses no JSON, condition or pattern.  image_add turns it into
 * ruleset items: signatures borrow the image's strings, literals,
 * expansions and compiled patterns (sig->image), causes its parsed
 * conditions (cause->image) and its texts (cause->borrowed; a
 * translation is an overlay beside them, words.h).  Static data; nothing
 * to free. */
#ifndef OOMDIAG_IMAGE_H
#define OOMDIAG_IMAGE_H

#include <stddef.h>

#include "prefilter.h"
#include "ruleset.h"

/* Origins (AT) are JSON pointers into builtin_rules[FILE].lean, the text
 * the generator loaded, so messages locate them as before. */
struct image_sig {
    const char *id, *cause_id, *framework, *pattern;
    const char *const *literals;
    size_t literal_count;
    const char *at, *pattern_at;
    const unsigned char *code; /* the pattern compiled (rx_serialize), or NULL */
    size_t code_len;
    const char *expanded; /* the pattern with the fragments it calls (fragments.h), or NULL */
    size_t verbs, prefix;
    unsigned hidden;
    unsigned short file;
    unsigned flags; /* its true/false keys (sig_flag_bits) */
    unsigned char role, confidence, literal_derived;
    const char *series, *series_unit, *boundary;
};

struct image_summary {
    const char *when, *text, *at;
    const struct expr *when_x; /* WHEN parsed (expr_node.h), or NULL */
};

struct image_step {
    const char *id, *action, *detail, *when, *first_when;
    const struct expr *when_x, *first_when_x;
};

struct image_variant {
    int confidence; /* struct variant's */
    int decision;   /* struct variant's */
    const char *id, *title, *when;
    const struct expr *when_x;
    const char *const *first;
    size_t first_count;
    const struct image_summary *summaries;
    size_t summary_count;
};

struct image_cause {
    const char *id, *title, *explanation, *at;
    unsigned short file;
    const struct image_summary *summaries;
    size_t summary_count;
    const struct image_step *steps;
    size_t step_count;
    const struct image_variant *variants;
    size_t variant_count;
    const char *const *follows;
    size_t follows_count;
    int decision; /* struct cause's */
};

struct image_rank {
    const char *id, *pattern, *at;
    unsigned short file;
    int from_path;
    const unsigned char *code; /* the pattern compiled (rx_serialize), or NULL */
    size_t code_len;
};

struct image_prefix {
    const char *id, *pattern, *at;
    unsigned short file;
    const unsigned char *code; /* the pattern compiled (rx_serialize), or NULL */
    size_t code_len;
};

struct image_dtype {
    const char *name;
    long long size;
};

struct rule_image {
    size_t file_count; /* builtin_rule_count; 0 in the generator's own stand-in */
    const char *version;
    const struct image_dtype *dtypes;
    size_t dtype_count;
    const struct image_cause *causes;
    size_t cause_count;
    const struct image_sig *sigs;
    size_t sig_count;
    const struct image_rank *ranks;
    size_t rank_count;
    const struct image_prefix *prefixes;
    size_t prefix_count;
    const struct prefilter_data *prefilter; /* the signatures' literals' (prefilter.h), or NULL */
    /* The shared lexicon's fragments (fragments.h), for -r files loaded
     * after the image: names and texts, LEXICON_COUNT of each. */
    const char *const *lexicon_names, *const *lexicon_texts;
    size_t lexicon_count;
    /* Every line prefix's pattern as the matcher's one alternation
     * ("(?:P1)|(?:P2)...", matcher.c) and it compiled (rx_serialize), so
     * that a run does not compile it; NULL when there are no prefixes. */
    const char *prefix_alt;
    const unsigned char *prefix_alt_code;
    size_t prefix_alt_code_len;
};

/* The build's image (builtin_image.c, generated). */
extern const struct rule_image builtin_image;

/* Adds IM's items to RS, as rulefile_load of every lean embedded file with
 * {.builtin = 1} would.  0, or -1 when out of memory (reported). */
int image_add(struct od_ruleset *rs, const struct rule_image *im);

#endif
