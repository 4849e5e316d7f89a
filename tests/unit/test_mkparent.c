#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "mkparent.h"

static char root[64];

static int setup(void **state)
{
    (void)state;
    snprintf(root, sizeof root, "/tmp/od-mkparent-XXXXXX");
    return mkdtemp(root) == NULL ? -1 : 0;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    return system(cmd) == 0 ? 0 : -1;
}

static int is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static void test_makes_every_level(void **state)
{
    (void)state;
    char path[256], dir[256];
    snprintf(path, sizeof path, "%s/logs/run1/train.log", root);
    assert_int_equal(mkparent(path), 0);
    snprintf(dir, sizeof dir, "%s/logs/run1", root);
    assert_true(is_dir(dir));
    /* The file itself is not made; a second call finds all in place. */
    assert_int_equal(access(path, F_OK), -1);
    assert_int_equal(mkparent(path), 0);
}

static void test_plain_names_need_nothing(void **state)
{
    (void)state;
    assert_int_equal(mkparent("train.log"), 0);
    assert_int_equal(mkparent("/train.log"), 0);
}

static void test_a_file_in_the_way(void **state)
{
    (void)state;
    char file[256], path[256];
    snprintf(file, sizeof file, "%s/plain", root);
    FILE *f = fopen(file, "w");
    assert_non_null(f);
    fclose(f);
    snprintf(path, sizeof path, "%s/plain/x.log", root);
    assert_int_equal(mkparent(path), ENOTDIR);
}

static void test_too_long(void **state)
{
    (void)state;
    size_t n = 70000;
    char *path = malloc(n + 1);
    assert_non_null(path);
    memset(path, 'a', n);
    path[n] = '\0';
    assert_int_equal(mkparent(path), ENAMETOOLONG);
    free(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_makes_every_level, setup, teardown),
        cmocka_unit_test(test_plain_names_need_nothing),
        cmocka_unit_test_setup_teardown(test_a_file_in_the_way, setup, teardown),
        cmocka_unit_test(test_too_long),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
