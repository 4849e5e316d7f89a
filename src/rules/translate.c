#include "translate.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtin_rules.h"
#include "grow.h"

int translate_add(struct od_ruleset *rs, const char *file, const char *lang, cJSON *body, int builtin)
{
    char *copy = strdup(lang);
    struct translation *t = grow(rs->translations, &rs->translation_cap, rs->translation_count, sizeof *t, 4);
    if (copy == NULL || t == NULL) {
        free(copy);
        cJSON_Delete(body);
        msg_error(&rs->msgs, file, "out of memory");
        return -1;
    }
    rs->translations = t;
    t[rs->translation_count++] = (struct translation){file, copy, body, builtin};
    return 0;
}

int translate_load_builtin(struct od_ruleset *rs, const char *lang)
{
    int rc = 0;
    for (size_t i = 0; i < builtin_lang_count; i++) {
        const struct builtin_lang *b = &builtin_langs[i];
        if (lang != NULL && strcmp(b->lang, lang) != 0)
            continue;
        cJSON *doc = cJSON_ParseWithLength((const char *)b->data, b->len);
        const char *file = ruleset_intern_file(rs, b->name);
        if (doc == NULL || file == NULL) {
            msg_error(&rs->msgs, b->name, doc ? "out of memory" : "embedded translation file is not JSON");
            cJSON_Delete(doc);
            rc = -1;
        } else if (translate_add(rs, file, b->lang, doc, 1) != 0) {
            rc = -1;
        }
    }
    return rc;
}

/* The string member KEY of OBJ, if it has one, as the translation of the
 * text at FIELD (where the rules have one). */
static int take(struct od_words *w, char *const *field, const cJSON *obj, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!cJSON_IsString(v) || v->valuestring[0] == '\0' || *field == NULL)
        return 0;
    return words_add_text(w, field, v->valuestring);
}

static int take_summaries(struct od_words *w, const struct summary *s, size_t n, const cJSON *arr)
{
    size_t i = 0;
    const cJSON *v;
    cJSON_ArrayForEach(v, arr)
    {
        if (i < n && cJSON_IsString(v) && v->valuestring[0] != '\0' && words_add_text(w, &s[i].text, v->valuestring))
            return -1;
        i++;
    }
    return 0;
}

static int apply_cause(struct od_words *w, const struct cause *c, const cJSON *t)
{
    int rc = take(w, &c->title, t, "title") | take(w, &c->explanation, t, "explanation");
    rc |= take_summaries(w, c->summaries, c->summary_count, cJSON_GetObjectItemCaseSensitive(t, "summaries"));
    const cJSON *vars = cJSON_GetObjectItemCaseSensitive(t, "variants");
    for (size_t i = 0; i < c->variant_count; i++) {
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(vars, c->variants[i].id);
        rc |= take(w, &c->variants[i].title, v, "title");
        rc |= take_summaries(w, c->variants[i].summaries, c->variants[i].summary_count,
                             cJSON_GetObjectItemCaseSensitive(v, "summaries"));
    }
    const cJSON *steps = cJSON_GetObjectItemCaseSensitive(t, "remediation");
    for (size_t i = 0; i < c->step_count; i++) {
        const cJSON *s = c->steps[i].id ? cJSON_GetObjectItemCaseSensitive(steps, c->steps[i].id) : NULL;
        rc |= take(w, &c->steps[i].action, s, "action") | take(w, &c->steps[i].detail, s, "detail");
    }
    return rc ? -1 : 0;
}

static int apply_words(struct od_words *w, const cJSON *ui)
{
    const cJSON *v;
    cJSON_ArrayForEach(v, ui)
    {
        int k = words_find(v->string);
        if (k < 0 || !cJSON_IsString(v) || words_arity(v->valuestring) < 0 ||
            words_arity(v->valuestring) > words_arity(words_english((enum od_word)k)))
            continue; /* --check-rules says why */
        char *s = strdup(v->valuestring);
        if (s == NULL)
            return -1;
        free(w->text[k]);
        w->text[k] = s;
    }
    return 0;
}

/* One translation's causes and words into W. 0 or -1 (no memory). */
static int apply_body(const struct od_ruleset *rs, struct od_words *w, const cJSON *body)
{
    const cJSON *c;
    cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(body, "causes"))
    {
        const struct cause *cause = ruleset_cause(rs, c->string);
        if (cause != NULL && apply_cause(w, cause, c) != 0)
            return -1;
    }
    return apply_words(w, cJSON_GetObjectItemCaseSensitive(body, "ui"));
}

/* The rule files' translations into LANG that are BUILTIN (or not), in
 * the order they were loaded. */
static int apply_loaded(const struct od_ruleset *rs, struct od_words *w, const char *lang, int builtin)
{
    for (size_t i = 0; i < rs->translation_count; i++) {
        const struct translation *t = &rs->translations[i];
        if (t->builtin == builtin && strcmp(t->lang, lang) == 0 && apply_body(rs, w, t->body) != 0)
            return -1;
    }
    return 0;
}

/* The embedded translation files of LANG, parsed for this and dropped:
 * the ruleset keeps none of them.  0, -1 (no memory) or -2 (reported). */
static int apply_shipped(struct od_ruleset *rs, struct od_words *w, const char *lang)
{
    for (size_t i = 0; i < builtin_lang_count; i++) {
        const struct builtin_lang *b = &builtin_langs[i];
        if (strcmp(b->lang, lang) != 0)
            continue;
        cJSON *doc = cJSON_ParseWithLength((const char *)b->data, b->len);
        if (doc == NULL) {
            msg_error(&rs->msgs, b->name, "embedded translation file is not JSON");
            return -2;
        }
        int rc = apply_body(rs, w, doc);
        cJSON_Delete(doc);
        if (rc != 0)
            return -1;
    }
    return 0;
}

int translate_apply(struct od_ruleset *rs, const char *lang, struct od_words **words)
{
    *words = NULL;
    if (strcmp(lang, "en") == 0)
        return 0;
    struct od_words *w = calloc(1, sizeof *w);
    int rc = w == NULL || (w->lang = strdup(lang)) == NULL ? -1 : 0;
    /* shipped first (the rule files', then the translation files), the user's over them */
    if (rc == 0 && (rc = apply_loaded(rs, w, lang, 1)) == 0 && (rc = apply_shipped(rs, w, lang)) == 0)
        rc = apply_loaded(rs, w, lang, 0);
    if (rc != 0) {
        words_free(w);
        if (rc == -1)
            msg_error(&rs->msgs, NULL, "out of memory");
        return -1;
    }
    words_seal(w);
    *words = w;
    return 0;
}

/* ---- --check-rules ------------------------------------------------------ */

/* Does template TPL name placeholder NAME (LEN bytes)? */
static int names(const char *tpl, const char *name, size_t len)
{
    for (const char *p = tpl; (p = strchr(p, '{')) != NULL;) {
        if (p[1] == '{') {
            p += 2;
            continue;
        }
        const char *end = strchr(p, '}');
        if (end == NULL)
            return 0;
        if ((size_t)(end - p - 1) == len && strncmp(p + 1, name, len) == 0)
            return 1;
        p = end + 1;
    }
    return 0;
}

struct checker {
    struct od_ruleset *rs;
    const char *lang;
    size_t warnings;
};

static void MSG_PRINTF(3, 4) warn(struct checker *k, const char *file, const char *fmt, ...)
{
    char text[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    msg_warn(&k->rs->msgs, file, "%s", text);
    k->warnings++;
}

/* A warning at the JSON pointer POINTER (printf-style, one %s for the
 * language) of FILE, located where FILE is a rule file whose text a loaded
 * cause keeps; at FILE alone otherwise (a translation file). */
static void MSG_PRINTF(4, 5) warn_at(struct checker *k, const char *file, const char *pointer, const char *fmt, ...)
{
    char text[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    const struct origin *src = NULL;
    for (size_t i = 0; i < k->rs->cause_count && src == NULL && pointer != NULL; i++)
        if (k->rs->causes[i]->at.text != NULL && strcmp(k->rs->causes[i]->at.file, file) == 0)
            src = &k->rs->causes[i]->at;
    if (src != NULL) {
        struct origin o = {src->file, src->text, src->len, (char *)pointer};
        origin_report(&k->rs->msgs, OD_SEV_WARNING, &o, NULL, 0, "%s", text);
    } else {
        msg_warn(&k->rs->msgs, file, "%s", text);
    }
    k->warnings++;
}

/* Checks the translation TR of the English text EN at WHAT: every
 * placeholder of TR must be one of EN's. */
static void check_text(struct checker *k, const char *file, const char *what, const char *en, const cJSON *tr)
{
    if (tr == NULL)
        return;
    if (!cJSON_IsString(tr)) {
        warn(k, file, "%s: %s: a translation must be a string", k->lang, what);
        return;
    }
    if (en == NULL) {
        warn(k, file, "%s: %s translates a text that the rules do not have", k->lang, what);
        return;
    }
    for (const char *p = tr->valuestring; (p = strchr(p, '{')) != NULL;) {
        if (p[1] == '{') {
            p += 2;
            continue;
        }
        const char *end = strchr(p, '}');
        if (end == NULL)
            break;
        if (!names(en, p + 1, (size_t)(end - p - 1)))
            warn(k, file, "%s: %s names {%.*s}, which the English text does not", k->lang, what, (int)(end - p - 1),
                 p + 1);
        p = end + 1;
    }
}

/* The translations of LANG's member PATH... in every source: the first
 * one found (for coverage), or NULL. */
static const cJSON *find(struct checker *k, const char *cause, const char *group, const char *item, const char *member)
{
    for (size_t i = 0; i < k->rs->translation_count; i++) {
        const struct translation *t = &k->rs->translations[i];
        if (strcmp(t->lang, k->lang) != 0)
            continue;
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(t->body, "causes"), cause);
        if (group != NULL)
            v = cJSON_GetObjectItemCaseSensitive(v, group);
        if (item != NULL)
            v = cJSON_IsArray(v) ? cJSON_GetArrayItem(v, atoi(item)) : cJSON_GetObjectItemCaseSensitive(v, item);
        if (member != NULL)
            v = cJSON_GetObjectItemCaseSensitive(v, member);
        if (cJSON_IsString(v) && v->valuestring[0] != '\0')
            return v;
    }
    return NULL;
}

/* ... at the English text's own place in the cause: AT (a JSON pointer
 * under the cause's), or the cause itself where NULL. */
static void need_at(struct checker *k, const struct cause *c, const char *at, const char *what, const char *group,
                    const char *item, const char *member)
{
    char ptr[512];
    if (find(k, c->id, group, item, member) != NULL)
        return;
    snprintf(ptr, sizeof ptr, "%s%s", c->at.path ? c->at.path : "", at ? at : "");
    warn_at(k, c->at.file, c->at.path ? ptr : NULL, "cause \"%s\": %s has no %s translation", c->id, what, k->lang);
}

/* Does some source of K's language translate cause ID at all?  A user's
 * cause that none does is English-only, by choice: no warnings for it. */
static int translated(struct checker *k, const char *id)
{
    for (size_t i = 0; i < k->rs->translation_count; i++) {
        const struct translation *t = &k->rs->translations[i];
        if (strcmp(t->lang, k->lang) == 0 &&
            cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(t->body, "causes"), id) != NULL)
            return 1;
    }
    return 0;
}

static void coverage(struct checker *k, const struct cause *c)
{
    char what[256], idx[32];
    if (!c->builtin && !translated(k, c->id))
        return;
    char at[64];
    need_at(k, c, "/title", "title", "title", NULL, NULL);
    need_at(k, c, "/explanation", "explanation", "explanation", NULL, NULL);
    for (size_t i = 0; i < c->summary_count; i++) {
        snprintf(idx, sizeof idx, "%zu", i);
        snprintf(what, sizeof what, "summary %zu", i);
        snprintf(at, sizeof at, "/summaries/%zu", i);
        need_at(k, c, at, what, "summaries", idx, NULL);
    }
    for (size_t i = 0; i < c->variant_count; i++) {
        const struct variant *v = &c->variants[i];
        if (v->title != NULL) {
            snprintf(what, sizeof what, "variant \"%s\" title", v->id);
            snprintf(at, sizeof at, "/variants/%zu/title", i);
            need_at(k, c, at, what, "variants", v->id, "title");
        }
        for (size_t j = 0; j < v->summary_count; j++) {
            const cJSON *vs = NULL;
            for (size_t t = 0; t < k->rs->translation_count && vs == NULL; t++) {
                const struct translation *tr = &k->rs->translations[t];
                if (strcmp(tr->lang, k->lang) != 0)
                    continue;
                const cJSON *x = cJSON_GetObjectItemCaseSensitive(tr->body, "causes");
                x = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(x, c->id), "variants");
                x = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(x, v->id), "summaries");
                x = cJSON_GetArrayItem(x, (int)j);
                if (cJSON_IsString(x) && x->valuestring[0] != '\0')
                    vs = x;
            }
            if (vs == NULL)
                warn(k, c->at.file, "cause \"%s\": variant \"%s\" summary %zu has no %s translation", c->id, v->id, j,
                     k->lang);
        }
    }
    for (size_t i = 0; i < c->step_count; i++) {
        const struct step *s = &c->steps[i];
        if (s->id == NULL)
            continue;
        snprintf(what, sizeof what, "remediation \"%s\" action", s->id);
        snprintf(at, sizeof at, "/remediation/%zu/action", i);
        need_at(k, c, at, what, "remediation", s->id, "action");
        if (s->detail != NULL) {
            snprintf(what, sizeof what, "remediation \"%s\" detail", s->id);
            snprintf(at, sizeof at, "/remediation/%zu/detail", i);
            need_at(k, c, at, what, "remediation", s->id, "detail");
        }
    }
}

static const struct step *step_of(const struct cause *c, const char *id)
{
    for (size_t i = 0; i < c->step_count; i++)
        if (c->steps[i].id && strcmp(c->steps[i].id, id) == 0)
            return &c->steps[i];
    return NULL;
}

static const struct variant *variant_of(const struct cause *c, const char *id)
{
    for (size_t i = 0; i < c->variant_count; i++)
        if (strcmp(c->variants[i].id, id) == 0)
            return &c->variants[i];
    return NULL;
}

static void check_summaries(struct checker *k, const char *file, const char *where, const struct summary *s, size_t n,
                            const cJSON *arr)
{
    char what[300];
    size_t i = 0;
    const cJSON *v;
    cJSON_ArrayForEach(v, arr)
    {
        snprintf(what, sizeof what, "%s summary %zu", where, i);
        check_text(k, file, what, i < n ? s[i].text : NULL, v);
        i++;
    }
}

/* Does the translated item WHAT of KIND exist in the rules (FOUND)?  If
 * not, that is a warning. */
static int known(struct checker *k, const char *file, const char *what, const void *found, const char *kind)
{
    if (found == NULL)
        warn(k, file, "%s: %s: no such %s", k->lang, what, kind);
    return found != NULL;
}

/* The translated variants of CAUSE (C's "variants"). */
static void check_variants(struct checker *k, const char *file, const struct cause *cause, const cJSON *c)
{
    char what[300];
    const cJSON *v;
    cJSON_ArrayForEach(v, cJSON_GetObjectItemCaseSensitive(c, "variants"))
    {
        const struct variant *var = variant_of(cause, v->string);
        snprintf(what, sizeof what, "cause \"%s\" variant \"%s\"", cause->id, v->string);
        if (!known(k, file, what, var, "variant"))
            continue;
        check_text(k, file, what, var->title, cJSON_GetObjectItemCaseSensitive(v, "title"));
        check_summaries(k, file, what, var->summaries, var->summary_count,
                        cJSON_GetObjectItemCaseSensitive(v, "summaries"));
    }
}

/* The translated remediation steps of CAUSE (C's "remediation"). */
static void check_steps(struct checker *k, const char *file, const struct cause *cause, const cJSON *c)
{
    char what[300], sub[340];
    const cJSON *s;
    cJSON_ArrayForEach(s, cJSON_GetObjectItemCaseSensitive(c, "remediation"))
    {
        const struct step *st = step_of(cause, s->string);
        snprintf(what, sizeof what, "cause \"%s\" remediation \"%s\"", cause->id, s->string);
        if (st == NULL) { /* a typo: at its own line, where the rule file holds the translation */
            char ptr[512];
            snprintf(ptr, sizeof ptr, "/translations/%s/causes/%s/remediation/%s", k->lang, cause->id, s->string);
            warn_at(k, file, ptr, "%s: %s: no such step", k->lang, what);
            continue;
        }
        snprintf(sub, sizeof sub, "%s action", what);
        check_text(k, file, sub, st->action, cJSON_GetObjectItemCaseSensitive(s, "action"));
        snprintf(sub, sizeof sub, "%s detail", what);
        check_text(k, file, sub, st->detail, cJSON_GetObjectItemCaseSensitive(s, "detail"));
    }
}

/* Orphans and placeholders of one translation source. */
static void check_source(struct checker *k, const struct translation *t)
{
    char what[300];
    const cJSON *c;
    cJSON_ArrayForEach(c, cJSON_GetObjectItemCaseSensitive(t->body, "causes"))
    {
        const struct cause *cause = ruleset_cause(k->rs, c->string);
        if (cause == NULL) {
            warn(k, t->file, "%s: translation of cause \"%s\", which no loaded rule file defines", k->lang, c->string);
            continue;
        }
        snprintf(what, sizeof what, "cause \"%s\" title", cause->id);
        check_text(k, t->file, what, cause->title, cJSON_GetObjectItemCaseSensitive(c, "title"));
        snprintf(what, sizeof what, "cause \"%s\" explanation", cause->id);
        check_text(k, t->file, what, cause->explanation, cJSON_GetObjectItemCaseSensitive(c, "explanation"));
        snprintf(what, sizeof what, "cause \"%s\"", cause->id);
        check_summaries(k, t->file, what, cause->summaries, cause->summary_count,
                        cJSON_GetObjectItemCaseSensitive(c, "summaries"));
        check_variants(k, t->file, cause, c);
        check_steps(k, t->file, cause, c);
    }
    const cJSON *u;
    cJSON_ArrayForEach(u, cJSON_GetObjectItemCaseSensitive(t->body, "ui"))
    {
        if (u->string == NULL) { /* "ui": [...]: found by the fuzzer (fuzz_translate) */
            warn(k, t->file, "%s: \"ui\" must be an object of words", k->lang);
            break;
        }
        int w = words_find(u->string);
        if (w < 0)
            warn(k, t->file, "%s: ui word \"%s\" is not one oomdiag prints", k->lang, u->string);
        else if (!cJSON_IsString(u) || words_arity(u->valuestring) < 0)
            warn(k, t->file, "%s: ui word \"%s\" is not a valid template", k->lang, u->string);
        else if (words_arity(u->valuestring) > words_arity(words_english((enum od_word)w)))
            warn(k, t->file, "%s: ui word \"%s\" names a placeholder that the English text (%s) does not", k->lang,
                 u->string, words_english((enum od_word)w));
    }
}

/* Is word W translated by some source of K's language? */
static int has_word(struct checker *k, int w)
{
    for (size_t i = 0; i < k->rs->translation_count; i++) {
        const struct translation *t = &k->rs->translations[i];
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(t->body, "ui"),
                                                          words_key((enum od_word)w));
        if (strcmp(t->lang, k->lang) == 0 && cJSON_IsString(v))
            return 1;
    }
    return 0;
}

size_t translate_check(struct od_ruleset *rs)
{
    struct checker k = {rs, NULL, 0};
    for (size_t i = 0; i < rs->translation_count; i++) {
        int first = 1;
        for (size_t j = 0; j < i; j++)
            first &= strcmp(rs->translations[j].lang, rs->translations[i].lang) != 0;
        if (!first)
            continue;
        k.lang = rs->translations[i].lang;
        for (size_t j = i; j < rs->translation_count; j++)
            if (strcmp(rs->translations[j].lang, k.lang) == 0 && !rs->translations[j].builtin)
                check_source(&k, &rs->translations[j]); /* the shipped ones have their own test */
        for (size_t c = 0; c < rs->cause_count; c++)
            coverage(&k, rs->causes[c]);
        int any_ui = 0;
        for (int w = 0; w < W_COUNT; w++)
            any_ui |= has_word(&k, w);
        for (int w = 0; w < W_COUNT && any_ui; w++)
            if (!has_word(&k, w))
                warn(&k, rs->translations[i].file, "%s: ui word \"%s\" (%s) has no translation", k.lang,
                     words_key((enum od_word)w), words_english((enum od_word)w));
    }
    return k.warnings;
}

int od_ruleset_translate(struct od_ruleset *rs, const char *lang, struct od_words **words)
{
    return translate_apply(rs, lang, words);
}
