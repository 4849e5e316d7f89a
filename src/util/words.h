/* The renderers' own words (headline, "ROOT CAUSE", "evidence", ...) in
 * one language: a table of templates indexed by enum od_word, English
 * built in, other languages filled from a translation file's "ui" object.
 * A table owns its strings; words_free releases them.  Templates use
 * positional placeholders: "{0}" is argument 0, "{1|line|lines}" picks
 * the singular when argument 1 is "1" and the plural otherwise.
 * Beside them, the rules' texts in that language (cause titles,
 * explanations, summaries, variants' titles, remediation steps): a
 * read-only overlay keyed by the address of the English text's field in
 * the finished rule set (&cause->title, &step->detail, &summary->text),
 * so that the rules never change; English is the fallback (words_text). */
#ifndef OOMDIAG_WORDS_H
#define OOMDIAG_WORDS_H

#include <stddef.h>
#include <stdio.h>

enum od_word {
    W_ROOT_CAUSE,
    W_CONSEQUENCE,
    W_CONFIDENCE,
    W_CONF_HIGH,
    W_CONF_MEDIUM,
    W_CONF_LOW,
    W_FOLLOWS_FROM,
    W_LAST_STEP,
    W_MEMORY_SERIES,
    W_EVIDENCE,
    W_MATCHING_LINES,
    W_WHAT_TO_DO,
    W_MORE_STEPS,
    W_TRACE,
    W_NOTHING_FOUND,
    W_JOB_HEADLINE,
    W_ON_RANKS,
    W_N_INPUTS,
    W_EXPLAIN_VARIANTS,
    W_EXPLAIN_WHEN,
    W_EXPLAIN_OTHERWISE,
    W_EXPLAIN_PUTS_FIRST,
    W_EXPLAIN_REMEDIATION,
    W_EXPLAIN_ONLY_WHEN,
    W_EXPLAIN_MOVED_FIRST,
    W_EXPLAIN_SIGNATURES,
    W_RECOVERED,
    W_RECOVERED_NOTE,
    W_JOB_HEADLINE_RECOVERED,
    W_INPUT_NOT_READ,
    W_INPUT_NOTHING,
    W_INPUT_PARTIAL,
    W_LAST_ERROR,
    W_CONCISE_MORE,
    W_COND_KNOWN,
    W_COND_UNKNOWN,
    W_COND_AND,
    W_COND_OR,
    W_COND_NOT,
    W_COND_EQ,
    W_COND_NE,
    W_COND_GE,
    W_COND_LE,
    W_COND_GT,
    W_COND_LT,
    W_NEAR_MISSES,
    W_NEAR_MISS_LINES,
    W_LIMIT_HITS,
    W_KIND_EMPTY,
    W_KIND_BINARY,
    W_KIND_EMPTY_DIRECTORY,
    W_KIND_NOT_FOUND,
    W_KIND_PERMISSION,
    W_KIND_UNREADABLE,
    W_GH_LEFT_OUT,
    W_GH_SUMMARY_HAS_ALL,
    W_GH_RUN_TEXT,
    W_RUN_NONE_STATUS,
    W_RUN_NONE_SIGNAL,
    W_LIVE_SKIPPED,
    W_TRY_FIRST,
    W_EVIDENCE_AT,
    W_FIX_THAT_FIRST,
    W_COUNT
};

/* One translated rule text: the English text's field and its translation (owned). */
struct words_rule_text {
    char *const *field;
    char *text;
    size_t seq; /* the order it was added in: a later one goes over an earlier one */
};

struct od_words {
    char *lang;          /* "en", "zh-Hans", ... */
    char *text[W_COUNT]; /* NULL: the English word */

    /* The rules' texts in the language, sorted by field once words_seal ran. */
    struct words_rule_text *rule_texts;
    size_t rule_text_count, rule_text_cap;
};

/* The key of word W in a translation file's "ui" object, and its English
 * template; NULL for an out-of-range W. */
const char *words_key(enum od_word w);
const char *words_english(enum od_word w);
/* The word of KEY, or -1. */
int words_find(const char *key);

/* W's template in WORDS (NULL: English). */
const char *words_get(const struct od_words *words, enum od_word w);

/* Writes W's template with its N arguments ARGS into OUT. */
void words_put(FILE *out, const struct od_words *words, enum od_word w, size_t n, const char *const *args);

/* The highest placeholder number TPL uses, plus one (0: none), or -1 if
 * TPL is malformed (an unclosed brace, a bad number). */
int words_arity(const char *tpl);

/* Adds TEXT (copied) as the translation of the rule text held at FIELD;
 * one added later for the same field goes over it.  0 or -1 (no memory). */
int words_add_text(struct od_words *words, char *const *field, const char *text);
/* Sorts the rule texts for words_text: after the last words_add_text. */
void words_seal(struct od_words *words);
/* The rule text held at FIELD in WORDS's language: its translation, or
 * *FIELD (English) where it has none or WORDS is NULL. */
const char *words_text(const struct od_words *words, char *const *field);

void words_free(struct od_words *words);

#endif
