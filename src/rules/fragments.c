#include "fragments.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { FRAGMENT_NAME_MAX = 32, VISIBLE_MAX = FRAGMENTS_MAX + LEXICON_MAX };

typedef void (*paren_fn)(void *ctx, const char *at);

/* Calls FN at each '(' of P that opens a group: not escaped, not inside a
 * character class or \Q...\E. */
static void each_paren(const char *p, paren_fn fn, void *ctx)
{
    int in_class = 0;
    for (size_t i = 0; p[i]; i++) {
        if (p[i] == '\\' && p[i + 1] == 'Q') {
            const char *e = strstr(p + i + 2, "\\E");
            if (e == NULL)
                return;
            i = (size_t)(e - p) + 1;
        } else if (p[i] == '\\') {
            i += p[i + 1] != '\0';
        } else if (in_class && p[i] == '[' && p[i + 1] == ':') {
            const char *e = strstr(p + i + 2, ":]");
            if (e == NULL)
                return;
            i = (size_t)(e - p) + 1;
        } else if (in_class) {
            in_class = p[i] != ']';
        } else if (p[i] == '[') {
            in_class = 1;
            i += p[i + 1] == '^';
            i += p[i + 1] == ']'; /* a leading ']' is a member */
        } else if (p[i] == '(') {
            fn(ctx, p + i);
        }
    }
}

/* The length of the name a subroutine call at AT, "(?&name)" or
 * "(?P>name)", calls, with *NAME set; 0 when AT is no such call. */
static size_t call_name(const char *at, const char **name)
{
    const char *s = strncmp(at, "(?&", 3) == 0 ? at + 3 : strncmp(at, "(?P>", 4) == 0 ? at + 4 : NULL;
    if (s == NULL)
        return 0;
    size_t len = 0;
    while (isalnum((unsigned char)s[len]) || s[len] == '_')
        len++;
    *name = s;
    return len > 0 && s[len] == ')' ? len : 0;
}

static struct fragment *find(struct fragments *fr, const char *name, size_t len)
{
    for (size_t i = 0; i < fr->n; i++)
        if (strlen(fr->v[i].name) == len && memcmp(fr->v[i].name, name, len) == 0)
            return &fr->v[i];
    return NULL;
}

/* The fragments FR sees are numbered: its own first (0 .. n-1), then its
 * lexicon's (n .. n+shared_n-1).  The one numbered I: */
static struct fragment *visible(struct fragments *fr, size_t i)
{
    return i < fr->n ? &fr->v[i] : &fr->shared->v[i - fr->n];
}

static size_t visible_count(const struct fragments *fr)
{
    return fr->n + (fr->shared != NULL ? fr->shared_n : 0);
}

/* The number of the fragment NAME (LEN bytes) calls in FR: its own, else
 * its lexicon's; -1 when none. */
static long resolve(struct fragments *fr, const char *name, size_t len)
{
    struct fragment *f = find(fr, name, len);
    if (f != NULL)
        return (long)(f - fr->v);
    for (size_t i = 0; fr->shared != NULL && i < fr->shared_n; i++)
        if (strlen(fr->shared->v[i].name) == len && memcmp(fr->shared->v[i].name, name, len) == 0)
            return (long)(fr->n + i);
    return -1;
}

struct marking {
    struct fragments *fr;
    unsigned char *need;
    int changed;
};

static void mark_call(void *ctx, const char *at)
{
    struct marking *m = ctx;
    const char *name;
    size_t len = call_name(at, &name);
    long k = len ? resolve(m->fr, name, len) : -1;
    if (k >= 0 && !m->need[k]) {
        m->need[k] = 1;
        m->changed = 1;
    }
}

static void note_capture(void *ctx, const char *at)
{
    int *captures = ctx;
    if (at[1] != '?' && at[1] != '*')
        *captures = 1; /* (...) */
    else if (at[1] == '?' &&
             ((at[2] == '<' && at[3] != '=' && at[3] != '!') || at[2] == '\'' || (at[2] == 'P' && at[3] == '<')))
        *captures = 1; /* (?<name>...), (?'name'...), (?P<name>...) */
}

static int valid_name(const char *s)
{
    size_t n = strlen(s);
    if (n == 0 || n > FRAGMENT_NAME_MAX || isdigit((unsigned char)s[0]))
        return 0;
    for (size_t i = 0; i < n; i++)
        if (!isalnum((unsigned char)s[i]) && s[i] != '_')
            return 0;
    return 1;
}

/* "(?(DEFINE)(?<a>...)(?<b>...))" of the fragments FR sees that are
 * marked in NEED (all of its own when NEED is NULL), with *STARTS (when
 * not NULL) set to where each of its own fragments' text begins.  NULL
 * when out of memory. */
static char *definitions(struct fragments *fr, const unsigned char *need, size_t *starts)
{
    size_t len = strlen("(?(DEFINE)") + 1, n = need != NULL ? visible_count(fr) : fr->n;
    for (size_t i = 0; i < n; i++)
        if (need == NULL || need[i])
            len += strlen(visible(fr, i)->name) + strlen(visible(fr, i)->text) + 5;
    char *out = malloc(len + 1);
    size_t at = 0;
    if (out == NULL)
        return NULL;
    at += (size_t)snprintf(out, len + 1, "(?(DEFINE)");
    for (size_t i = 0; i < n; i++) {
        if (need != NULL && !need[i])
            continue;
        at += (size_t)snprintf(out + at, len + 1 - at, "(?<%s>", visible(fr, i)->name);
        if (starts != NULL && i < fr->n)
            starts[i] = at;
        at += (size_t)snprintf(out + at, len + 1 - at, "%s)", visible(fr, i)->text);
    }
    snprintf(out + at, len + 1 - at, ")");
    return out;
}

/* Marks in NEED the fragments that those marked call, and so on. */
static void mark_closure(struct fragments *fr, unsigned char *need)
{
    struct marking m = {fr, need, 1};
    while (m.changed) {
        m.changed = 0;
        for (size_t i = 0; i < visible_count(fr); i++)
            if (need[i])
                each_paren(visible(fr, i)->text, mark_call, &m);
    }
}

/* Compiles all of FR's fragments at once; reports an error in its fragment. */
static int check_all(struct fragments *fr, part_report_fn report, void *ctx)
{
    size_t starts[FRAGMENTS_MAX] = {0}, off = 0;
    unsigned char need[VISIBLE_MAX] = {0};
    char err[256], path[FRAGMENT_NAME_MAX + 16];
    /* Its own, then the lexicon fragments they call. */
    memset(need, 1, fr->n);
    mark_closure(fr, need);
    char *all = definitions(fr, need, starts);
    if (all == NULL)
        return -1;
    struct rx *rx = rx_compile(all, 0, err, sizeof err, &off);
    rx_free(rx);
    free(all);
    if (rx != NULL)
        return 0;
    size_t k = 0;
    while (k + 1 < fr->n && starts[k + 1] <= off)
        k++;
    size_t caret = off > starts[k] ? off - starts[k] : 0, len = strlen(fr->v[k].text);
    snprintf(path, sizeof path, "/fragments/%s", fr->v[k].name);
    report(ctx, 0, path, fr->v[k].text, caret < len ? caret : len, err);
    return -1;
}

/* The pattern of fragment IT: the string itself, or the "pattern" of
 * {"pattern": "...", "comment": "where its words come from"} (other keys
 * are warned of at PATH). */
static const cJSON *fragment_value(const cJSON *it, const char *path, part_report_fn report, void *ctx)
{
    if (!cJSON_IsObject(it))
        return it;
    const cJSON *k;
    char msg[160];
    cJSON_ArrayForEach(k, it)
    {
        if (strcmp(k->string, "pattern") != 0 && strcmp(k->string, "comment") != 0 &&
            strcmp(k->string, "$comment") != 0) {
            snprintf(msg, sizeof msg, "unknown key \"%.40s\" in a fragment (allowed: pattern, comment)", k->string);
            report(ctx, 1, path, NULL, 0, msg);
        }
    }
    return cJSON_GetObjectItemCaseSensitive(it, "pattern");
}

/* Adds fragment IT (at PATH) to FR: 0, 1 when it was reported as bad,
 * -1 when out of memory. */
static int add_fragment(struct fragments *fr, const cJSON *it, const char *path, part_report_fn report, void *ctx)
{
    char msg[160];
    int captures = 0;
    const cJSON *val = fragment_value(it, path, report, ctx);
    if (!valid_name(it->string)) {
        snprintf(msg, sizeof msg,
                 "fragment name \"%.40s\" must be a letter or '_' then letters, digits or '_' (at most %d)", it->string,
                 FRAGMENT_NAME_MAX);
        report(ctx, 0, path, NULL, 0, msg);
    } else if (find(fr, it->string, strlen(it->string)) != NULL) {
        report(ctx, 0, path, NULL, 0, "duplicate fragment name");
    } else if (!cJSON_IsString(val) || val->valuestring[0] == '\0') {
        report(ctx, 0, path, NULL, 0,
               "a fragment must be a non-empty string (a PCRE2 sub-pattern), or an object with one as "
               "\"pattern\"");
    } else if (each_paren(val->valuestring, note_capture, &captures), captures) {
        report(ctx, 0, path, val->valuestring, 0,
               "a fragment must not capture (a call's captures are undone when it returns): use (?:...) "
               "inside it, and put the named group around the call");
    } else {
        fr->v[fr->n].name = strdup(it->string);
        fr->v[fr->n].text = strdup(val->valuestring);
        if (fr->v[fr->n].name == NULL || fr->v[fr->n].text == NULL) {
            free(fr->v[fr->n].name);
            free(fr->v[fr->n].text);
            return -1;
        }
        fr->n++;
        return 0;
    }
    return 1;
}

int fragments_parse(struct fragments *fr, const cJSON *obj, int check, part_report_fn report, void *ctx)
{
    const cJSON *it;
    char path[FRAGMENT_NAME_MAX + 64], msg[160];
    int bad = 0;
    if (!cJSON_IsObject(obj)) {
        report(ctx, 0, "/fragments", NULL, 0, "\"fragments\" must be an object of named sub-patterns");
        return -1;
    }
    size_t n = (size_t)cJSON_GetArraySize(obj);
    if (n > FRAGMENTS_MAX) {
        snprintf(msg, sizeof msg, "a rule file may define at most %d fragments", FRAGMENTS_MAX);
        report(ctx, 0, "/fragments", NULL, 0, msg);
        return -1;
    }
    fr->v = calloc(n ? n : 1, sizeof *fr->v);
    if (fr->v == NULL)
        return -1;
    cJSON_ArrayForEach(it, obj)
    {
        snprintf(path, sizeof path, "/fragments/%.40s", it->string);
        int rc = add_fragment(fr, it, path, report, ctx);
        if (rc < 0)
            return -1;
        bad |= rc;
    }
    if (check && fr->n > 0 && check_all(fr, report, ctx) != 0)
        bad = 1;
    return bad ? -1 : 0;
}

int fragments_share(struct fragments *lex, const struct fragments *from, part_report_fn report, void *ctx)
{
    char path[FRAGMENT_NAME_MAX + 64], msg[200];
    int bad = 0;
    if (from->n == 0)
        return 0;
    struct fragment *grown = realloc(lex->v, (lex->n + from->n) * sizeof *lex->v);
    if (grown == NULL)
        return -1;
    lex->v = grown;
    for (size_t i = 0; i < from->n; i++) {
        const struct fragment *f = &from->v[i];
        struct fragment *had = find(lex, f->name, strlen(f->name));
        snprintf(path, sizeof path, "/fragments/%s", f->name);
        if (had != NULL && strcmp(had->text, f->text) != 0) {
            snprintf(msg, sizeof msg,
                     "the lexicon defines \"%s\" already, as another sub-pattern (a shared name means one thing)",
                     f->name);
            report(ctx, 0, path, NULL, 0, msg);
            bad = 1;
        } else if (had == NULL && lex->n >= LEXICON_MAX) {
            snprintf(msg, sizeof msg, "the lexicon may hold at most %d fragments", LEXICON_MAX);
            report(ctx, 0, path, NULL, 0, msg);
            return -1;
        } else if (had == NULL) {
            lex->v[lex->n] = (struct fragment){strdup(f->name), strdup(f->text), 0};
            if (lex->v[lex->n].name == NULL || lex->v[lex->n].text == NULL) {
                free(lex->v[lex->n].name);
                free(lex->v[lex->n].text);
                return -1;
            }
            lex->n++;
        }
    }
    return bad ? -1 : 0;
}

const struct fragment *fragments_lexicon_find(const struct fragments *fr, const char *name)
{
    for (size_t i = 0; fr->shared != NULL && i < fr->shared_n; i++)
        if (strcmp(fr->shared->v[i].name, name) == 0)
            return &fr->shared->v[i];
    return NULL;
}

struct unknown_search {
    struct fragments *fr;
    const char *pattern;
    long at;
    const char *name;
    size_t len;
};

/* Does PATTERN define a group of that name itself ((?<n>, (?'n', (?P<n>)? */
static int own_group(const char *pattern, const char *name, size_t len)
{
    static const char *const opens[] = {"(?<", "(?'", "(?P<"};
    for (size_t k = 0; k < 3; k++)
        for (const char *p = strstr(pattern, opens[k]); p != NULL; p = strstr(p + 1, opens[k])) {
            const char *n = p + strlen(opens[k]);
            if (strncmp(n, name, len) == 0 && (n[len] == '>' || n[len] == '\''))
                return 1;
        }
    return 0;
}

static void note_unknown(void *ctx, const char *at)
{
    struct unknown_search *u = ctx;
    const char *name;
    size_t len = call_name(at, &name);
    if (u->at >= 0 || len == 0 || (u->fr != NULL && resolve(u->fr, name, len) >= 0) || own_group(u->pattern, name, len))
        return;
    u->at = (long)(at - u->pattern);
    u->name = name;
    u->len = len;
}

long fragments_unknown_call(const struct fragments *fr, const char *pattern, const char **name, size_t *len)
{
    struct unknown_search u = {(struct fragments *)fr, pattern, -1, NULL, 0};
    each_paren(pattern, note_unknown, &u);
    *name = u.name;
    *len = u.len;
    return u.at;
}

void fragments_free(struct fragments *fr)
{
    for (size_t i = 0; i < fr->n; i++) {
        free(fr->v[i].name);
        free(fr->v[i].text);
    }
    free(fr->v);
    fr->v = NULL;
    fr->n = 0;
}

/* Marks in NEED the fragments PATTERN calls, and those they call, and so
 * on; returns how many. */
static unsigned needed(struct fragments *fr, const char *pattern, unsigned char *need)
{
    unsigned n = 0;
    struct marking m = {fr, need, 0};
    each_paren(pattern, mark_call, &m);
    mark_closure(fr, need);
    for (size_t i = 0; i < visible_count(fr); i++)
        n += need[i] != 0;
    return n;
}

void fragments_mark_used(struct fragments *fr, const char *pattern)
{
    unsigned char need[VISIBLE_MAX] = {0};
    if (visible_count(fr) > 0 && needed(fr, pattern, need) > 0)
        for (size_t i = 0; i < visible_count(fr); i++)
            if (need[i])
                visible(fr, i)->used = 1;
}

int fragments_expand(struct fragments *fr, const char *pattern, struct expansion *x)
{
    memset(x, 0, sizeof *x);
    if (visible_count(fr) == 0)
        return 0;
    unsigned char need[VISIBLE_MAX] = {0};
    x->hidden = needed(fr, pattern, need);
    if (x->hidden == 0)
        return 0;
    /* Start-of-pattern items such as (*UTF) must stay in front. */
    while (pattern[x->verbs] == '(' && pattern[x->verbs + 1] == '*' && isupper((unsigned char)pattern[x->verbs + 2])) {
        const char *close = strchr(pattern + x->verbs, ')');
        if (close == NULL)
            break;
        x->verbs = (size_t)(close - pattern) + 1;
    }
    char *defs = definitions(fr, need, NULL);
    if (defs == NULL)
        return -1;
    x->prefix = strlen(defs);
    x->text = malloc(strlen(pattern) + x->prefix + 1);
    if (x->text == NULL) {
        free(defs);
        return -1;
    }
    memcpy(x->text, pattern, x->verbs);
    memcpy(x->text + x->verbs, defs, x->prefix);
    memcpy(x->text + x->verbs + x->prefix, pattern + x->verbs, strlen(pattern + x->verbs) + 1);
    free(defs);
    return 0;
}

void expansion_free(struct expansion *x)
{
    free(x->text);
    x->text = NULL;
}

/* The offset in PATTERN of its first group reference by number (\1,
 * \g1, \g{1}, (?1), (?(1)...)), or -1.  With the definitions in front,
 * such a number would name a fragment's group, not the pattern's own. */
static long numbered_reference(const char *pattern)
{
    for (const char *p = pattern; *p; p++) {
        const char *q = NULL;
        if (p[0] == '\\' && p[1] >= '1' && p[1] <= '9')
            return (long)(p - pattern);
        if (p[0] == '\\' && p[1] == 'g')
            q = p[2] == '{' ? p + 3 : p + 2;
        else if (p[0] == '(' && p[1] == '?' && p[2] == '(')
            q = p + 3;
        else if (p[0] == '(' && p[1] == '?')
            q = p + 2;
        if (q != NULL && *q >= '1' && *q <= '9')
            return (long)(p - pattern);
        if (p[0] == '\\' && p[1] != '\0')
            p++; /* an escaped character is not the start of anything */
    }
    return -1;
}

struct rx *expansion_compile(const char *pattern, const struct expansion *x, int caseless, char *err, size_t errsize,
                             size_t *err_off)
{
    if (x == NULL || x->text == NULL)
        return rx_compile(pattern, caseless, err, errsize, err_off);
    long ref = numbered_reference(pattern);
    if (ref >= 0) {
        snprintf(err, errsize,
                 "a group referenced by number would name a fragment's group: call it by name (\\k<name>, "
                 "(?&name)) in a pattern that calls fragments");
        *err_off = (size_t)ref;
        return NULL;
    }
    struct rx *rx = rx_compile_hiding(x->text, x->hidden, caseless, err, errsize, err_off);
    if (rx == NULL && *err_off >= x->verbs + x->prefix) {
        *err_off -= x->prefix;
    } else if (rx == NULL && *err_off >= x->verbs) {
        size_t used = strlen(err);
        snprintf(err + used, errsize - used, " (in a fragment it calls)");
        *err_off = x->verbs;
    }
    return rx;
}
