/* Translations of the rules' human text (cause titles, explanations,
 * summaries, variant titles, remediation) and of the renderers' words.
 * A translation is a JSON object {"ui": {...}, "causes": {...}} for one
 * language, from a translation file ("oomdiag_lang": 1, shipped ones
 * embedded and parsed only when their language is asked for) or from a
 * rule file's "translations" member.  The ruleset owns its translations
 * (struct translation, freed with it);
 * translate_apply rewrites the causes' texts in place and hands back the
 * words, which the caller owns (words_free). */
#ifndef OOMDIAG_TRANSLATE_H
#define OOMDIAG_TRANSLATE_H

#include <cjson/cJSON.h>

#include "ruleset.h"
#include "words.h"

/* Keeps BODY (taken over) as LANG's translation from FILE. 0 or -1. */
int translate_add(struct od_ruleset *rs, const char *file, const char *lang, cJSON *body, int builtin);

/* Parses the embedded translation files of LANG (NULL: of every
 * language). 0 or -1 (reported). */
int translate_load_builtin(struct od_ruleset *rs, const char *lang);

/* Rewrites the causes' texts with LANG's translations (shipped first,
 * then the user's) and sets *WORDS to the renderers' words in LANG (NULL
 * for English).  0, or -1 on no memory. */
int translate_apply(struct od_ruleset *rs, const char *lang, struct od_words **words);

/* --check-rules: for every language with a translation, each English text
 * without one, each translation of nothing (an unknown cause, variant,
 * step, summary or word) and each translation whose placeholders the
 * English text lacks is a warning.  Returns the number of warnings. */
size_t translate_check(struct od_ruleset *rs);

#endif
