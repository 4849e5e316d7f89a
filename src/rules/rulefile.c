#include "rulefile.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "fielddecl.h"
#include "fieldnames.h"
#include "fragments.h"
#include "jsonloc.h"
#include "template.h"
#include "translate.h"

enum { PATH_MAX_LEN = 256 };

struct loader {
    struct od_ruleset *rs;
    const struct rulefile_opts *opts;
    const char *file;
    const char *text;
    size_t len;
    struct jsonloc loc; /* built on the first message: loading needs none */
    int loc_ready;
    int errors;
    struct fragments *frags; /* this file's (fragments.h), or NULL; the ruleset keeps them */
    int lexicon;             /* "lexicon": true: its fragments are shared */
};

/* The line map, built when the first message needs it. */
static const struct jsonloc *locate(struct loader *L)
{
    if (!L->loc_ready && jsonloc_init(&L->loc, L->text, L->len) == 0)
        L->loc_ready = 1;
    if (!L->loc_ready) { /* out of memory: a one-line map still works */
        L->loc.text = L->text;
        L->loc.len = L->len;
        L->loc.line_count = 1;
        static size_t zero = 0;
        L->loc.line_starts = &zero;
    }
    return &L->loc;
}

static void vreport_at(struct loader *L, enum od_severity sev, const char *path, const char *source, size_t caret,
                       const char *fmt, va_list ap)
{
    char text[768], line_text[512];
    unsigned long line = 0, col = 0;
    vsnprintf(text, sizeof text, fmt, ap);
    const struct jsonloc *loc = locate(L);
    size_t off = jsonloc_find(loc, path);
    jsonloc_position(loc, off, &line, &col);
    if (source == NULL) {
        jsonloc_line_text(loc, line, line_text, sizeof line_text);
        source = line_text;
        caret = col - 1;
    }
    if (sev == OD_SEV_ERROR)
        L->errors++;
    msg_report(&L->rs->msgs, sev, L->file, line, col, source, caret, "%s: %s", path[0] ? path : "/", text);
}

static void MSG_PRINTF(3, 4) error_at(struct loader *L, const char *path, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vreport_at(L, OD_SEV_ERROR, path, NULL, 0, fmt, ap);
    va_end(ap);
}

static void MSG_PRINTF(5, 6)
    error_caret(struct loader *L, const char *path, const char *source, size_t caret, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vreport_at(L, OD_SEV_ERROR, path, source, caret, fmt, ap);
    va_end(ap);
}

static void MSG_PRINTF(3, 4) warn_at(struct loader *L, const char *path, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vreport_at(L, OD_SEV_WARNING, path, NULL, 0, fmt, ap);
    va_end(ap);
}

static struct origin origin_of(struct loader *L, const char *path)
{
    struct origin o = {L->file, L->text, L->len, strdup(path)};
    return o;
}

/* "FILE:LINE:COL" of O, for messages that name another place. */
static const char *where(const struct origin *o, char *buf, size_t size)
{
    unsigned long line, col;
    origin_locate(o, &line, &col);
    snprintf(buf, size, "%s:%lu:%lu", o->file, line, col);
    return buf;
}

/* BUF (PATH_MAX_LEN bytes) := PATH/KEY, cut to fit; returns BUF.  The JSON
 * pointer of a member, for messages and origins. */
static char *jpath(char *buf, const char *path, const char *key)
{
    size_t n = strlen(path), k = strlen(key);
    if (n > PATH_MAX_LEN - 1)
        n = PATH_MAX_LEN - 1;
    memcpy(buf, path, n);
    if (n < PATH_MAX_LEN - 1)
        buf[n++] = '/';
    if (k > PATH_MAX_LEN - 1 - n)
        k = PATH_MAX_LEN - 1 - n;
    memcpy(buf + n, key, k);
    buf[n + k] = '\0';
    return buf;
}

/* BUF := PATH/KEY/I (or PATH/I when KEY is NULL): an array element's. */
static char *jpath_index(char *buf, const char *path, const char *key, size_t i)
{
    char num[24], *p = num + sizeof num;
    *--p = '\0';
    do
        *--p = (char)('0' + i % 10);
    while ((i /= 10) != 0);
    if (key == NULL)
        return jpath(buf, path, p);
    char tmp[PATH_MAX_LEN];
    return jpath(buf, jpath(tmp, path, key), p);
}

/* Warns about keys of OBJ not in ALLOWED (NULL-terminated), listing them. */
static void check_keys(struct loader *L, const cJSON *obj, const char *path, const char *const *allowed)
{
    const cJSON *it;
    if (L->opts->builtin)
        return; /* the embedded rules: checked as files by the test suite */
    cJSON_ArrayForEach(it, obj)
    {
        int ok = strcmp(it->string, "comment") == 0 || strcmp(it->string, "$comment") == 0;
        for (size_t i = 0; !ok && allowed[i]; i++)
            ok = strcmp(it->string, allowed[i]) == 0;
        if (ok)
            continue;
        char list[512] = "";
        for (size_t i = 0; allowed[i]; i++) {
            strncat(list, i ? ", " : "", sizeof list - strlen(list) - 1);
            strncat(list, allowed[i], sizeof list - strlen(list) - 1);
        }
        char kpath[PATH_MAX_LEN];
        warn_at(L, jpath(kpath, path, it->string), "unknown key \"%s\" is ignored (allowed here: %s)", it->string,
                list);
    }
}

/* A string member: NULL if absent (an error if REQUIRED) or not a string. */
static const char *get_str(struct loader *L, const cJSON *obj, const char *key, const char *path, int required)
{
    char kpath[PATH_MAX_LEN];
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (v == NULL) {
        if (required)
            error_at(L, path, "missing required key \"%s\"", key);
        return NULL;
    }
    if (cJSON_IsString(v) && (!required || v->valuestring[0] != '\0'))
        return v->valuestring;
    jpath(kpath, path, key);
    if (!cJSON_IsString(v)) {
        error_at(L, kpath, "\"%s\" must be a string", key);
        return NULL;
    }
    if (required && v->valuestring[0] == '\0') {
        error_at(L, kpath, "\"%s\" must not be empty", key);
        return NULL;
    }
    return v->valuestring;
}

static char *dup_str(struct loader *L, const cJSON *obj, const char *key, const char *path, int required)
{
    const char *s = get_str(L, obj, key, path, required);
    return s ? strdup(s) : NULL;
}

static int valid_id(const char *id)
{
    if (!islower((unsigned char)id[0]) && !isdigit((unsigned char)id[0]))
        return 0;
    for (const char *p = id; *p; p++)
        if (!islower((unsigned char)*p) && !isdigit((unsigned char)*p) && *p != '-' && *p != '.' && *p != '_')
            return 0;
    return 1;
}

static char *get_id(struct loader *L, const cJSON *obj, const char *path)
{
    const char *id = get_str(L, obj, "id", path, 1);
    if (id == NULL)
        return NULL;
    if (!valid_id(id)) {
        char kpath[PATH_MAX_LEN];
        error_at(L, jpath(kpath, path, "id"),
                 "id \"%s\" must use only a-z, 0-9, '-', '.' and '_', starting with a letter or digit", id);
        return NULL;
    }
    return strdup(id);
}

static struct expr *get_cond(struct loader *L, const cJSON *obj, const char *key, const char *path)
{
    char kpath[PATH_MAX_LEN];
    const char *text = get_str(L, obj, key, path, 0);
    if (text == NULL)
        return NULL;
    const char *err = NULL;
    size_t off = 0;
    struct expr *e = expr_parse(text, &err, &off);
    if (e == NULL) {
        error_caret(L, jpath(kpath, path, key), text, off, "bad condition: %s", err);
    }
    return e;
}

static char *get_template(struct loader *L, const cJSON *obj, const char *key, const char *path, int required)
{
    const char *text = get_str(L, obj, key, path, required);
    size_t off = 0;
    if (text == NULL)
        return NULL;
    if (template_check(text, &off) != 0) {
        char kpath[PATH_MAX_LEN];
        error_caret(L, jpath(kpath, path, key), text, off, "bad placeholder: write {name}, or {{ and }} for braces");
        return NULL;
    }
    return strdup(text);
}

/* An array member (or NULL if absent; an error if not an array). */
static const cJSON *get_array(struct loader *L, const cJSON *obj, const char *key, const char *path)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (v != NULL && !cJSON_IsArray(v)) {
        char kpath[PATH_MAX_LEN];
        error_at(L, jpath(kpath, path, key), "\"%s\" must be an array", key);
        return NULL;
    }
    return v;
}

static int is_object(struct loader *L, const cJSON *v, const char *path)
{
    if (cJSON_IsObject(v))
        return 1;
    error_at(L, path, "expected an object");
    return 0;
}

/* The number of elements of OBJ's array KEY: 0 if absent or not an array. */
static size_t array_len(const cJSON *obj, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    return cJSON_IsArray(v) ? (size_t)cJSON_GetArraySize(v) : 0;
}

typedef void (*object_fn)(struct loader *L, const cJSON *item, const char *path, void *ctx);

/* Calls FN(L, ITEM, PATH/KEY/I, CTX) for each element of OBJ's array KEY
 * that is an object, reporting those that are not (and KEY if it is not
 * an array).  At most array_len(OBJ, KEY) calls. */
static void each_object(struct loader *L, const cJSON *obj, const char *key, const char *path, object_fn fn, void *ctx)
{
    const cJSON *arr = get_array(L, obj, key, path);
    const cJSON *it;
    size_t i = 0;
    if (arr == NULL)
        return;
    cJSON_ArrayForEach(it, arr)
    {
        char ipath[PATH_MAX_LEN];
        if (is_object(L, it, jpath_index(ipath, path, key, i++)))
            fn(L, it, ipath, ctx);
    }
}

/* ---- signatures ------------------------------------------------------------ */

static int parse_enum(struct loader *L, const cJSON *obj, const char *key, const char *path, const char *const *names,
                      int dflt)
{
    const char *v = get_str(L, obj, key, path, 0);
    if (v == NULL)
        return dflt;
    for (int i = 0; names[i]; i++)
        if (strcmp(v, names[i]) == 0)
            return i;
    char kpath[PATH_MAX_LEN], list[256] = "";
    for (int i = 0; names[i]; i++) {
        strncat(list, i ? ", " : "", sizeof list - strlen(list) - 1);
        strncat(list, names[i], sizeof list - strlen(list) - 1);
    }
    error_at(L, jpath(kpath, path, key), "\"%s\" is not a valid %s (use one of: %s)", v, key, list);
    return dflt;
}

static int parse_samples(struct loader *L, const cJSON *arr, const char *path, struct sample **out, size_t *count,
                         int allow_fields)
{
    size_t n = (size_t)cJSON_GetArraySize(arr), i = 0;
    const cJSON *it;
    *out = calloc(n ? n : 1, sizeof **out);
    *count = 0;
    if (*out == NULL)
        return -1;
    cJSON_ArrayForEach(it, arr)
    {
        char ipath[PATH_MAX_LEN];
        jpath_index(ipath, path, NULL, i++);
        struct sample *s = &(*out)[*count];
        if (cJSON_IsString(it)) {
            s->line = strdup(it->valuestring);
        } else if (allow_fields && cJSON_IsObject(it)) {
            static const char *const keys[] = {"line", "fields", NULL};
            check_keys(L, it, ipath, keys);
            s->line = dup_str(L, it, "line", ipath, 1);
            const cJSON *f = cJSON_GetObjectItemCaseSensitive(it, "fields");
            if (f != NULL && !cJSON_IsObject(f)) {
                char fpath[PATH_MAX_LEN];
                error_at(L, jpath(fpath, ipath, "fields"), "\"fields\" must be an object of expected field values");
            } else if (f != NULL) {
                s->fields = cJSON_Duplicate(f, 1);
            }
        } else {
            error_at(L, ipath,
                     allow_fields ? "a sample must be a string or {\"line\": ..., \"fields\": {...}}"
                                  : "a sample must be a string");
            continue;
        }
        if (s->line == NULL) { /* the slot is reused: drop what it got */
            cJSON_Delete(s->fields);
            s->fields = NULL;
            continue;
        }
        s->at = origin_of(L, ipath);
        (*count)++;
    }
    return 0;
}

char *rulefile_derive_literal(const char *pat)
{
    char buf[128];
    size_t n = 0, i = 0;
    int depth = 0, in_class = 0;
    for (size_t k = 0; pat[k]; k++) { /* a top-level alternation has no common prefix */
        if (pat[k] == '\\' && pat[k + 1]) {
            k++;
            continue;
        }
        if (in_class) {
            if (pat[k] == ']')
                in_class = 0;
        } else if (pat[k] == '[') {
            in_class = 1;
        } else if (pat[k] == '(') {
            depth++;
        } else if (pat[k] == ')') {
            depth--;
        } else if (pat[k] == '|' && depth == 0) {
            return NULL;
        }
    }
    if (pat[0] == '^')
        i = 1;
    while (pat[i] && n + 1 < sizeof buf) {
        char c;
        size_t adv;
        if (pat[i] == '\\') {
            if (pat[i + 1] == '\0' || isalnum((unsigned char)pat[i + 1]))
                break;
            c = pat[i + 1];
            adv = 2;
        } else if (strchr("()[]{}|.*+?^$", pat[i])) {
            break;
        } else {
            c = pat[i];
            adv = 1;
        }
        char next = pat[i + adv];
        if (next == '?' || next == '*' || next == '{')
            break;
        buf[n++] = c;
        i += adv;
        if (next == '+')
            break;
    }
    buf[n] = '\0';
    return n >= 3 ? strdup(buf) : NULL;
}

/* S's "literal": a string, a non-empty array of strings, or (absent) the
 * pattern's leading plain text. */
static void parse_literals(struct loader *L, const cJSON *obj, const char *path, struct sig *s)
{
    char kpath[PATH_MAX_LEN];
    const cJSON *lit = cJSON_GetObjectItemCaseSensitive(obj, "literal");
    jpath(kpath, path, "literal");
    if (cJSON_IsString(lit)) {
        s->literals = calloc(1, sizeof *s->literals);
        if (s->literals && (s->literals[0] = strdup(lit->valuestring)) != NULL)
            s->literal_count = 1;
    } else if (cJSON_IsArray(lit) && cJSON_GetArraySize(lit) > 0) {
        const cJSON *it;
        s->literals = calloc((size_t)cJSON_GetArraySize(lit), sizeof *s->literals);
        cJSON_ArrayForEach(it, lit)
        {
            if (!cJSON_IsString(it)) {
                error_at(L, kpath, "\"literal\" must be a string or an array of strings");
                break;
            }
            if (s->literals)
                s->literals[s->literal_count++] = strdup(it->valuestring);
        }
    } else if (lit != NULL) {
        error_at(L, kpath, "\"literal\" must be a string or a non-empty array of strings");
    } else if (s->pattern != NULL) {
        char *d = rulefile_derive_literal(s->pattern);
        s->literal_derived = 1;
        if (d == NULL) {
            error_at(L, path,
                     "no literal can be derived from the pattern (it starts with a group, class or "
                     "alternation): add \"literal\", text every matching line contains");
        } else if ((s->literals = calloc(1, sizeof *s->literals)) != NULL) {
            s->literals[0] = d;
            s->literal_count = 1;
        } else {
            free(d);
        }
    }
    for (size_t i = 0; i < s->literal_count; i++)
        if (s->literals[i] == NULL || strlen(s->literals[i]) < 2)
            error_at(L, kpath, "each literal must be at least 2 characters long");
}

/* S's "samples": {"match": [...], "no_match": [...]}, required (but for
 * the lean embedded copy, which has none), kept only with keep_samples. */
static void parse_sig_samples(struct loader *L, const cJSON *obj, const char *path, struct sig *s)
{
    static const char *const keys[] = {"match", "no_match", NULL};
    char kpath[PATH_MAX_LEN], spath[PATH_MAX_LEN];
    const cJSON *samples = cJSON_GetObjectItemCaseSensitive(obj, "samples");
    jpath(kpath, path, "samples");
    if (samples == NULL && L->opts->builtin && !L->opts->keep_samples)
        return; /* the lean embedded copy: its samples are checked in the full one */
    if (samples == NULL) {
        error_at(L, path,
                 "missing required key \"samples\": add {\"match\": [a real log line this signature "
                 "must match]}");
        return;
    }
    if (!is_object(L, samples, kpath))
        return;
    check_keys(L, samples, kpath, keys);
    const cJSON *m = get_array(L, samples, "match", kpath);
    if (m == NULL || cJSON_GetArraySize(m) == 0)
        error_at(L, kpath, "\"match\" must list at least one real log line the signature matches");
    else if (L->opts->keep_samples)
        parse_samples(L, m, jpath(spath, kpath, "match"), &s->check.samples, &s->check.sample_count, 1);
    const cJSON *nm = get_array(L, samples, "no_match", kpath);
    if (nm != NULL && L->opts->keep_samples)
        parse_samples(L, nm, jpath(spath, kpath, "no_match"), &s->check.no_match, &s->check.no_match_count, 0);
}

/* A call of a fragment that neither the file nor the lexicon it sees
 * defines, reported at the call (PCRE2 would say "reference to
 * non-existent subpattern" somewhere in the expansion). */
static int unknown_fragment_calls(struct loader *L, const struct sig *s, const char *kpath)
{
    const char *name = NULL;
    size_t len = 0;
    long at = s->pattern != NULL && (L->opts->compile_now || L->opts->keep_samples)
                  ? fragments_unknown_call(L->frags, s->pattern, &name, &len)
                  : -1;
    if (at >= 0)
        error_caret(L, kpath, s->pattern, (size_t)at,
                    "calls fragment \"%.*s\", which neither this file's \"fragments\" nor the lexicon defines",
                    (int)len, name);
    return at >= 0;
}

/* The signature's true/false keys (SIG_KEYS' flags). */
static void parse_sig_flags(struct loader *L, const cJSON *obj, const char *path, struct sig *s)
{
    char kpath[PATH_MAX_LEN];
    for (size_t i = 0; i < sig_flag_count; i++) {
        const char *key = sig_flags[i].key;
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
        if (v == NULL)
            continue;
        if (!cJSON_IsBool(v))
            error_at(L, jpath(kpath, path, key), "\"%s\" must be true or false", key);
        *(int *)((char *)s + sig_flags[i].offset) = cJSON_IsTrue(v);
    }
    if (s->goes_on && s->role != OD_ROLE_RETRY && s->role != OD_ROLE_PROGRESS)
        error_at(L, jpath(kpath, path, "goes_on"), "\"goes_on\" is for signatures of role \"retry\" or \"progress\"");
}

/* "series", "series_unit" and "boundary": a progress line that carries a
 * memory reading or marks a boundary (memseries.h). */
static void parse_series(struct loader *L, const cJSON *obj, const char *path, struct sig *s)
{
    static const char *const units[] = {"B", "KiB", "MiB", "GiB", "%", NULL};
    s->series = dup_str(L, obj, "series", path, 0);
    s->boundary = dup_str(L, obj, "boundary", path, 0);
    s->series_unit = dup_str(L, obj, "series_unit", path, 0);
    if (s->series_unit != NULL && parse_enum(L, obj, "series_unit", path, units, -1) < 0)
        return;
    if ((s->series || s->boundary || s->series_unit) && s->role != OD_ROLE_PROGRESS)
        error_at(L, path, "\"series\", \"series_unit\" and \"boundary\" are for signatures of role \"progress\"");
    else if (s->series_unit && !s->series)
        error_at(L, path, "\"series_unit\" needs \"series\" (the capture it is the unit of)");
}

static struct sig *parse_sig(struct loader *L, const cJSON *obj, const char *path)
{
#define SIG_KEY_NAME(key) #key,
    static const char *const keys[] = {SIG_KEYS(SIG_KEY_NAME, SIG_KEY_NAME) NULL};
#undef SIG_KEY_NAME
    char kpath[PATH_MAX_LEN];
    int errors = L->errors;
    struct sig *s = calloc(1, sizeof *s);
    if (s == NULL)
        return NULL;
    check_keys(L, obj, path, keys);
    s->at = origin_of(L, path);
    s->id = get_id(L, obj, path);
    s->cause_id = dup_str(L, obj, "cause", path, 0);
    const cJSON *fw = cJSON_GetObjectItemCaseSensitive(obj, "framework");
    if (fw != NULL && !cJSON_IsNull(fw))
        s->framework = dup_str(L, obj, "framework", path, 0);
    s->builtin = L->opts->builtin;
    s->role = (enum od_role)parse_enum(L, obj, "role", path, od_signature_role_names, OD_ROLE_ROOT);
    s->confidence = (enum od_confidence)parse_enum(L, obj, "confidence", path, od_confidence_names, OD_CONF_HIGH);
    if (s->cause_id == NULL && s->role != OD_ROLE_PROGRESS && s->role != OD_ROLE_HINT && s->role != OD_ROLE_CONTEXT &&
        s->role != OD_ROLE_ERROR)
        error_at(L, path, "missing required key \"cause\" (only hint, progress and context signatures may omit it)");
    s->pattern = dup_str(L, obj, "pattern", path, 1);
    parse_sig_flags(L, obj, path, s);
    parse_series(L, obj, path, s);
    s->pattern_at = origin_of(L, jpath(kpath, path, "pattern"));
    s->frags = L->frags; /* expanded when compiled */
    int unknown = unknown_fragment_calls(L, s, kpath);
    if (s->pattern != NULL && L->opts->compile_now && L->frags != NULL) {
        fragments_mark_used(L->frags, s->pattern);
        if (fragments_expand(L->frags, s->pattern, &s->expanded) != 0)
            error_at(L, kpath, "out of memory");
    }
    if (s->pattern != NULL && L->opts->compile_now && !unknown) {
        char err[256];
        size_t off = 0;
        s->rx = expansion_compile(s->pattern, &s->expanded, s->caseless, err, sizeof err, &off);
        if (s->rx == NULL)
            error_caret(L, kpath, s->pattern, off, "%s", err);
    }
    parse_literals(L, obj, path, s);
    parse_sig_samples(L, obj, path, s);
    const cJSON *unsampled = L->opts->keep_samples ? cJSON_GetObjectItemCaseSensitive(obj, "unsampled") : NULL;
    if (unsampled != NULL)
        s->check.unsampled = cJSON_Duplicate(unsampled, 1); /* for --check-rules (lint.c) */
    if (L->errors != errors) {
        sig_free(s);
        return NULL;
    }
    return s;
}

/* ---- causes ---------------------------------------------------------------- */

/* Where each_object's callbacks put what they parse. */
struct summaries {
    struct summary *items;
    size_t *count;
};

static void add_summary(struct loader *L, const cJSON *it, const char *ipath, void *ctx)
{
    static const char *const keys[] = {"when", "text", NULL};
    struct summaries *list = ctx;
    check_keys(L, it, ipath, keys);
    struct summary *s = &list->items[(*list->count)++];
    s->when = get_cond(L, it, "when", ipath);
    s->text = get_template(L, it, "text", ipath, 1);
    s->when_text = s->when ? dup_str(L, it, "when", ipath, 0) : NULL;
    s->at = origin_of(L, ipath);
}

static void parse_summaries(struct loader *L, const cJSON *obj, const char *path, struct summary **out, size_t *count)
{
    size_t n = array_len(obj, "summaries");
    *out = NULL;
    *count = 0;
    if (n > 0 && (*out = calloc(n, sizeof **out)) == NULL)
        return;
    struct summaries list = {*out, count};
    each_object(L, obj, "summaries", path, add_summary, &list);
}

static void add_step(struct loader *L, const cJSON *it, const char *ipath, void *ctx)
{
    static const char *const keys[] = {"id", "action", "detail", "when", "first_when", NULL};
    struct cause *c = ctx;
    check_keys(L, it, ipath, keys);
    struct step *st = &c->steps[c->step_count++];
    st->id = get_id(L, it, ipath);
    st->action = get_template(L, it, "action", ipath, 1);
    st->detail = get_template(L, it, "detail", ipath, 0);
    st->when = get_cond(L, it, "when", ipath);
    st->first_when = get_cond(L, it, "first_when", ipath);
    st->when_text = st->when ? dup_str(L, it, "when", ipath, 0) : NULL;
    st->first_when_text = st->first_when ? dup_str(L, it, "first_when", ipath, 0) : NULL;
    for (size_t k = 0; st->id && k + 1 < c->step_count; k++)
        if (c->steps[k].id && strcmp(c->steps[k].id, st->id) == 0)
            error_at(L, ipath, "duplicate step id \"%s\" in this cause", st->id);
}

static void parse_steps(struct loader *L, const cJSON *obj, const char *path, struct cause *c)
{
    size_t n = array_len(obj, "remediation");
    if (cJSON_GetObjectItemCaseSensitive(obj, "remediation") == NULL) {
        error_at(L, path, "missing required key \"remediation\": list the fixes, cheapest and most likely first");
        return;
    }
    if (n > 0 && (c->steps = calloc(n, sizeof *c->steps)) == NULL)
        return;
    each_object(L, obj, "remediation", path, add_step, c);
}

static void add_variant(struct loader *L, const cJSON *it, const char *ipath, void *ctx)
{
    static const char *const keys[] = {"id", "when", "title", "first", "summaries", "confidence", "decision", NULL};
    struct cause *c = ctx;
    check_keys(L, it, ipath, keys);
    struct variant *v = &c->variants[c->variant_count++];
    v->id = get_id(L, it, ipath);
    v->confidence = parse_enum(L, it, "confidence", ipath, od_confidence_names, -1);
    v->decision = parse_enum(L, it, "decision", ipath, od_decision_names, OD_DECISION_NONE);
    v->title = dup_str(L, it, "title", ipath, 0);
    v->when = get_cond(L, it, "when", ipath);
    v->when_text = v->when ? dup_str(L, it, "when", ipath, 0) : NULL;
    parse_summaries(L, it, ipath, &v->summaries, &v->summary_count);
    const cJSON *first = get_array(L, it, "first", ipath);
    const cJSON *f;
    if (first == NULL)
        return;
    v->first = calloc((size_t)cJSON_GetArraySize(first) + 1, sizeof *v->first);
    cJSON_ArrayForEach(f, first)
    {
        if (!cJSON_IsString(f)) {
            char fpath[PATH_MAX_LEN];
            error_at(L, jpath(fpath, ipath, "first"), "\"first\" must be an array of remediation step ids");
            break;
        }
        if (v->first)
            v->first[v->first_count++] = strdup(f->valuestring);
    }
}

static void parse_variants(struct loader *L, const cJSON *obj, const char *path, struct cause *c)
{
    size_t n = array_len(obj, "variants");
    if (n > 0 && (c->variants = calloc(n, sizeof *c->variants)) == NULL)
        return;
    each_object(L, obj, "variants", path, add_variant, c);
}

/* "follows": the causes this one can be a consequence of (resolved when
 * the ruleset is finished, since they may be defined in other files). */
static void parse_follows(struct loader *L, const cJSON *obj, const char *path, struct cause *c)
{
    const cJSON *arr = get_array(L, obj, "follows", path);
    const cJSON *f;
    if (arr == NULL)
        return;
    c->follows = calloc((size_t)cJSON_GetArraySize(arr) + 1, sizeof *c->follows);
    cJSON_ArrayForEach(f, arr)
    {
        if (!cJSON_IsString(f)) {
            char fpath[PATH_MAX_LEN];
            error_at(L, jpath(fpath, path, "follows"), "\"follows\" must be an array of cause ids");
            break;
        }
        if (c->follows && (c->follows[c->follows_count] = strdup(f->valuestring)) != NULL)
            c->follows_count++;
    }
}

static struct cause *parse_cause(struct loader *L, const cJSON *obj, const char *path)
{
    static const char *const keys[] = {"id",          "title",   "explanation", "summaries", "variants",
                                       "remediation", "follows", "decision",    NULL};
    int errors = L->errors;
    struct cause *c = calloc(1, sizeof *c);
    if (c == NULL)
        return NULL;
    check_keys(L, obj, path, keys);
    c->at = origin_of(L, path);
    c->builtin = L->opts->builtin;
    c->id = get_id(L, obj, path);
    c->title = dup_str(L, obj, "title", path, 1);
    c->explanation = dup_str(L, obj, "explanation", path, 1);
    c->decision = parse_enum(L, obj, "decision", path, od_decision_names, OD_DECISION_NONE);
    parse_summaries(L, obj, path, &c->summaries, &c->summary_count);
    parse_steps(L, obj, path, c);
    parse_variants(L, obj, path, c);
    parse_follows(L, obj, path, c);
    /* A variant's "first" must name steps of this cause. */
    for (size_t v = 0; v < c->variant_count; v++)
        for (size_t k = 0; k < c->variants[v].first_count; k++) {
            int found = 0;
            for (size_t s = 0; s < c->step_count && !found; s++)
                found =
                    c->steps[s].id && c->variants[v].first[k] && strcmp(c->steps[s].id, c->variants[v].first[k]) == 0;
            if (!found) {
                char fpath[PATH_MAX_LEN], vpath[PATH_MAX_LEN];
                jpath_index(fpath, jpath_index(vpath, path, "variants", v), "first", k);
                error_at(L, fpath, "\"%s\" is not a remediation step id of cause \"%s\"",
                         c->variants[v].first[k] ? c->variants[v].first[k] : "?", c->id ? c->id : "?");
            }
        }
    if (L->errors != errors) {
        cause_free(c);
        return NULL;
    }
    return c;
}

/* ---- rank sources and dtypes ------------------------------------------------- */

static struct rank_source *parse_rank(struct loader *L, const cJSON *obj, const char *path)
{
    static const char *const keys[] = {"id", "from", "pattern", "literal", "samples", "description", NULL};
    static const char *const froms[] = {"line", "path", NULL};
    int errors = L->errors;
    char kpath[PATH_MAX_LEN];
    struct rank_source *r = calloc(1, sizeof *r);
    if (r == NULL)
        return NULL;
    check_keys(L, obj, path, keys);
    r->at = origin_of(L, path);
    r->id = get_id(L, obj, path);
    r->from_path = parse_enum(L, obj, "from", path, froms, 0);
    r->pattern = dup_str(L, obj, "pattern", path, 1);
    jpath(kpath, path, "pattern");
    if (r->pattern != NULL) {
        char err[256];
        size_t off = 0;
        r->rx = rx_compile(r->pattern, 0, err, sizeof err, &off);
        if (r->rx == NULL)
            error_caret(L, kpath, r->pattern, off, "%s", err);
        else if (rx_name_count(r->rx) == 0 || strcmp(rx_name(r->rx, 0), EVIDENCE_RANK) != 0 || rx_name_count(r->rx) > 1)
            error_at(L, kpath, "a rank pattern must have exactly one named group, (?<rank>...)");
    }
    const cJSON *samples = cJSON_GetObjectItemCaseSensitive(obj, "samples");
    jpath(kpath, path, "samples");
    if (samples != NULL && is_object(L, samples, kpath)) {
        char spath[PATH_MAX_LEN];
        const cJSON *m = get_array(L, samples, "match", kpath);
        if (m != NULL && L->opts->keep_samples)
            parse_samples(L, m, jpath(spath, kpath, "match"), &r->samples, &r->sample_count, 1);
    }
    if (L->errors != errors) {
        rank_source_free(r);
        return NULL;
    }
    return r;
}

static void parse_dtypes(struct loader *L, const cJSON *obj)
{
    const cJSON *it;
    cJSON_ArrayForEach(it, obj)
    {
        char kpath[PATH_MAX_LEN];
        jpath(kpath, "/dtypes", it->string);
        if (!cJSON_IsNumber(it) || it->valuedouble <= 0 || it->valuedouble > 64) {
            error_at(L, kpath, "a dtype size must be a number of bytes between 1 and 64");
            continue;
        }
        ruleset_add_dtype(L->rs, it->string, (long long)it->valuedouble);
    }
}

/* ---- the file ---------------------------------------------------------------- */

static void add_sig(struct loader *L, const cJSON *item, const char *path, void *ctx)
{
    (void)ctx;
    struct sig *s = parse_sig(L, item, path);
    if (s == NULL)
        return;
    const struct sig *old = ruleset_sig(L->rs, s->id);
    if (old != NULL && L->opts->builtin_context) {
        sig_free(s); /* the file being checked defines it: its own wins */
        return;
    }
    if (old != NULL) {
        char buf[512];
        error_at(L, path, "duplicate signature id \"%s\" (first defined at %s)", s->id,
                 where(&old->at, buf, sizeof buf));
        sig_free(s);
        return;
    }
    if (ruleset_add_sig(L->rs, s) != 0)
        sig_free(s);
}

static void add_cause(struct loader *L, const cJSON *item, const char *path, void *ctx)
{
    (void)ctx;
    struct cause *c = parse_cause(L, item, path);
    if (c == NULL)
        return;
    const struct cause *old = ruleset_cause(L->rs, c->id);
    if (old != NULL && L->opts->builtin_context) {
        cause_free(c);
        return;
    }
    if (old != NULL) {
        char buf[512];
        error_at(L, path, "duplicate cause id \"%s\" (first defined at %s)", c->id, where(&old->at, buf, sizeof buf));
        cause_free(c);
        return;
    }
    if (ruleset_add_cause(L->rs, c) != 0)
        cause_free(c);
}

static void add_rank(struct loader *L, const cJSON *item, const char *path, void *ctx)
{
    (void)ctx;
    struct rank_source *r = parse_rank(L, item, path);
    if (r == NULL)
        return;
    for (size_t i = 0; i < L->rs->rank_count; i++)
        if (strcmp(L->rs->ranks[i]->id, r->id) == 0) {
            char buf[512];
            if (L->opts->builtin_context) {
                rank_source_free(r);
                return;
            }
            error_at(L, path, "duplicate rank source id \"%s\" (first defined at %s)", r->id,
                     where(&L->rs->ranks[i]->at, buf, sizeof buf));
            rank_source_free(r);
            return;
        }
    if (ruleset_add_rank(L->rs, r) != 0)
        rank_source_free(r);
}

/* ---- line prefixes -------------------------------------------------------------- */

static struct line_prefix *parse_prefix(struct loader *L, const cJSON *obj, const char *path)
{
    static const char *const keys[] = {"id", "pattern", "samples", "description", NULL};
    static const char *const skeys[] = {"match", "no_match", NULL};
    int errors = L->errors;
    char kpath[PATH_MAX_LEN];
    struct line_prefix *p = calloc(1, sizeof *p);
    if (p == NULL)
        return NULL;
    check_keys(L, obj, path, keys);
    p->at = origin_of(L, path);
    p->id = get_id(L, obj, path);
    p->pattern = dup_str(L, obj, "pattern", path, 1);
    jpath(kpath, path, "pattern");
    if (p->pattern != NULL && p->pattern[0] != '^') {
        error_at(L, kpath, "a line prefix pattern starts with '^' (it matches at the start of the line)");
    } else if (p->pattern != NULL) {
        char err[256];
        size_t off = 0;
        p->rx = rx_compile(p->pattern, 0, err, sizeof err, &off);
        if (p->rx == NULL)
            error_caret(L, kpath, p->pattern, off, "%s", err);
        else if (rx_name_count(p->rx) > 0)
            error_at(L, kpath, "a line prefix pattern captures nothing: no named groups");
    }
    const cJSON *samples = cJSON_GetObjectItemCaseSensitive(obj, "samples");
    jpath(kpath, path, "samples");
    if (samples != NULL && is_object(L, samples, kpath)) {
        char spath[PATH_MAX_LEN];
        check_keys(L, samples, kpath, skeys);
        const cJSON *m = get_array(L, samples, "match", kpath);
        if (m != NULL && L->opts->keep_samples)
            parse_samples(L, m, jpath(spath, kpath, "match"), &p->samples, &p->sample_count, 1);
        const cJSON *nm = get_array(L, samples, "no_match", kpath);
        if (nm != NULL && L->opts->keep_samples)
            parse_samples(L, nm, jpath(spath, kpath, "no_match"), &p->no_match, &p->no_match_count, 0);
    }
    if (L->errors != errors) {
        line_prefix_free(p);
        return NULL;
    }
    return p;
}

static void add_prefix(struct loader *L, const cJSON *item, const char *path, void *ctx)
{
    (void)ctx;
    struct line_prefix *p = parse_prefix(L, item, path);
    if (p == NULL)
        return;
    for (size_t i = 0; i < L->rs->prefix_count; i++)
        if (strcmp(L->rs->prefixes[i]->id, p->id) == 0) {
            char buf[512];
            if (!L->opts->builtin_context)
                error_at(L, path, "duplicate line prefix id \"%s\" (first defined at %s)", p->id,
                         where(&L->rs->prefixes[i]->at, buf, sizeof buf));
            line_prefix_free(p);
            return;
        }
    if (ruleset_add_prefix(L->rs, p) != 0)
        line_prefix_free(p);
}

/* A translation file: {"oomdiag_lang": 1, "lang": TAG, "ui": {...},
 * "causes": {...}}; ROOT is taken over.  0 or -1. */
static int load_translation_file(struct loader *L, cJSON *root)
{
    static const char *const keys[] = {"oomdiag_lang", "lang", "ui", "causes", "description", "$schema", NULL};
    const cJSON *ver = cJSON_GetObjectItemCaseSensitive(root, "oomdiag_lang");
    const char *lang = get_str(L, root, "lang", "", 1);
    check_keys(L, root, "", keys);
    if (!cJSON_IsNumber(ver) || ver->valuedouble != 1) {
        error_at(L, "/oomdiag_lang", "unsupported translation format version (this oomdiag reads version 1)");
        cJSON_Delete(root);
        return -1;
    }
    if (lang == NULL) {
        cJSON_Delete(root);
        return -1;
    }
    char tag[64];
    snprintf(tag, sizeof tag, "%s", lang);
    return translate_add(L->rs, L->file, tag, root, L->opts->builtin);
}

/* A rule file's "translations": {"zh-Hans": {"ui": ..., "causes": ...}}. */
static void add_translations(struct loader *L, cJSON *root)
{
    cJSON *all = cJSON_GetObjectItemCaseSensitive(root, "translations");
    if (all == NULL)
        return;
    if (!cJSON_IsObject(all)) {
        error_at(L, "/translations", "\"translations\" must be an object of languages");
        return;
    }
    while (all->child != NULL) {
        cJSON *one = cJSON_DetachItemViaPointer(all, all->child);
        if (!cJSON_IsObject(one)) {
            error_at(L, "/translations", "the translation for \"%s\" must be an object", one->string);
            cJSON_Delete(one);
        } else if (translate_add(L->rs, L->file, one->string, one, L->opts->builtin) != 0) {
            L->errors++;
        }
    }
}

static void report_part(void *ctx, int warning, const char *path, const char *source, size_t caret, const char *msg)
{
    struct loader *L = ctx;
    if (warning)
        warn_at(L, path, "%s", msg);
    else if (source != NULL)
        error_caret(L, path, source, caret, "%s", msg);
    else
        error_at(L, path, "%s", msg);
}

/* "fragments" (before the signatures that call them) and "fields" (only
 * read when rules are checked: nothing else needs them).  A file sees the
 * lexicon loaded so far; a "lexicon": true file adds its fragments to it. */
static void add_fragments_and_fields(struct loader *L, const cJSON *root)
{
    const cJSON *fr = cJSON_GetObjectItemCaseSensitive(root, "fragments");
    const cJSON *fd = cJSON_GetObjectItemCaseSensitive(root, "fields");
    const cJSON *lx = cJSON_GetObjectItemCaseSensitive(root, "lexicon");
    struct fragments *lex = L->rs->lexicon;
    if (lx != NULL && !cJSON_IsBool(lx))
        error_at(L, "/lexicon", "\"lexicon\" must be true or false");
    L->lexicon = cJSON_IsTrue(lx);
    if ((fr != NULL || (lex != NULL && lex->n > 0)) && (L->frags = ruleset_add_fragments(L->rs)) == NULL)
        error_at(L, "/fragments", "out of memory");
    if (L->frags != NULL && lex != NULL) {
        L->frags->shared = lex;
        L->frags->shared_n = lex->n; /* a lexicon file loaded later does not change what this one sees */
    }
    if (L->frags != NULL && fr != NULL && fragments_parse(L->frags, fr, L->opts->compile_now, report_part, L) != 0 &&
        L->errors == 0)
        L->errors++; /* out of memory */
    if (L->lexicon && L->frags != NULL && L->frags->n > 0 && L->errors == 0) {
        if (lex == NULL && (lex = L->rs->lexicon = ruleset_add_fragments(L->rs)) == NULL)
            error_at(L, "/fragments", "out of memory");
        else if (fragments_share(lex, L->frags, report_part, L) != 0 && L->errors == 0)
            L->errors++; /* out of memory */
    }
    if (fd != NULL && (L->opts->keep_samples || L->opts->builtin_context) &&
        fielddecl_parse(L->rs, fd, L->file, L->text, L->len, L->opts->builtin_context, report_part, L) != 0 &&
        L->errors == 0)
        L->errors++;
}

static void unused_fragments(struct loader *L)
{
    char path[PATH_MAX_LEN];
    /* A lexicon's fragments are for the files after it. */
    for (size_t i = 0; L->frags != NULL && i < L->frags->n && L->opts->keep_samples && !L->lexicon; i++) {
        const struct fragment *hidden = fragments_lexicon_find(L->frags, L->frags->v[i].name);
        snprintf(path, sizeof path, "/fragments/%s", L->frags->v[i].name);
        if (hidden != NULL && strcmp(hidden->text, L->frags->v[i].text) != 0)
            warn_at(L, path, "fragment \"%s\" hides the lexicon's fragment of that name in this file's patterns",
                    L->frags->v[i].name);
    }
    /* Only an eager load (a rule file) expanded every pattern. */
    for (size_t i = 0; L->frags != NULL && i < L->frags->n && L->opts->compile_now && !L->lexicon; i++)
        if (!L->frags->v[i].used) {
            snprintf(path, sizeof path, "/fragments/%s", L->frags->v[i].name);
            warn_at(L, path, "fragment \"%s\" is called by no pattern of this file", L->frags->v[i].name);
        }
}

static void syntax_error(struct loader *L, size_t off)
{
    unsigned long line = 0, col = 0;
    char text[512];
    const struct jsonloc *loc = locate(L);
    jsonloc_position(loc, off, &line, &col);
    jsonloc_line_text(loc, line, text, sizeof text);
    size_t rest = off;
    while (rest < L->len && strchr(" \t\r\n", L->text[rest]) != NULL)
        rest++;
    /* cJSON stops on the last byte when the text ends too soon. */
    int at_end = rest >= L->len || (off + 1 >= L->len && !strchr("]}", L->text[off]));
    const char *what = at_end ? "unexpected end of JSON (a missing ']' or '}'?)"
                              : "JSON syntax error (check for a missing ',' or quote, or a trailing ',')";
    msg_report(&L->rs->msgs, OD_SEV_ERROR, L->file, line, col, text, col - 1, "%s", what);
    L->errors++;
}

/* The file's text as one JSON document: NULL after reporting why it is
 * not one (too large, a NUL byte, a syntax error, text after it). */
static cJSON *parse_text(struct loader *L)
{
    struct od_ruleset *rs = L->rs;
    const char *text = L->text, *end = NULL;
    size_t len = L->len;
    if (len > RULEFILE_MAX_BYTES) {
        msg_error(&rs->msgs, L->file, "rule file is larger than %d MiB", RULEFILE_MAX_BYTES >> 20);
        return NULL;
    }
    if (memchr(text, '\0', len) != NULL) {
        size_t off = (size_t)((const char *)memchr(text, '\0', len) - text);
        unsigned long line = 0, col = 0;
        jsonloc_position(locate(L), off, &line, &col);
        msg_report(&rs->msgs, OD_SEV_ERROR, L->file, line, col, NULL, 0, "NUL byte in rule file (not JSON text)");
        return NULL;
    }
    cJSON *root = cJSON_ParseWithLengthOpts(text, len, &end, 0);
    if (root == NULL) {
        syntax_error(L, end ? (size_t)(end - text) : 0);
        return NULL;
    }
    while (end != NULL && end < text + len && strchr(" \t\r\n", *end) != NULL && *end != '\0')
        end++;
    if (end != NULL && end < text + len) {
        unsigned long line = 0, col = 0;
        char src[512];
        jsonloc_position(locate(L), (size_t)(end - text), &line, &col);
        jsonloc_line_text(locate(L), line, src, sizeof src);
        msg_report(&rs->msgs, OD_SEV_ERROR, L->file, line, col, src, col - 1,
                   "unexpected text after the end of the JSON document (a rule file holds one object)");
        cJSON_Delete(root);
        return NULL;
    }
    return root;
}

/* The members of a rule file's object ROOT. 0, or -1 when something was
 * reported. */
static int load_rules(struct loader *L, cJSON *root)
{
    static const char *const keys[] = {
        "oomdiag_rules", "ruleset_version", "causes",    "signatures", "ranks",   "dtypes",        "description",
        "$schema",       "translations",    "fragments", "fields",     "lexicon", "line_prefixes", NULL};
    struct od_ruleset *rs = L->rs;
    check_keys(L, root, "", keys);
    const cJSON *ver = cJSON_GetObjectItemCaseSensitive(root, "oomdiag_rules");
    if (ver == NULL) {
        error_at(L, "", "missing \"oomdiag_rules\": 1 (the rule format version) at the top level");
        return -1;
    }
    if (!cJSON_IsNumber(ver) || ver->valuedouble != 1) {
        error_at(L, "/oomdiag_rules", "unsupported rule format version (this oomdiag reads version 1)");
        return -1;
    }
    const char *rv = get_str(L, root, "ruleset_version", "", 0);
    if (rv != NULL && (rs->version == NULL || strcmp(rv, rs->version) > 0)) {
        free(rs->version);
        rs->version = strdup(rv);
    }
    const cJSON *dt = cJSON_GetObjectItemCaseSensitive(root, "dtypes");
    if (dt != NULL && !cJSON_IsObject(dt))
        error_at(L, "/dtypes", "\"dtypes\" must be an object of element sizes in bytes");
    else if (dt != NULL)
        parse_dtypes(L, dt);
    add_fragments_and_fields(L, root);
    each_object(L, root, "causes", "", add_cause, NULL);
    each_object(L, root, "signatures", "", add_sig, NULL);
    unused_fragments(L);
    each_object(L, root, "ranks", "", add_rank, NULL);
    each_object(L, root, "line_prefixes", "", add_prefix, NULL);
    add_translations(L, root);
    return L->errors ? -1 : 0;
}

int rulefile_load(struct od_ruleset *rs, const struct rulefile_opts *opts, const char *name, const char *text,
                  size_t len)
{
    struct loader L = {rs, opts, ruleset_intern_file(rs, name), text, len, {0}, 0, 0, NULL, 0};
    cJSON *root = NULL;
    int rc = -1;

    if (L.file == NULL) {
        msg_error(&rs->msgs, name, "out of memory");
        return -1;
    }
    root = parse_text(&L);
    if (root == NULL)
        goto done;
    if (!cJSON_IsObject(root)) {
        error_at(&L, "", "a rule file must be a JSON object with \"oomdiag_rules\": 1");
        goto done;
    }
    if (cJSON_GetObjectItemCaseSensitive(root, "oomdiag_lang") != NULL) {
        rc = load_translation_file(&L, root);
        root = NULL; /* taken over */
        goto done;
    }
    rc = load_rules(&L, root);
done:
    cJSON_Delete(root);
    if (L.loc_ready)
        jsonloc_free(&L.loc);
    return rc;
}

int rulefile_is_lexicon(const char *text, size_t len)
{
    cJSON *root = cJSON_ParseWithLength(text, len);
    int yes = cJSON_IsObject(root) && cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(root, "lexicon"));
    cJSON_Delete(root);
    return yes;
}
