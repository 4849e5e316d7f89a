/* Scanning inputs into a job, through the public API: files, directories,
 * descriptors, ranks from a path or a line, the inputs that give no text
 * (missing, empty, binary), gzip, UTF-16, and reuse after a reset. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <zlib.h>

#include <sys/stat.h>

#include "fields.h"
#include "helpers.h"
#include "job.h"

static const char *put(struct job_fixture *fx, const char *name, const char *text)
{
    static char path[4096];
    write_file(fx->dir, name, text, strlen(text));
    snprintf(path, sizeof path, "%s/%s", fx->dir, name);
    return path;
}

static size_t count_sig(const struct od_job *job, const char *id)
{
    size_t n = 0;
    for (size_t i = 0; i < job->finding_count; i++)
        n += strcmp(job->findings[i].sig->id, id) == 0;
    return n;
}

static void test_file_findings(void **state)
{
    struct job_fixture *fx = *state;
    const char *p = put(fx, "job.log",
                        "step 1 loss 3\n"
                        "step 2 loss 2\n"
                        "\033[31mCUDA out of memory. Tried to allocate 2.00 GiB\033[0m\r\n"
                        "nothing here\n"
                        "Killed");
    assert_int_equal(od_job_add_path(fx->job, p), 0);
    assert_int_equal(fx->job->input_count, 1);
    const struct input *in = &fx->job->inputs[0];
    assert_int_equal(in->lines, 5); /* the last line has no newline */
    assert_int_equal(in->progress_lines, 2);
    assert_int_equal(in->last_step, 2);
    assert_int_equal(in->error, 0);
    assert_int_equal(fx->job->finding_count, 2);
    const struct finding *f = &fx->job->findings[0];
    assert_string_equal(f->sig->id, "oom");
    assert_int_equal(f->line, 3);
    assert_int_equal(f->step_at, 2);
    assert_int_equal(f->rank, -1);
    assert_null(strchr(f->text, '\033')); /* escapes stripped for matching and display */
    const struct od_field *rb = fields_get(&f->fields, "requested_bytes");
    assert_non_null(rb);
    assert_int_equal(rb->type, OD_FIELD_BYTES);
    assert_int_equal(rb->num, 2147483648LL);
    assert_string_equal(fx->job->findings[1].sig->id, "killed");
    assert_int_equal(fx->job->findings[1].line, 5);
    assert_true(fx->job->findings[0].seq < fx->job->findings[1].seq);
    assert_int_equal(fx->msgs.count, 0);
}

static void test_ranks(void **state)
{
    struct job_fixture *fx = *state;
    const char *p = put(fx, "rank3.log", "Killed\n");
    assert_int_equal(od_job_add_path(fx->job, p), 0);
    p = put(fx, "all.log", "[rank5]: Killed\n[rank7]: Segmentation fault\nSegmentation fault\n");
    assert_int_equal(od_job_add_path(fx->job, p), 0);
    assert_int_equal(fx->job->inputs[0].rank, 3);
    assert_int_equal(fx->job->finding_count, 3);
    assert_int_equal(fx->job->findings[0].rank, 3); /* from the path */
    assert_int_equal(fx->job->findings[1].rank, 7); /* from the line ("Killed" needs the whole line: not matched) */
    assert_int_equal(count_sig(fx->job, "segv"), 2);
}

static void test_directory_sorted(void **state)
{
    struct job_fixture *fx = *state;
    char sub[4096];
    snprintf(sub, sizeof sub, "%s/logs", fx->dir);
    assert_int_equal(mkdir(sub, 0700), 0);
    put(fx, "logs/b.log", "Segmentation fault\n");
    put(fx, "logs/a.log", "Killed\n");
    assert_int_equal(od_job_add_path(fx->job, sub), 0);
    assert_int_equal(fx->job->input_count, 2);
    assert_non_null(strstr(fx->job->inputs[0].path, "a.log"));
    assert_non_null(strstr(fx->job->inputs[1].path, "b.log"));
    assert_string_equal(fx->job->findings[0].sig->id, "killed");
    assert_int_equal(fx->job->findings[1].input, 1);
}

static void test_no_text(void **state)
{
    struct job_fixture *fx = *state;
    char missing[4096];
    snprintf(missing, sizeof missing, "%s/nope.log", fx->dir);
    assert_int_equal(od_job_add_path(fx->job, missing), -1);
    const char *empty = put(fx, "empty.log", "");
    assert_int_equal(od_job_add_path(fx->job, empty), 0); /* empty: not trouble */
    write_file(fx->dir, "bin.dat",
               "\x7f"
               "ELF\x02\x01\x01\0\0\0\0Killed\n",
               19);
    char bin[4096];
    snprintf(bin, sizeof bin, "%s/bin.dat", fx->dir);
    assert_int_equal(od_job_add_path(fx->job, bin), 0);
    assert_int_equal(fx->job->input_count, 3);
    assert_int_equal(fx->job->inputs[0].error, 1);
    assert_string_equal(fx->job->inputs[0].error_kind, "not-found");
    assert_int_equal(fx->job->inputs[1].error, 0);
    assert_string_equal(fx->job->inputs[1].error_kind, "empty");
    assert_int_equal(fx->job->inputs[2].error, 0);
    assert_string_equal(fx->job->inputs[2].error_kind, "binary");
    assert_int_equal(fx->job->finding_count, 0); /* the binary's "Killed" is not read */
    assert_true(fx->msgs.count >= 1);
    assert_int_equal(fx->msgs.items[0].sev, OD_SEV_ERROR);
    assert_non_null(strstr(fx->msgs.items[0].file, "nope.log"));
}

static void test_binary_as_text(void **state)
{
    struct job_fixture *fx = *state;
    struct od_scan_opts opts = {1, 0, 0};
    struct od_job *job = od_job_create(fx->rs, &opts, collect_msg, &fx->msgs);
    write_file(fx->dir, "bin.dat",
               "\x7f"
               "ELF\x02\x01\x01\0\0\0\nKilled\n",
               18);
    char bin[4096];
    snprintf(bin, sizeof bin, "%s/bin.dat", fx->dir);
    assert_int_equal(od_job_add_path(job, bin), 0);
    assert_int_equal(job->finding_count, 1);
    od_job_free(job);
}

static void test_fd_gzip_utf16(void **state)
{
    struct job_fixture *fx = *state;
    int fd = pipe_with("Segmentation fault\n", 19);
    assert_int_equal(od_job_add_fd(fx->job, fd, "(pipe)"), 0);
    close(fd);
    assert_string_equal(fx->job->inputs[0].path, "(pipe)");
    assert_int_equal(fx->job->finding_count, 1);

    char gz[4096];
    snprintf(gz, sizeof gz, "%s/job.log.gz", fx->dir);
    gzFile g = gzopen(gz, "wb");
    assert_non_null(g);
    gzputs(g, "step 4\nKilled\n");
    gzclose(g);
    assert_int_equal(od_job_add_path(fx->job, gz), 0);
    assert_int_equal(fx->job->finding_count, 2);
    assert_string_equal(fx->job->findings[1].sig->id, "killed");
    assert_int_equal(fx->job->findings[1].step_at, 4);

    const char le[] = "\xff\xfeK\0i\0l\0l\0e\0d\0\n\0";
    write_file(fx->dir, "win.log", le, sizeof le - 1);
    char w[4096];
    snprintf(w, sizeof w, "%s/win.log", fx->dir);
    assert_int_equal(od_job_add_path(fx->job, w), 0);
    assert_int_equal(fx->job->finding_count, 3);
    assert_string_equal(fx->job->findings[2].sig->id, "killed");
}

static void test_reset_and_each_file(void **state)
{
    struct job_fixture *fx = *state;
    const char *p = put(fx, "a.log", "Killed\n");
    assert_int_equal(od_job_add_path(fx->job, p), 0);
    od_job_reset(fx->job);
    assert_int_equal(fx->job->input_count, 0);
    assert_int_equal(fx->job->finding_count, 0);
    p = put(fx, "b.log", "Segmentation fault\n");
    assert_int_equal(od_job_add_path(fx->job, p), 0);
    assert_int_equal(fx->job->finding_count, 1);
    assert_string_equal(fx->job->findings[0].sig->id, "segv");
    assert_int_equal(fx->job->sig_counts[fx->job->findings[0].sig->index], 1);
}

static int count_files(void *ctx, const char *path)
{
    (void)path;
    (*(int *)ctx)++;
    return 0;
}

static int stop_at_first(void *ctx, const char *path)
{
    (void)ctx;
    (void)path;
    return 9;
}

static void test_each_file(void **state)
{
    struct job_fixture *fx = *state;
    put(fx, "a.log", "x\n");
    put(fx, "b.log", "y\n");
    int n = 0;
    assert_int_equal(od_each_file(fx->dir, count_files, &n), 0);
    assert_int_equal(n, 2);
    assert_int_equal(od_each_file(fx->dir, stop_at_first, NULL), 9);
    char missing[4096];
    snprintf(missing, sizeof missing, "%s/nope", fx->dir);
    n = 0;
    od_each_file(missing, count_files, &n);
    assert_int_equal(n, 1); /* a path that cannot be walked is a job too */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_file_findings, job_fixture_setup, job_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_ranks, job_fixture_setup, job_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_directory_sorted, job_fixture_setup, job_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_no_text, job_fixture_setup, job_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_binary_as_text, job_fixture_setup, job_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_fd_gzip_utf16, job_fixture_setup, job_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_reset_and_each_file, job_fixture_setup, job_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_each_file, job_fixture_setup, job_fixture_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
