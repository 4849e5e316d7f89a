/* Which language the human text comes in: from --lang, or from the
 * locale variables as GNU gettext reads them.  Returns static strings
 * ("en", "zh-Hans"); nothing to free. */
#ifndef OOMDIAG_LANG_H
#define OOMDIAG_LANG_H

/* A language tag or locale name (zh_CN.UTF-8, zh-Hans, zh_SG, en_US) as
 * the language oomdiag speaks for it: "zh-Hans" or "en". */
const char *lang_of_locale(const char *name);

/* The language for OPTION (the --lang value, or NULL) and the
 * environment read through GET (getenv): LC_ALL, then LC_MESSAGES, then
 * LANG name the locale; a C or POSIX locale is English; otherwise
 * LANGUAGE, a colon-separated list, wins where it names a language
 * oomdiag speaks (its first such entry). */
const char *lang_choose(const char *option, const char *(*get)(const char *));

#endif
