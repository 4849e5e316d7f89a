/* --list-rules and --explain: what the rules know, for people, in words
 * (conditions read as phrases), in English or a translation's words. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "catalog.h"
#include "helpers.h"

static struct od_ruleset *rs;
static struct msgs ms;

static int setup(void **state)
{
    (void)state;
    rs = load_test_rules("classify/rules.json", &ms);
    return rs ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    od_ruleset_free(rs);
    return 0;
}

static char *out_buf;
static size_t out_len;

static FILE *open_out(void)
{
    FILE *f = open_memstream(&out_buf, &out_len);
    assert_non_null(f);
    return f;
}

static void test_list(void **state)
{
    (void)state;
    FILE *f = open_out();
    catalog_list(f, rs);
    fclose(f);
    assert_non_null(strstr(out_buf, "SIGNATURE                                    CAUSE              ROLE          "
                                    "FRAMEWORK\n"));
    assert_non_null(strstr(out_buf, "\noom                                          gpu-oom            root          "
                                    "pytorch\n"));
    assert_non_null(strstr(out_buf, "\nwatchdog                                     nccl-timeout       consequence   "
                                    "nccl\n"));
    /* No cause, no framework: a dash. */
    assert_non_null(strstr(out_buf, "\nstep                                         -                  progress      "
                                    "-\n"));
    size_t lines = 0;
    for (char *p = out_buf; *p; p++)
        lines += *p == '\n';
    assert_int_equal(lines, 1 + 18); /* the header and each of the 18 signatures */
    free(out_buf);
}

static void test_explain(void **state)
{
    (void)state;
    FILE *f = open_out();
    assert_int_equal(catalog_explain(f, rs, NULL, "gpu-oom"), 0);
    fclose(f);
    static const char *const want[] = {
        "gpu-oom: GPU memory exhausted\n\nThe GPU had no room for an allocation.\n",
        ("  fragmentation (GPU memory fragmented): when reserved unallocated bytes is at least requested bytes\n"
         "    puts first: expandable\n"
         "  capacity (otherwise)\n"),
        ("  1. Enable activation checkpointing\n  2. Halve the batch size\n       (moved first when last step is at "
         "most 1)\n"),
        "       (only when reserved unallocated bytes is known)\n",
        "       (only when variant is \"fragmentation\")\n",
        "Signatures (5):\n  oom  ",
        "classify/rules.json:55\n  oom-hint  ",
        "classify/rules.json:63\n  oom-retry  ",
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        if (strstr(out_buf, want[i]) == NULL)
            print_error("missing:\n%s\nin:\n%s\n", want[i], out_buf);
        assert_non_null(strstr(out_buf, want[i]));
    }
    free(out_buf);
}

static void test_explain_words_and_unknown(void **state)
{
    (void)state;
    struct od_words *w = calloc(1, sizeof *w);
    w->lang = strdup("xx");
    w->text[W_EXPLAIN_SIGNATURES] = strdup("SIGS<{0}>:");
    w->text[W_COND_KNOWN] = strdup("[{0} KNOWN]");
    FILE *f = open_out();
    assert_int_equal(catalog_explain(f, rs, w, "gpu-oom"), 0);
    fclose(f);
    assert_non_null(strstr(out_buf, "SIGS<5>:\n  oom  "));
    assert_non_null(strstr(out_buf, "(only when [reserved unallocated bytes KNOWN])"));
    free(out_buf);
    words_free(w);

    f = open_out();
    assert_int_equal(catalog_explain(f, rs, NULL, "no-such-cause"), -1);
    fclose(f);
    assert_int_equal(out_len, 0);
    free(out_buf);
    assert_true(catalog_has_cause(rs, "crash"));
    assert_false(catalog_has_cause(rs, "cras"));
    assert_false(catalog_has_cause(rs, ""));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_list),
        cmocka_unit_test(test_explain),
        cmocka_unit_test(test_explain_words_and_unknown),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
