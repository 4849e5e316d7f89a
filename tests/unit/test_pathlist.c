#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <errno.h>

#include "helpers.h"
#include "pathlist.h"

static struct pathlist read_list(const char *data, size_t len)
{
    char *dir = tmpdir_create();
    write_file(dir, "list", data, len);
    char path[4096];
    snprintf(path, sizeof path, "%s/list", dir);
    struct pathlist l;
    assert_int_equal(pathlist_read(path, &l), 0);
    tmpdir_remove(dir);
    return l;
}

static void test_newlines(void **state)
{
    (void)state;
    const char data[] = "a.log\r\n\nlogs/b.log\n  spaced name.log\nlast";
    struct pathlist l = read_list(data, sizeof data - 1);
    assert_int_equal(l.count, 4);             /* the empty line is skipped */
    assert_string_equal(l.paths[0], "a.log"); /* CRLF: the CR goes */
    assert_string_equal(l.paths[1], "logs/b.log");
    assert_string_equal(l.paths[2], "  spaced name.log"); /* kept as written */
    assert_string_equal(l.paths[3], "last");
    pathlist_free(&l);
    assert_int_equal(l.count, 0);
    assert_null(l.paths);
}

/* One NUL anywhere means NUL-separated: newlines are then part of names. */
static void test_nul_separated(void **state)
{
    (void)state;
    const char data[] = "a\nb.log\0c.log\0\0d\r";
    struct pathlist l = read_list(data, sizeof data - 1);
    assert_int_equal(l.count, 3);
    assert_string_equal(l.paths[0], "a\nb.log");
    assert_string_equal(l.paths[1], "c.log");
    assert_string_equal(l.paths[2], "d\r"); /* no CR stripping with NULs */
    pathlist_free(&l);
}

static void test_empty_and_big(void **state)
{
    (void)state;
    struct pathlist l = read_list("", 0);
    assert_int_equal(l.count, 0);
    pathlist_free(&l);
    /* More than one read buffer (64 KiB) of names. */
    size_t n = 20000, len = 0;
    char *data = malloc(n * 16);
    assert_non_null(data);
    for (size_t i = 0; i < n; i++)
        len += (size_t)snprintf(data + len, n * 16 - len, "f%07zu.log\n", i);
    l = read_list(data, len);
    assert_int_equal(l.count, n);
    assert_string_equal(l.paths[0], "f0000000.log");
    assert_string_equal(l.paths[n - 1], "f0019999.log");
    pathlist_free(&l);
    free(data);
}

static void test_stdin(void **state)
{
    (void)state;
    int saved = dup(0);
    int fd = pipe_with("x.log\ny.log\n", 12);
    assert_int_equal(dup2(fd, 0), 0);
    close(fd);
    struct pathlist l;
    int rc = pathlist_read("-", &l);
    dup2(saved, 0);
    close(saved);
    assert_int_equal(rc, 0);
    assert_int_equal(l.count, 2);
    assert_string_equal(l.paths[1], "y.log");
    pathlist_free(&l);
}

static void test_missing_file(void **state)
{
    (void)state;
    struct pathlist l;
    errno = 0;
    assert_int_equal(pathlist_read("/nonexistent/oomdiag/list", &l), -1);
    assert_int_equal(errno, ENOENT);
    assert_int_equal(l.count, 0);
    pathlist_free(&l); /* safe after a failure */
    /* A directory cannot be read as a list. */
    char *dir = tmpdir_create();
    assert_int_equal(pathlist_read(dir, &l), -1);
    assert_int_equal(errno, EISDIR);
    tmpdir_remove(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_newlines), cmocka_unit_test(test_nul_separated), cmocka_unit_test(test_empty_and_big),
        cmocka_unit_test(test_stdin),    cmocka_unit_test(test_missing_file),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
