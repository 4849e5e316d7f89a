/* render.c: the table of formats, od_renderer's dispatch to them, write
 * errors, and what holds for every format (no terminal control from log
 * text or paths reaches the output).  Each format's own promises are
 * tested in test_render_NAME.c. */
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

static const char hostile[] = HOSTILE_LOG;

static void test_format_table(void **state)
{
    (void)state;
    rep = scan(train_log, sizeof train_log - 1, "train.log");
    size_t n = 0;
    for (; render_formats[n] != NULL; n++) {
        const struct render_format *f = render_formats[n];
        assert_ptr_equal(render_format_named(f->name), f);
        for (size_t k = 0; k < n; k++) {
            assert_string_not_equal(render_formats[k]->name, f->name);
            assert_int_not_equal(render_formats[k]->id, f->id);
        }
        /* Each renders a job, and an empty document, on its own state. */
        render_one(f->id, 0, 0);
        assert_true(out_len > 0);
        render(f->id, 0, 0, NULL, 0);
    }
    assert_int_equal(n, OD_FMT_JUNIT + 1);
    assert_string_equal(render_formats[0]->name, "text"); /* the default comes first */
    assert_null(render_format_named("xml"));
    assert_null(render_format_named(""));
    struct od_render_opts opts = {(enum od_format)99, 0, 0, 5, NULL, NULL, NULL, 0, NULL};
    assert_null(od_renderer_create(stdout, &opts));
}

static void test_write_error_is_reported(void **state)
{
    (void)state;
    FILE *full = fopen("/dev/full", "w");
    if (full == NULL)
        skip();
    rep = scan(train_log, sizeof train_log - 1, "train.log");
    struct od_render_opts opts = {OD_FMT_TEXT, 0, 0, 5, NULL, NULL, NULL, 0, NULL};
    struct od_renderer *r = od_renderer_create(full, &opts);
    od_render_job(r, rep); /* may be buffered */
    assert_int_equal(od_renderer_finish(r), -1);
    od_renderer_free(r);
    fclose(full);

    full = fopen("/dev/full", "w");
    opts.format = OD_FMT_JSON;
    r = od_renderer_create(full, &opts);
    assert_int_equal(od_render_job(r, rep), 0); /* JSON is held until the end */
    assert_int_equal(od_renderer_finish(r), -1);
    od_renderer_free(r);
    fclose(full);
}

static void test_control_chars_never_reach_output(void **state)
{
    (void)state;
    rep = scan(hostile, sizeof hostile - 1, "job.log");
    assert_int_equal(rep->count, 1);
    const struct od_diagnosis *d = &rep->diagnoses[0];
    assert_string_equal(d->cause, "worker-died");
    assert_string_equal(d->evidence[0].text, "worker wx died: boom \xef\xbf\xbd"
                                             "31m \xef\xbf\xbd\xef\xbf\xbd"
                                             "2J \xef\xbf\xbd\xef\xbf\xbd tail");
    assert_string_equal(d->summary, "Worker wx died: boom \xef\xbf\xbd"
                                    "31m \xef\xbf\xbd\xef\xbf\xbd"
                                    "2J \xef\xbf\xbd\xef\xbf\xbd tail");
    /* Every format (JSON's and JUnit's pretty layout have tabs). */
    for (size_t i = 0; render_formats[i] != NULL; i++) {
        enum od_format id = render_formats[i]->id;
        render_one(id, 0, 1);
        assert_inert(out, out_len, id == OD_FMT_JSON || id == OD_FMT_JUNIT);
        assert_non_null(strstr(out, "wx"));
    }
}

static void test_control_chars_in_path(void **state)
{
    (void)state;
    /* A file name found in a directory walk is as hostile as log text:
     * neither the headline nor the evidence lines print it raw. */
    rep = scan("worker 3 died: bus error\n", 25, "evil\x1b]0;pwned\x07\x1b[2J.log");
    render_one(OD_FMT_TEXT, 0, 0);
    assert_inert(out, out_len, 0);
    assert_non_null(strstr(out, "evil]0;pwned[2J.log"));
    for (size_t i = 1; render_formats[i] != NULL; i++) {
        render_one(render_formats[i]->id, 0, 0);
        assert_inert(out, out_len, 1);
    }
}

int main(void)
{
#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)
    const struct CMUnitTest tests[] = {
        T(test_format_table),
        T(test_write_error_is_reported),
        cmocka_unit_test_setup_teardown(test_control_chars_never_reach_output, setup_inject, teardown),
        cmocka_unit_test_setup_teardown(test_control_chars_in_path, setup_inject, teardown),
    };
#undef T
    return cmocka_run_group_tests(tests, NULL, NULL);
}
