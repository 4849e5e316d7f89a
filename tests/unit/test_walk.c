#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <errno.h>
#include <sys/stat.h>

#include "helpers.h"
#include "walk.h"

struct seen {
    char files[32][512];
    int depths[32];
    size_t nfiles;
    enum walk_problem problems[32];
    int errs[32];
    size_t nproblems;
    const char *stop_at; /* FILE returns 7 here */
    const char *fail_at; /* FILE returns -1 here */
    size_t skip;         /* strlen of the tree's root, left off the names */
};

static int on_file(void *ctx, const char *path, int depth)
{
    struct seen *s = ctx;
    const char *name = strlen(path) >= s->skip ? path + s->skip : path;
    if (s->nfiles < 32) {
        snprintf(s->files[s->nfiles], sizeof s->files[0], "%s", name);
        s->depths[s->nfiles] = depth;
    }
    s->nfiles++;
    if (s->stop_at && strcmp(name, s->stop_at) == 0)
        return 7;
    if (s->fail_at && strcmp(name, s->fail_at) == 0)
        return -1;
    return 0;
}

static void on_problem(void *ctx, const char *path, enum walk_problem what, int err)
{
    (void)path;
    struct seen *s = ctx;
    if (s->nproblems < 32) {
        s->problems[s->nproblems] = what;
        s->errs[s->nproblems] = err;
    }
    s->nproblems++;
}

static char *tree(void)
{
    char *dir = tmpdir_create();
    char p[4096];
    snprintf(p, sizeof p, "%s/sub", dir);
    assert_int_equal(mkdir(p, 0700), 0);
    snprintf(p, sizeof p, "%s/sub/deeper", dir);
    assert_int_equal(mkdir(p, 0700), 0);
    write_file(dir, "b.log", "b", 1);
    write_file(dir, "a.log", "a", 1);
    write_file(dir, "sub/c.log", "c", 1);
    write_file(dir, "sub/deeper/d.log", "d", 1);
    return dir;
}

static int walk(const char *path, struct seen *s)
{
    struct walk_ops ops = {on_file, on_problem, s};
    return walk_path(path, &ops);
}

static void test_sorted_recursive(void **state)
{
    (void)state;
    char *dir = tree();
    char p[4096];
    snprintf(p, sizeof p, "%s/fifo", dir);
    assert_int_equal(mkfifo(p, 0600), 0); /* inside a tree: left out */
    struct seen s = {.skip = strlen(dir)};
    assert_int_equal(walk(dir, &s), 0);
    assert_int_equal(s.nfiles, 4);
    assert_string_equal(s.files[0], "/a.log");
    assert_string_equal(s.files[1], "/b.log");
    assert_string_equal(s.files[2], "/sub/c.log");
    assert_string_equal(s.files[3], "/sub/deeper/d.log");
    assert_int_equal(s.depths[0], 1);
    assert_int_equal(s.depths[3], 3);
    assert_int_equal(s.nproblems, 0);
    /* A trailing slash gives no double slash. */
    char slashed[4096];
    snprintf(slashed, sizeof slashed, "%s/sub/", dir);
    struct seen t = {.skip = strlen(dir)};
    assert_int_equal(walk(slashed, &t), 0);
    assert_string_equal(t.files[0], "/sub/c.log");
    /* A file given as itself is depth 0. */
    snprintf(p, sizeof p, "%s/a.log", dir);
    struct seen u = {0};
    assert_int_equal(walk(p, &u), 0);
    assert_int_equal(u.nfiles, 1);
    assert_int_equal(u.depths[0], 0);
    assert_string_equal(u.files[0], p);
    tmpdir_remove(dir);
}

static void test_results(void **state)
{
    (void)state;
    char *dir = tree();
    /* A positive result stops the walk and is returned. */
    struct seen s = {.skip = strlen(dir), .stop_at = "/b.log"};
    assert_int_equal(walk(dir, &s), 7);
    assert_int_equal(s.nfiles, 2);
    /* A negative one is remembered, and the walk goes on. */
    struct seen t = {.skip = strlen(dir), .fail_at = "/a.log"};
    assert_int_equal(walk(dir, &t), -1);
    assert_int_equal(t.nfiles, 4);
    tmpdir_remove(dir);
}

static void test_problems(void **state)
{
    (void)state;
    struct seen s = {0};
    assert_int_equal(walk("/nonexistent/oomdiag-walk", &s), -1);
    assert_int_equal(s.nproblems, 1);
    assert_int_equal(s.problems[0], WALK_ERRNO);
    assert_int_equal(s.errs[0], ENOENT);

    char *dir = tmpdir_create();
    char p[4096];
    snprintf(p, sizeof p, "%s/empty", dir);
    assert_int_equal(mkdir(p, 0700), 0);
    struct seen e = {0};
    assert_int_equal(walk(dir, &e), -1); /* a tree without files */
    assert_int_equal(e.nproblems, 1);
    assert_int_equal(e.problems[0], WALK_EMPTY_DIR);

    /* A link back to a parent is a loop: skipped, said, not an error. */
    write_file(dir, "empty/x.log", "x", 1);
    snprintf(p, sizeof p, "%s/empty/up", dir);
    assert_int_equal(symlink("..", p), 0);
    struct seen l = {.skip = strlen(dir)};
    assert_int_equal(walk(dir, &l), 0);
    assert_int_equal(l.nfiles, 1);
    assert_int_equal(l.nproblems, 1);
    assert_int_equal(l.problems[0], WALK_LOOP);
    tmpdir_remove(dir);
}

static void test_too_deep(void **state)
{
    (void)state;
    char *dir = tmpdir_create();
    char p[8192];
    size_t n = (size_t)snprintf(p, sizeof p, "%s", dir);
    for (int i = 0; i < WALK_MAX_DEPTH + 1; i++) {
        n += (size_t)snprintf(p + n, sizeof p - n, "/d");
        assert_int_equal(mkdir(p, 0700), 0);
        if (i == 2)
            write_file(p, "shallow.log", "s", 1);
    }
    write_file(p, "deep.log", "d", 1);
    struct seen s = {.skip = strlen(dir)};
    assert_int_equal(walk(dir, &s), 0);
    assert_int_equal(s.nfiles, 1); /* the shallow one only */
    assert_int_equal(s.nproblems, 1);
    assert_int_equal(s.problems[0], WALK_TOO_DEEP);
    tmpdir_remove(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sorted_recursive),
        cmocka_unit_test(test_results),
        cmocka_unit_test(test_problems),
        cmocka_unit_test(test_too_deep),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
