/* render_github.c: workflow commands (::error per root cause, ::warning
 * per consequence, capped, a ::notice for the rest), log text that cannot
 * break a command line or start one, and the step summary, appended and
 * bounded. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "helpers.h"
#include "render_helpers.h"
#include "render_markdown.h"

/* The GitHub format appends the Markdown report to the step summary it is
 * given, its budget counting what earlier steps wrote there. */
static void test_github_step_summary(void **state)
{
    (void)state;
    rep = scan(train_log, sizeof train_log - 1, "train.log");
    FILE *sum = tmpfile();
    assert_non_null(sum);
    fputs("earlier step\n", sum);
    struct od_render_opts opts = {OD_FMT_GITHUB, 0, 0, 5, NULL, NULL, NULL, 0, sum};
    free(out);
    FILE *f = open_memstream(&out, &out_len);
    struct od_renderer *r = od_renderer_create(f, &opts);
    assert_non_null(r);
    assert_int_equal(od_render_job(r, rep), 0);
    assert_int_equal(od_renderer_finish(r), 0);
    od_renderer_free(r);
    fclose(f);
    assert_non_null(strstr(out, "::error "));
    assert_null(strstr(out, "## oomdiag")); /* the Markdown goes to the summary only */
    char text[8192];
    rewind(sum);
    size_t len = fread(text, 1, sizeof text - 1, sum);
    text[len] = '\0';
    static const char head[] = "earlier step\n## oomdiag: train.log\n";
    assert_memory_equal(text, head, sizeof head - 1);
    assert_non_null(strstr(text, "*oomdiag "));
    assert_null(strstr(text, "left out"));

    /* A summary already at its limit takes the job no more. */
    rewind(sum);
    for (size_t i = 0; i < MD_SUMMARY_LIMIT; i += 64)
        fputs("...............................................................\n", sum);
    free(out);
    f = open_memstream(&out, &out_len);
    r = od_renderer_create(f, &opts);
    assert_int_equal(od_render_job(r, rep), 0);
    assert_int_equal(od_renderer_finish(r), 0);
    od_renderer_free(r);
    fclose(f);
    fseek(sum, -400, SEEK_END);
    len = fread(text, 1, sizeof text - 1, sum);
    text[len] = '\0';
    assert_non_null(strstr(text, "**1 more job left out:**"));
    fclose(sum);
}

int main(void)
{
#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)
    const struct CMUnitTest tests[] = {
        T(test_github_step_summary),

    };
#undef T
    return cmocka_run_group_tests(tests, NULL, NULL);
}
