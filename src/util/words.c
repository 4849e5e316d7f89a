#include "words.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static const struct {
    const char *key, *english;
} table[W_COUNT] = {
    [W_ROOT_CAUSE] = {"root_cause", "ROOT CAUSE"},
    [W_CONSEQUENCE] = {"consequence", "CONSEQUENCE"},
    [W_CONFIDENCE] = {"confidence", "{0} confidence"},
    [W_CONF_HIGH] = {"confidence_high", "high"},
    [W_CONF_MEDIUM] = {"confidence_medium", "medium"},
    [W_CONF_LOW] = {"confidence_low", "low"},
    [W_FOLLOWS_FROM] = {"follows_from", "follows from: {0}"},
    [W_LAST_STEP] = {"last_step", "last step reached: {0}"},
    [W_MEMORY_SERIES] = {"memory_series", "memory before it: {0} {1} to {2} in {3} readings"},
    [W_EVIDENCE] = {"evidence", "evidence:"},
    [W_MATCHING_LINES] = {"matching_lines", "({0} matching lines in all)"},
    [W_WHAT_TO_DO] = {"what_to_do", "what to do:"},
    [W_MORE_STEPS] = {"more_steps", "({0} more {0|step|steps} in --format json; all of them: oomdiag --explain {1})"},
    [W_TRACE] = {"trace", "trace:"},
    [W_NOTHING_FOUND] = {"nothing_found", "{0}: no failure diagnosed ({1} {1|line|lines} read)"},
    [W_JOB_HEADLINE] = {"job_headline",
                        "{0}: {1} root {1|cause|causes}, {2} {2|consequence|consequences} ({3} {3|line|lines} read)"},
    [W_ON_RANKS] = {"on_ranks", " on {0|rank|ranks} {1}"},
    [W_N_INPUTS] = {"n_inputs", "{0} inputs"},
    [W_EXPLAIN_VARIANTS] = {"explain_variants", "Variants (the first whose condition holds):"},
    [W_EXPLAIN_WHEN] = {"explain_when", "when {0}"},
    [W_EXPLAIN_OTHERWISE] = {"explain_otherwise", "(otherwise)"},
    [W_EXPLAIN_PUTS_FIRST] = {"explain_puts_first", "puts first: {0}"},
    [W_EXPLAIN_REMEDIATION] = {"explain_remediation", "Remediation, in default order:"},
    [W_EXPLAIN_ONLY_WHEN] = {"explain_only_when", "(only when {0})"},
    [W_EXPLAIN_MOVED_FIRST] = {"explain_moved_first", "(moved first when {0})"},
    [W_EXPLAIN_SIGNATURES] = {"explain_signatures", "Signatures ({0}):"},
    [W_RECOVERED] = {"recovered", "RECOVERED"},
    [W_RECOVERED_NOTE] = {"recovered_note", "the program went on after it: not what ended the job"},
    [W_JOB_HEADLINE_RECOVERED] = {"job_headline_recovered", "{0}: {1} root {1|cause|causes}, {2} "
                                                            "{2|consequence|consequences}, {3} recovered ({4} "
                                                            "{4|line|lines} read)"},
    [W_INPUT_NOT_READ] = {"input_not_read", "{0}: not read: {1} ({2})"},
    [W_INPUT_NOTHING] = {"input_nothing", "{0}: nothing to read: {1} ({2})"},
    [W_INPUT_PARTIAL] = {"input_partial", "{0}: read in part: {1} ({2})"},
    [W_LAST_ERROR] = {"last_error", "the last error line:"},
    [W_COND_KNOWN] = {"cond_known", "{0} is known"},
    [W_COND_UNKNOWN] = {"cond_unknown", "{0} is unknown"},
    [W_COND_AND] = {"cond_and", " and "},
    [W_COND_OR] = {"cond_or", " or "},
    [W_COND_NOT] = {"cond_not", "not "},
    [W_COND_EQ] = {"cond_eq", " is "},
    [W_COND_NE] = {"cond_ne", " is not "},
    [W_COND_GE] = {"cond_ge", " is at least "},
    [W_COND_LE] = {"cond_le", " is at most "},
    [W_COND_GT] = {"cond_gt", " is more than "},
    [W_COND_LT] = {"cond_lt", " is less than "},
    [W_NEAR_MISSES] = {"near_misses", "came close (a signature's literal was there, its pattern did not match):"},
    [W_NEAR_MISS_LINES] = {"near_miss_lines", "{0} {0|line|lines}, the first:"},
    [W_KIND_EMPTY] = {"kind_empty", "the input is empty"},
    [W_KIND_BINARY] = {"kind_binary", "binary file skipped (use --binary-files=text to scan it)"},
    [W_KIND_EMPTY_DIRECTORY] = {"kind_empty_directory", "no files in this directory"},
    [W_KIND_NOT_FOUND] = {"kind_not_found", "no such file or directory"},
    [W_KIND_PERMISSION] = {"kind_permission", "permission denied"},
    [W_KIND_UNREADABLE] = {"kind_unreadable", "it could not be read"},
    [W_GH_LEFT_OUT] = {"gh_left_out", "oomdiag: {0} more {0|root cause|root causes} and {1} more "
                                      "{1|consequence|consequences} left out (at most {2} errors and {3} warnings are "
                                      "shown per step); {4}"},
    [W_GH_SUMMARY_HAS_ALL] = {"gh_summary_has_all", "the step summary has them all"},
    [W_GH_RUN_TEXT] = {"gh_run_text", "run oomdiag --format text to see them all"},
    [W_LIMIT_HITS] = {"limit_hits", "not searched to the end (PCRE2's match limit hit; the line may hide a failure):"},
    [W_CONCISE_MORE] = {"concise_more", "(the full report: oomdiag --verbose; every fix: oomdiag --explain {0})"},
    [W_RUN_NONE_STATUS] = {"run_none_status", "no known failure found in the output of {0} (exit status {1})"},
    [W_RUN_NONE_SIGNAL] = {"run_none_signal", "no known failure found in the output of {0} (signal {1})"},
    [W_LIVE_SKIPPED] = {"live_skipped", "{0} bytes ({1} {1|line|lines}) of the output were passed on but not "
                                        "scanned: they came faster than oomdiag could scan them"},
    [W_TRY_FIRST] = {"try_first", "Try first:"},
    [W_EVIDENCE_AT] = {"evidence_at", "Evidence:"},
    [W_FIX_THAT_FIRST] = {"fix_that_first", "Follows from {0}: fix that first."},
};

const char *words_key(enum od_word w)
{
    return (unsigned)w < W_COUNT ? table[w].key : NULL;
}

const char *words_english(enum od_word w)
{
    return (unsigned)w < W_COUNT ? table[w].english : NULL;
}

int words_find(const char *key)
{
    if (key == NULL)
        return -1; /* an array's item has no key: found by the fuzzer (fuzz_translate) */
    for (int i = 0; i < W_COUNT; i++)
        if (strcmp(table[i].key, key) == 0)
            return i;
    return -1;
}

const char *words_get(const struct od_words *words, enum od_word w)
{
    if ((unsigned)w >= W_COUNT)
        return "";
    if (words != NULL && words->text[w] != NULL)
        return words->text[w];
    return table[w].english;
}

/* Reads a placeholder's number at *P (after the brace); -1 if none. */
static int read_index(const char **p)
{
    int n = 0, digits = 0;
    while (**p >= '0' && **p <= '9' && digits < 3) {
        n = n * 10 + (**p - '0');
        (*p)++;
        digits++;
    }
    return digits ? n : -1;
}

void words_put(FILE *out, const struct od_words *words, enum od_word w, size_t n, const char *const *args)
{
    const char *p = words_get(words, w);
    while (*p) {
        const char *brace = strchr(p, '{');
        if (brace == NULL) {
            fputs(p, out);
            return;
        }
        fwrite(p, 1, (size_t)(brace - p), out);
        const char *q = brace + 1;
        int i = read_index(&q);
        const char *close = strchr(q, '}');
        if (i < 0 || close == NULL || (*q != '}' && *q != '|')) {
            fputc('{', out); /* not a placeholder: the brace as it is */
            p = brace + 1;
            continue;
        }
        const char *arg = (size_t)i < n && args[i] ? args[i] : "";
        if (*q == '}') {
            fputs(arg, out);
        } else {
            const char *one = q + 1, *bar = memchr(one, '|', (size_t)(close - one));
            if (bar == NULL)
                bar = close;
            if (strcmp(arg, "1") == 0)
                fwrite(one, 1, (size_t)(bar - one), out);
            else if (bar < close)
                fwrite(bar + 1, 1, (size_t)(close - bar - 1), out);
        }
        p = close + 1;
    }
}

int words_arity(const char *tpl)
{
    int arity = 0;
    const char *p = tpl;
    while ((p = strchr(p, '{')) != NULL) {
        const char *q = p + 1;
        int i = read_index(&q);
        const char *close = strchr(q, '}');
        if (i < 0 || close == NULL || (*q != '}' && *q != '|'))
            return -1;
        if (i + 1 > arity)
            arity = i + 1;
        p = close + 1;
    }
    return arity;
}

int words_add_text(struct od_words *words, char *const *field, const char *text)
{
    if (words->rule_text_count == words->rule_text_cap) {
        size_t cap = words->rule_text_cap ? 2 * words->rule_text_cap : 64;
        struct words_rule_text *t = realloc(words->rule_texts, cap * sizeof *t);
        if (t == NULL)
            return -1;
        words->rule_texts = t;
        words->rule_text_cap = cap;
    }
    char *copy = strdup(text);
    if (copy == NULL)
        return -1;
    words->rule_texts[words->rule_text_count] = (struct words_rule_text){field, copy, words->rule_text_count};
    words->rule_text_count++;
    return 0;
}

/* By field, then by the order they were added in. */
static int cmp_rule_text(const void *a, const void *b)
{
    const struct words_rule_text *x = a, *y = b;
    uintptr_t fx = (uintptr_t)x->field, fy = (uintptr_t)y->field;
    if (fx != fy)
        return fx < fy ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

void words_seal(struct od_words *words)
{
    if (words->rule_text_count > 1)
        qsort(words->rule_texts, words->rule_text_count, sizeof *words->rule_texts, cmp_rule_text);
}

const char *words_text(const struct od_words *words, char *const *field)
{
    if (words == NULL || words->rule_text_count == 0)
        return *field;
    size_t lo = 0, hi = words->rule_text_count; /* the last entry for FIELD: the first above it, less one */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if ((uintptr_t)words->rule_texts[mid].field <= (uintptr_t)field)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo > 0 && words->rule_texts[lo - 1].field == field)
        return words->rule_texts[lo - 1].text;
    return *field;
}

void words_free(struct od_words *words)
{
    if (words == NULL)
        return;
    for (size_t i = 0; i < words->rule_text_count; i++)
        free(words->rule_texts[i].text);
    free(words->rule_texts);
    for (int i = 0; i < W_COUNT; i++)
        free(words->text[i]);
    free(words->lang);
    free(words);
}
