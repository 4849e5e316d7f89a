/* Translations of the rules' human text (cause titles, explanations,
 * summaries, variant titles, remediation) and of the renderers' words.
 * A translation is a JSON object {"ui": {...}, "causes": {...}} for one
 * language, from a translation file ("oomdiag_lang": 1, shipped ones
 * embedded and parsed only when their language is asked for) or from a
 * rule file's "translations" member.  The ruleset owns the rule files'
 * translations (struct translation, kept at load, freed with it);
 * translate_apply reads them, and the embedded translation files, into a
 * language's words (words.h): the renderers' words and an overlay of the
 * causes' texts, which the caller owns (words_free).  The rule set does
 * not change: the texts' readers look them up (words_text). */
#ifndef OOMDIAG_TRANSLATE_H
#define OOMDIAG_TRANSLATE_H

#include <cjson/cJSON.h>

#include "ruleset.h"
#include "words.h"

/* Keeps BODY (taken over) as LANG's translation from FILE. 0 or -1. */
int translate_add(struct od_ruleset *rs, const char *file, const char *lang, cJSON *body, int builtin);

/* Parses the embedded translation files of LANG (NULL: of every
 * language) into RS's translations, for translate_check (--check-rules)
 * alone.  0 or -1 (reported). */
int translate_load_builtin(struct od_ruleset *rs, const char *lang);

/* Sets *WORDS to LANG's translations (shipped first, then the user's):
 * the renderers' words and the causes' texts (words_text) in LANG; NULL
 * for English.  RS does not change (its message sink aside).  0, or -1
 * on no memory. */
int translate_apply(struct od_ruleset *rs, const char *lang, struct od_words **words);

/* --check-rules: for every language with a translation, each English text
 * without one, each translation of nothing (an unknown cause, variant,
 * step, summary or word) and each translation whose placeholders the
 * English text lacks is a warning.  Returns the number of warnings. */
size_t translate_check(struct od_ruleset *rs);

#endif
