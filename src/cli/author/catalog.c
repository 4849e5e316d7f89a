#include "catalog.h"

#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "builtin_rules.h"
#include "ruleset.h"

/* "FILE:LINE" of O into BUF.  An embedded rule loaded from its lean copy
 * (no samples, so other line numbers) is located in the file as shipped:
 * the JSON pointer is the same in both. */
static const char *where(const struct origin *o, char *buf, size_t size)
{
    struct origin at = *o;
    unsigned long line, col;
    for (size_t i = 0; i < builtin_rule_count; i++)
        if (o->text == (const char *)builtin_rules[i].lean) {
            at.text = (const char *)builtin_rules[i].data;
            at.len = builtin_rules[i].len;
        }
    origin_locate(&at, &line, &col);
    snprintf(buf, size, "%s:%lu", o->file, line);
    return buf;
}

void catalog_list(FILE *out, const struct od_ruleset *rs)
{
    fprintf(out, "%-44s %-18s %-13s %s\n", "SIGNATURE", "CAUSE", "ROLE", "FRAMEWORK");
    for (size_t i = 0; i < rs->sig_count; i++) {
        const struct sig *s = rs->sigs[i];
        fprintf(out, "%-44s %-18s %-13s %s\n", s->id, s->cause_id ? s->cause_id : "-", od_role_name(s->role),
                s->framework ? s->framework : "-");
    }
}

int catalog_has_cause(const struct od_ruleset *rs, const char *id)
{
    return ruleset_cause(rs, id) != NULL;
}

static void put_word(FILE *out, const struct od_words *words, enum od_word w, const char *arg)
{
    words_put(out, words, w, arg ? 1 : 0, &arg);
}

static int name_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.';
}

/* Writes condition TEXT in words: has(x) as "x is known", && as "and",
 * comparisons as phrases, field names with spaces for underscores. */
static void condition_words(FILE *out, const struct od_words *words, const char *text)
{
    static const struct {
        const char *op;
        enum od_word w;
    } ops[] = {{"&&", W_COND_AND}, {"||", W_COND_OR}, {"==", W_COND_EQ}, {"!=", W_COND_NE},
               {">=", W_COND_GE},  {"<=", W_COND_LE}, {">", W_COND_GT},  {"<", W_COND_LT}};
    for (size_t i = 0; text[i];) {
        int neg = text[i] == '!' && strncmp(text + i + 1, "has(", 4) == 0;
        if (strncmp(text + i + neg, "has(", 4) == 0) {
            const char *end = strchr(text + i, ')');
            if (end != NULL) {
                size_t start = i + (size_t)neg + 4;
                char name[128];
                size_t n =
                    (size_t)(end - text) - start < sizeof name - 1 ? (size_t)(end - text) - start : sizeof name - 1;
                memcpy(name, text + start, n);
                name[n] = '\0';
                for (char *p = name; *p; p++)
                    if (*p == '_')
                        *p = ' ';
                const char *arg = name;
                words_put(out, words, neg ? W_COND_UNKNOWN : W_COND_KNOWN, 1, &arg);
                i = (size_t)(end - text) + 1;
                continue;
            }
        }
        if (text[i] == '!' && text[i + 1] != '=') {
            words_put(out, words, W_COND_NOT, 0, NULL);
            i++;
            continue;
        }
        size_t k = 0;
        while (k < sizeof ops / sizeof ops[0] && strncmp(text + i, ops[k].op, strlen(ops[k].op)) != 0)
            k++;
        if (k < sizeof ops / sizeof ops[0]) {
            words_put(out, words, ops[k].w, 0, NULL);
            i += strlen(ops[k].op);
            while (text[i] == ' ')
                i++;
            continue;
        }
        if (text[i] == '"') {
            const char *end = strchr(text + i + 1, '"');
            size_t n = end ? (size_t)(end - text) - i + 1 : strlen(text + i);
            fwrite(text + i, 1, n, out);
            i += n;
            continue;
        }
        if (name_char(text[i])) {
            for (; name_char(text[i]); i++)
                fputc(text[i] == '_' ? ' ' : text[i], out);
            continue;
        }
        if (text[i] == ' ' && (text[i + 1] == '&' || text[i + 1] == '|' || strchr("=!<>", text[i + 1]))) {
            i++; /* before an operator: its words have the space */
            continue;
        }
        fputc(text[i++], out);
    }
}

static void put_condition(FILE *out, const struct od_words *words, enum od_word w, const char *text)
{
    if (text == NULL)
        return;
    char *prose = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&prose, &len);
    if (f == NULL)
        return;
    condition_words(f, words, text);
    if (fclose(f) != 0) {
        free(prose);
        return;
    }
    fputs("       ", out);
    put_word(out, words, w, prose);
    fputc('\n', out);
    free(prose);
}

/* Writes a rule text with its template braces unescaped ("{{" is "{"). */
static void put_rule_text(FILE *out, const char *s)
{
    for (; *s; s++) {
        fputc(*s, out);
        if ((*s == '{' && s[1] == '{') || (*s == '}' && s[1] == '}'))
            s++;
    }
}

/* --explain's variants of cause C: each with when it applies and the fixes it puts first. */
static void put_variants(FILE *out, const struct od_words *words, const struct cause *c)
{
    fputc('\n', out);
    put_word(out, words, W_EXPLAIN_VARIANTS, NULL);
    fputc('\n', out);
    for (size_t i = 0; i < c->variant_count; i++) {
        const struct variant *v = &c->variants[i];
        fprintf(out, "  %s", v->id);
        if (v->title != NULL)
            fprintf(out, " (%s)", words_text(words, &v->title));
        fputs(v->when_text ? ": " : " ", out);
        if (v->when_text) {
            char *prose = NULL;
            size_t len = 0;
            FILE *f = open_memstream(&prose, &len);
            if (f != NULL) {
                condition_words(f, words, v->when_text);
                fclose(f);
            }
            put_word(out, words, W_EXPLAIN_WHEN, prose ? prose : v->when_text);
            free(prose);
        } else
            put_word(out, words, W_EXPLAIN_OTHERWISE, NULL);
        fputc('\n', out);
        for (size_t k = 0; k < v->first_count; k++) {
            fputs("    ", out);
            put_word(out, words, W_EXPLAIN_PUTS_FIRST, v->first[k]);
            fputc('\n', out);
        }
    }
}

int catalog_explain(FILE *out, const struct od_ruleset *rs, const struct od_words *words, const char *id)
{
    const struct cause *c = ruleset_cause(rs, id);
    if (c == NULL)
        return -1;
    fprintf(out, "%s: %s\n\n%s\n", c->id, words_text(words, &c->title), words_text(words, &c->explanation));
    if (c->variant_count > 0)
        put_variants(out, words, c);
    fputc('\n', out);
    put_word(out, words, W_EXPLAIN_REMEDIATION, NULL);
    fputc('\n', out);
    for (size_t i = 0; i < c->step_count; i++) {
        const struct step *st = &c->steps[i];
        fprintf(out, "  %zu. ", i + 1);
        put_rule_text(out, words_text(words, &st->action));
        fputc('\n', out);
        if (st->detail) {
            fputs("       ", out);
            put_rule_text(out, words_text(words, &st->detail));
            fputc('\n', out);
        }
        put_condition(out, words, W_EXPLAIN_ONLY_WHEN, st->when_text);
        put_condition(out, words, W_EXPLAIN_MOVED_FIRST, st->first_when_text);
    }
    size_t n = 0;
    char count[32];
    for (size_t i = 0; i < rs->sig_count; i++)
        n += rs->sigs[i]->cause == c;
    snprintf(count, sizeof count, "%zu", n);
    fputc('\n', out);
    put_word(out, words, W_EXPLAIN_SIGNATURES, count);
    fputc('\n', out);
    for (size_t i = 0; i < rs->sig_count; i++) {
        char at[512];
        if (rs->sigs[i]->cause == c)
            fprintf(out, "  %s  %s\n", rs->sigs[i]->id, where(&rs->sigs[i]->at, at, sizeof at));
    }
    return 0;
}

/* Writes S's literals as a JSON-like list. */
static void put_literals(FILE *out, const struct sig *s)
{
    for (size_t i = 0; i < s->literal_count; i++) {
        fputs(i ? ", \"" : "\"", out);
        for (const char *p = s->literals[i]; *p; p++) {
            if (*p == '"' || *p == '\\')
                fputc('\\', out);
            fputc(*p, out);
        }
        fputc('"', out);
    }
}

int catalog_show_patterns(FILE *out, const struct od_ruleset *rs, const char *glob)
{
    int shown = 0;
    for (size_t i = 0; i < rs->sig_count; i++) {
        const struct sig *s = rs->sigs[i];
        char at[512];
        if (fnmatch(glob, s->id, 0) != 0)
            continue;
        fprintf(out, "%s%s  %s\n", shown++ ? "\n" : "", s->id, where(&s->at, at, sizeof at));
        fprintf(out, "  pattern:  %s\n", s->pattern);
        /* An image signature carries its expansion; a loaded one expands
         * when compiled, so here on a copy. */
        struct expansion x = {0};
        if (s->expanded.text != NULL)
            fprintf(out, "  expanded: %s\n", s->expanded.text);
        else if (s->frags != NULL && fragments_expand(s->frags, s->pattern, &x) == 0 && x.text != NULL)
            fprintf(out, "  expanded: %s\n", x.text);
        expansion_free(&x);
        fputs("  literal:  ", out);
        put_literals(out, s);
        fputs(s->literal_derived ? " (derived from the pattern)\n" : "\n", out);
        if (s->caseless)
            fputs("  caseless\n", out);
    }
    return shown ? 0 : -1;
}
