/* oomdiag's own report inside a log is skipped when the log is read: the
 * lines between the markers (prefixed or not), a JSON document from its
 * tool line to its closing brace, an NDJSON record; nothing else. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "selfreport.h"

/* "1" for each line of LINES (NULL-ended) that is skipped, "0" otherwise. */
static void expect(const char *const *lines, const char *want)
{
    unsigned state = 0;
    char got[64] = "";
    for (size_t i = 0; lines[i] != NULL && i + 1 < sizeof got; i++)
        got[i] = selfreport_skip(&state, lines[i], strlen(lines[i])) ? '1' : '0';
    assert_string_equal(got, want);
}

static void test_markers(void **state)
{
    (void)state;
    const char *const lines[] = {"step 1",
                                 "RuntimeError: CUDA out of memory.",
                                 SELFREPORT_BEGIN,
                                 "ROOT CAUSE gpu-oom",
                                 "    (output):2: RuntimeError: CUDA out of memory.",
                                 SELFREPORT_END,
                                 "exit 1",
                                 NULL};
    expect(lines, "0011110");
}

static void test_prefixed_markers(void **state)
{
    (void)state;
    const char *const lines[] = {"2026-12-06T04:00:00Z " SELFREPORT_BEGIN, "2026-12-06T04:00:00Z evidence",
                                 "[pod/train-0] " SELFREPORT_END, "[pod/train-0] after", NULL};
    expect(lines, "1110");
}

static void test_json_document(void **state)
{
    (void)state;
    const char *const lines[] = {"before",
                                 "{",
                                 "\t\"schema_version\":\t1,",
                                 "\t\"tool\":\t{",
                                 "\t\t\"name\":\t\"oomdiag\",",
                                 "\t\t\"text\":\t\"CUDA out of memory\"",
                                 "\t}",
                                 "}",
                                 "after",
                                 NULL};
    expect(lines, "000011110");
}

static void test_ndjson_record(void **state)
{
    (void)state;
    const char *const lines[] = {
        "{\"name\":\"-\",\"inputs\":[],\"diagnoses\":[{\"cause\":\"gpu-oom\"}],\"schema_version\":1,\"lang\":\"en\"}",
        "{\"diagnoses\":[] is not a record without its schema_version}", NULL};
    expect(lines, "10");
}

static void test_mentions_are_read(void **state)
{
    (void)state;
    const char *const lines[] = {"oomdiag report begin", "* oomdiag: the report begins with a marker line",
                                 "\"name\": \"oomdiagnostics\",", NULL};
    expect(lines, "000");
}

static void test_unterminated_report_ends(void **state)
{
    (void)state;
    unsigned st = 0;
    assert_true(selfreport_skip(&st, SELFREPORT_BEGIN, strlen(SELFREPORT_BEGIN)));
    size_t skipped = 0;
    while (selfreport_skip(&st, "line", 4) && skipped < 10 * (size_t)SELFREPORT_MAX_LINES)
        skipped++;
    assert_int_equal(skipped, SELFREPORT_MAX_LINES);
    assert_false(selfreport_skip(&st, "line", 4));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_markers),           cmocka_unit_test(test_prefixed_markers),
        cmocka_unit_test(test_json_document),     cmocka_unit_test(test_ndjson_record),
        cmocka_unit_test(test_mentions_are_read), cmocka_unit_test(test_unterminated_report_ends),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
