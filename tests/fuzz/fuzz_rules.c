/* libFuzzer: bytes -> one rule file -> a ruleset, as `oomdiag -r FILE`
 * loads it (every regex compiled at load), then, when it loads, what
 * `--check-rules` does with it (each sample line through the matcher).
 * Messages are discarded after every string in them has been read, so
 * that a dangling or unterminated one is caught by AddressSanitizer. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "oomdiag/oomdiag.h"
#include "rulefile.h"
#include "ruleset.h"
#include "selftest.h"

static size_t sink;

static void discard(void *ctx, const struct od_message *m)
{
    (void)ctx;
    sink += strlen(m->text);
    if (m->file)
        sink += strlen(m->file);
    if (m->source)
        sink += strlen(m->source);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct od_ruleset *rs = od_ruleset_create(discard, NULL);
    if (rs == NULL)
        return 0;
    /* As od_ruleset_add_path reads a user's file: every regex compiled now. */
    const struct rulefile_opts opts = {.keep_samples = 1, .compile_now = 1};
    char *text = malloc(size + 1); /* outlives the ruleset, as a kept file's text does */
    if (text != NULL) {
        memcpy(text, data, size);
        text[size] = '\0';
        if (rulefile_load(rs, &opts, "fuzz.json", text, size) == 0 && od_ruleset_finish(rs) == 0) {
            struct selftest_result res;
            selftest_run(rs, 1, &res);
            (void)od_ruleset_version(rs);
        }
    }
    od_ruleset_free(rs);
    free(text);
    return 0;
}
