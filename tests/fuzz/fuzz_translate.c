/* libFuzzer: the translations loader (translate.h).  The input is a
 * second rule file after a small fixed one: a translation file
 * ({"oomdiag_lang": 1, "lang": ...}) or a rule file with "translations".
 * The ruleset is finished, the language "xx" applied (as --lang does) and
 * checked (as --check-rules does).  Checks: every message's strings and
 * every cause's texts and words are readable (a dangling one trips ASan),
 * a translated text is never NULL where the English was not, and
 * everything is freed (LeakSanitizer). */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ruleset.h"
#include "translate.h"
#include "words.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Causes with every kind of text a translation may replace. */
static const char rules[] =
    "{\"oomdiag_rules\": 1, \"causes\": ["
    "{\"id\": \"c\", \"title\": \"Title\", \"explanation\": \"Expl\", "
    "\"summaries\": [{\"text\": \"Sum {n}\"}, {\"text\": \"Other {n}\", \"when\": \"n > 2\"}], "
    "\"variants\": [{\"id\": \"v\", \"title\": \"VT\", \"when\": \"n > 1\"}], "
    "\"remediation\": [{\"id\": \"s\", \"action\": \"Act {n}\", \"detail\": \"Det\"}, {\"id\": \"t\", \"action\": "
    "\"Two\"}]},"
    "{\"id\": \"gpu-oom\", \"title\": \"GPU out of memory\", \"explanation\": \"E\", "
    "\"remediation\": [{\"id\": \"smaller-batch\", \"action\": \"Lower the batch size\"}]}], "
    "\"signatures\": [{\"id\": \"g\", \"cause\": \"c\", \"literal\": \"boom\", \"pattern\": \"boom (?<n>\\\\d+)\", "
    "\"samples\": {\"match\": [\"boom 2\"]}}]}";

static void check(int ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "fuzz_translate: broken promise: %s\n", what);
        abort();
    }
}

static size_t sink;

static void on_msg(void *ctx, const struct od_message *m)
{
    (void)ctx;
    sink += strlen(m->text);
    if (m->file)
        sink += strlen(m->file);
    if (m->source)
        sink += strlen(m->source);
}

static void read_text(const char *s)
{
    if (s != NULL)
        sink += strlen(s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct od_ruleset *rs = od_ruleset_create(on_msg, NULL);
    check(rs != NULL, "out of memory");
    check(od_ruleset_add_buffer(rs, "rules.json", rules, strlen(rules)) == 0, "the fixed rules do not load");
    (void)od_ruleset_add_buffer(rs, "fuzz.json", (const char *)data, size);
    if (od_ruleset_finish(rs) == 0) {
        struct od_words *w = NULL;
        if (translate_apply(rs, "xx", &w) == 0) {
            for (size_t i = 0; i < rs->cause_count; i++) {
                const struct cause *c = rs->causes[i];
                check(c->title != NULL && c->explanation != NULL, "a cause lost its title");
                read_text(words_text(w, &c->title));
                read_text(words_text(w, &c->explanation));
                for (size_t k = 0; k < c->summary_count; k++) {
                    check(c->summaries[k].text != NULL, "a summary lost its text");
                    read_text(words_text(w, &c->summaries[k].text));
                }
                for (size_t k = 0; k < c->variant_count; k++) {
                    read_text(words_text(w, &c->variants[k].title));
                    for (size_t m = 0; m < c->variants[k].summary_count; m++)
                        read_text(words_text(w, &c->variants[k].summaries[m].text));
                }
                for (size_t k = 0; k < c->step_count; k++) {
                    check(c->steps[k].action != NULL, "a step lost its action");
                    read_text(words_text(w, &c->steps[k].action));
                    read_text(words_text(w, &c->steps[k].detail));
                }
            }
            for (int k = 0; k < W_COUNT; k++)
                read_text(words_get(w, (enum od_word)k));
            words_free(w);
        }
        (void)translate_check(rs);
    }
    od_ruleset_free(rs);
    return 0;
}
