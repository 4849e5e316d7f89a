#include "lint.h"

#include <stdlib.h>
#include <string.h>

#include "ansi.h"
#include "fielddecl.h"
#include "regex.h"
#include "rulefile.h"
#include "ruleset.h"
#include "template.h"

struct linter {
    struct od_ruleset *rs;
    struct lint_counts *counts;
    struct rx_matcher *m;
};

/* ---- literals ---------------------------------------------------------- */

static void lint_literal(struct linter *k, const struct sig *s)
{
    if (s->literal_derived || s->literal_count != 1)
        return;
    char *derived = rulefile_derive_literal(s->pattern);
    if (derived != NULL && strcmp(derived, s->literals[0]) == 0) {
        char path[300];
        snprintf(path, sizeof path, "%s/literal", s->at.path);
        struct origin at = {s->at.file, s->at.text, s->at.len, path};
        origin_report(&k->rs->msgs, OD_SEV_NOTE, &at, NULL, 0,
                      "signature \"%s\": literal \"%s\" is what the pattern implies; it can be left out", s->id,
                      derived);
        k->counts->notes++;
    }
    free(derived);
}

/* ---- captures ---------------------------------------------------------- */

struct seen {
    const struct rx *rx;
    unsigned char *hit; /* per name-table entry */
};

static int mark_seen(void *ctx, const char *name, const char *value, size_t len)
{
    struct seen *sn = ctx;
    (void)value;
    (void)len;
    for (unsigned i = 0; i < rx_name_count(sn->rx); i++)
        if (strcmp(rx_name(sn->rx, i), name) == 0)
            sn->hit[i] = 1;
    return 0;
}

/* Where "(?<NAME>" starts in PATTERN (0 if not found). */
static size_t group_offset(const char *pattern, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = strstr(pattern, name); p != NULL; p = strstr(p + 1, name)) {
        if (p[n] != '>' && p[n] != '\'')
            continue;
        if (p - pattern >= 3 && strncmp(p - 3, "(?<", 3) == 0)
            return (size_t)(p - pattern) - 3;
        if (p - pattern >= 4 && (strncmp(p - 4, "(?P<", 4) == 0))
            return (size_t)(p - pattern) - 4;
    }
    return 0;
}

/* Is entry I the first of its name (a (?J) pattern lists a name twice)? */
static int first_of_name(const struct rx *rx, unsigned i)
{
    for (unsigned j = 0; j < i; j++)
        if (strcmp(rx_name(rx, j), rx_name(rx, i)) == 0)
            return 0;
    return 1;
}

/* Is NAME listed in S's "unsampled" (a group no real sample is known to
 * show yet)?  A bad list is reported once, by check_unsampled. */
static int unsampled(const struct sig *s, const char *name)
{
    const cJSON *it;
    cJSON_ArrayForEach(it, s->check.unsampled)
    {
        if (cJSON_IsString(it) && strcmp(it->valuestring, name) == 0)
            return 1;
    }
    return 0;
}

/* "unsampled" must list named groups of the pattern that no sample captures. */
static void check_unsampled(struct linter *k, const struct sig *s, const struct seen *sn)
{
    const cJSON *it;
    char path[300];
    snprintf(path, sizeof path, "%s/unsampled", s->at.path);
    struct origin at = {s->at.file, s->at.text, s->at.len, path};
    if (s->check.unsampled != NULL && !cJSON_IsArray(s->check.unsampled)) {
        origin_report(&k->rs->msgs, OD_SEV_ERROR, &at, NULL, 0,
                      "signature \"%s\": \"unsampled\" must be an array of named groups", s->id);
        k->counts->errors++;
        return;
    }
    cJSON_ArrayForEach(it, s->check.unsampled)
    {
        unsigned i = 0, n = rx_name_count(sn->rx);
        while (cJSON_IsString(it) && i < n && strcmp(rx_name(sn->rx, i), it->valuestring) != 0)
            i++;
        if (i == n || !cJSON_IsString(it)) {
            origin_report(&k->rs->msgs, OD_SEV_ERROR, &at, NULL, 0,
                          "signature \"%s\": \"unsampled\" lists %s, which is not a named group of its pattern", s->id,
                          cJSON_IsString(it) ? it->valuestring : "a non-string");
            k->counts->errors++;
        } else if (sn->hit[i]) {
            origin_report(&k->rs->msgs, OD_SEV_WARNING, &at, NULL, 0,
                          "signature \"%s\": a sample captures \"%s\" now: take it out of \"unsampled\"", s->id,
                          it->valuestring);
            k->counts->warnings++;
        }
    }
}

static void lint_captures(struct linter *k, const struct sig *s, const struct rx *rx)
{
    unsigned n = rx_name_count(rx);
    struct seen sn = {rx, calloc(n ? n : 1, 1)};
    if (sn.hit == NULL)
        return;
    for (size_t i = 0; i < s->check.sample_count; i++) {
        size_t len = strlen(s->check.samples[i].line);
        char *line = malloc(len + 1);
        if (line == NULL)
            continue;
        len = ansi_strip(s->check.samples[i].line, len, line);
        if (rx_match(rx, k->m, line, len) == RX_MATCH)
            rx_each_capture(rx, k->m, line, mark_seen, &sn);
        free(line);
    }
    for (unsigned i = 0; i < n; i++) {
        const char *name = rx_name(rx, i);
        if (!first_of_name(rx, i))
            continue;
        if (!sn.hit[i] && s->check.sample_count > 0 && !unsampled(s, name)) {
            origin_report(&k->rs->msgs, OD_SEV_WARNING, &s->pattern_at, s->pattern, group_offset(s->pattern, name),
                          "signature \"%s\": named group \"%s\" is captured by none of its samples (add a real "
                          "line that shows it)",
                          s->id, name);
            k->counts->warnings++;
        }
        if (!field_engine_known(name) && fielddecl_find(k->rs, name) == NULL) {
            origin_report(&k->rs->msgs, OD_SEV_WARNING, &s->pattern_at, s->pattern, group_offset(s->pattern, name),
                          "signature \"%s\": capture \"%s\" is not declared in \"fields\" and means nothing to the "
                          "engine (declare it, or fix its name)",
                          s->id, name);
            k->counts->warnings++;
        }
    }
    check_unsampled(k, s, &sn);
    free(sn.hit);
}

/* ---- summaries --------------------------------------------------------- */

/* A template lookup: does the summary text CTX name {NAME} too? */
static int named_in(void *ctx, const char *name, char *buf, size_t bufsize)
{
    const char *text = ctx;
    size_t n = strlen(name);
    for (const char *p = strchr(text, '{'); p != NULL; p = strchr(p + 1, '{'))
        if ((p == text || p[-1] != '{') && strncmp(p + 1, name, n) == 0 && p[1 + n] == '}') {
            snprintf(buf, bufsize, "x");
            return 0;
        }
    return -1;
}

/* A summary after one with no "when" whose placeholders are all its own is
 * never chosen: that one is, whenever this one could be. */
static void lint_summaries(struct linter *k, const char *cause, const struct summary *list, size_t n)
{
    for (size_t j = 1; j < n; j++)
        for (size_t i = 0; i < j; i++) {
            if (list[i].when != NULL || list[i].text == NULL || list[j].text == NULL)
                continue;
            char *shadow = template_expand(list[i].text, named_in, list[j].text);
            if (shadow == NULL)
                continue;
            free(shadow);
            const char *slash = strrchr(list[i].at.path, '/');
            origin_report(&k->rs->msgs, OD_SEV_ERROR, &list[j].at, NULL, 0,
                          "cause \"%s\": this summary can never be chosen: summary %s before it has no \"when\" and "
                          "needs no field this one does not",
                          cause, slash ? slash + 1 : "?");
            k->counts->errors++;
            break;
        }
}

void lint_rules(struct od_ruleset *rs, int with_builtin, struct lint_counts *counts)
{
    struct linter k = {rs, counts, rx_matcher_create()};
    memset(counts, 0, sizeof *counts);
    if (k.m == NULL)
        return;
    for (size_t i = 0; i < rs->sig_count; i++) {
        struct sig *s = rs->sigs[i];
        if (s->builtin && !with_builtin)
            continue;
        lint_literal(&k, s);
        /* Compiled here, quietly: --check-rules reported a pattern that does not compile. */
        struct msg_sink quiet = {NULL, NULL, 0, 0};
        struct rx *rx = s->rx != NULL ? NULL : sig_compile(s, &quiet);
        if (s->rx != NULL || rx != NULL)
            lint_captures(&k, s, s->rx != NULL ? s->rx : rx);
        rx_free(rx);
    }
    for (size_t c = 0; c < rs->cause_count; c++) {
        const struct cause *cause = rs->causes[c];
        if (cause->builtin && !with_builtin)
            continue;
        lint_summaries(&k, cause->id, cause->summaries, cause->summary_count);
        for (size_t v = 0; v < cause->variant_count; v++)
            lint_summaries(&k, cause->id, cause->variants[v].summaries, cause->variants[v].summary_count);
    }
    rx_matcher_free(k.m);
}
