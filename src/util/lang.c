#include "lang.h"

#include <string.h>

/* Does NAME start with the language part LANG (then ends, or goes on
 * with a territory, script, codeset or modifier)? */
static int has_language(const char *name, const char *lang, size_t len)
{
    return strncmp(name, lang, len) == 0 && strchr("_-.@:", name[len]) != NULL;
}

/* Is the rest of NAME after "zh" a Simplified Chinese one: a script
 * Hans, or a territory CN or SG, or nothing at all? */
static int simplified(const char *rest)
{
    if (*rest == '\0' || *rest == '.' || *rest == '@' || *rest == ':')
        return 1;
    rest++; /* the '_' or '-' */
    if (strncmp(rest, "Hans", 4) == 0 || strncmp(rest, "hans", 4) == 0)
        return 1;
    if (strncmp(rest, "Hant", 4) == 0 || strncmp(rest, "hant", 4) == 0)
        return 0;
    return strncmp(rest, "CN", 2) == 0 || strncmp(rest, "SG", 2) == 0 || strncmp(rest, "cn", 2) == 0 ||
           strncmp(rest, "sg", 2) == 0;
}

const char *lang_of_locale(const char *name)
{
    if (name != NULL && has_language(name, "zh", 2) && simplified(name + 2))
        return "zh-Hans";
    return "en";
}

/* Is LOCALE (a variable's value) "C" or "POSIX", with or without a
 * codeset (C.UTF-8)? */
static int c_locale(const char *locale)
{
    return strcmp(locale, "POSIX") == 0 || strcmp(locale, "C") == 0 || strncmp(locale, "C.", 2) == 0;
}

const char *lang_choose(const char *option, const char *(*get)(const char *))
{
    if (option != NULL)
        return lang_of_locale(option);
    static const char *const vars[] = {"LC_ALL", "LC_MESSAGES", "LANG"};
    const char *locale = NULL;
    for (size_t i = 0; i < sizeof vars / sizeof vars[0] && locale == NULL; i++) {
        const char *v = get(vars[i]);
        if (v != NULL && v[0] != '\0')
            locale = v;
    }
    if (locale == NULL || c_locale(locale))
        return "en";
    const char *list = get("LANGUAGE");
    for (const char *p = list; p != NULL && *p != '\0';) {
        const char *end = strchr(p, ':');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        char one[64];
        if (len > 0 && len < sizeof one) {
            memcpy(one, p, len);
            one[len] = '\0';
            if (strcmp(lang_of_locale(one), "en") != 0 || has_language(one, "en", 2) || strcmp(one, "en") == 0)
                return lang_of_locale(one);
        }
        p = end ? end + 1 : NULL;
    }
    return lang_of_locale(locale);
}
