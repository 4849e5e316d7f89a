/* Passing a stream on: both paths (tee + splice between pipes, and read +
 * write) deliver the same bytes to the destination and to the scan; the
 * log copy forces the copying path; a closed reader stops only the
 * destination; the end of the input is 0. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include "helpers.h"
#include "relay.h"

static size_t drain(int fd, char *out, size_t room)
{
    int fl = fcntl(fd, F_GETFL);
    fcntl(fd, F_SETFL, fl | O_NONBLOCK);
    size_t n = 0;
    ssize_t k;
    while (n < room && (k = read(fd, out + n, room - n)) > 0)
        n += (size_t)k;
    fcntl(fd, F_SETFL, fl);
    return n;
}

struct copied {
    char text[256];
    size_t len;
    int calls;
};

static void on_copy(void *ctx, const char *p, size_t n)
{
    struct copied *c = ctx;
    memcpy(c->text + c->len, p, n);
    c->len += n;
    c->calls++;
}

/* Relays MSG from a pipe to a pipe and a scan pipe; FAST: try tee. */
static void relay_pipes(int fast, int with_copy)
{
    static const char msg[] = "line one\nline two\n";
    int from[2], to[2], scan[2];
    assert_int_equal(pipe(from), 0);
    assert_int_equal(pipe(to), 0);
    assert_int_equal(pipe(scan), 0);
    assert_int_equal(write(from[1], msg, sizeof msg - 1), (ssize_t)(sizeof msg - 1));
    char buf[64];
    struct relay r = {from[0], to[1], scan[1], fast, 0, buf, sizeof buf, 0};
    struct copied c = {{0}, 0, 0};
    ssize_t n = relay_once(&r, with_copy ? on_copy : NULL, &c);
    assert_int_equal(n, (ssize_t)(sizeof msg - 1));
    char got[128];
    assert_int_equal(drain(to[0], got, sizeof got), sizeof msg - 1);
    assert_memory_equal(got, msg, sizeof msg - 1);
    assert_int_equal(drain(scan[0], got, sizeof got), sizeof msg - 1);
    assert_memory_equal(got, msg, sizeof msg - 1);
    if (with_copy) {
        assert_int_equal(c.len, sizeof msg - 1);
        assert_memory_equal(c.text, msg, sizeof msg - 1);
    } else {
        assert_int_equal(c.calls, 0);
    }
    close(from[1]);
    assert_int_equal(relay_once(&r, with_copy ? on_copy : NULL, &c), 0); /* the end */
    for (int i = 0; i < 2; i++) {
        close(from[i]);
        close(to[i]);
        close(scan[i]);
    }
}

static void test_fast_path(void **state)
{
    (void)state;
    relay_pipes(1, 0);
}

static void test_copy_path(void **state)
{
    (void)state;
    relay_pipes(0, 0);
    relay_pipes(1, 1); /* a log copy: the bytes must pass through BUF */
}

/* A destination that is a file takes the bytes whichever path is tried. */
static void test_file_destination_no_scan(void **state)
{
    (void)state;
    char *dir = tmpdir_create();
    char path[4096];
    snprintf(path, sizeof path, "%s/out", dir);
    int out = open(path, O_WRONLY | O_CREAT | O_APPEND, 0600);
    assert_true(out >= 0);
    int from = pipe_with("appended\n", 9);
    char buf[4];
    struct relay r = {from, out, -1, 1, 0, buf, sizeof buf, 0};
    size_t total = 0;
    ssize_t n;
    while ((n = relay_once(&r, NULL, NULL)) > 0) {
        assert_true(n <= 4); /* at most a buffer at a time */
        total += (size_t)n;
    }
    assert_int_equal(n, 0);
    assert_int_equal(total, 9);
    close(out);
    close(from);
    char *text = read_whole_file(path, NULL);
    assert_string_equal(text, "appended\n");
    free(text);
    tmpdir_remove(dir);
}

/* The reader of the destination went away: the destination gets nothing
 * more, but the scan still gets everything. */
static void test_closed_destination(void **state)
{
    (void)state;
    struct sigaction ign = {0}, old;
    ign.sa_handler = SIG_IGN;
    sigaction(SIGPIPE, &ign, &old);
    for (int fast = 0; fast <= 1; fast++) {
        int from[2], to[2], scan[2];
        assert_int_equal(pipe(from), 0);
        assert_int_equal(pipe(to), 0);
        assert_int_equal(pipe(scan), 0);
        close(to[0]);
        assert_int_equal(write(from[1], "abc\n", 4), 4);
        char buf[64];
        struct relay r = {from[0], to[1], scan[1], fast, 0, buf, sizeof buf, 0};
        assert_int_equal(relay_once(&r, NULL, NULL), 4);
        assert_int_equal(r.to_failed, 1);
        char got[16];
        assert_int_equal(drain(scan[0], got, sizeof got), 4);
        assert_memory_equal(got, "abc\n", 4);
        assert_int_equal(write(from[1], "de\n", 3), 3);
        assert_int_equal(relay_once(&r, NULL, NULL), 3);
        assert_int_equal(drain(scan[0], got, sizeof got), 3);
        close(from[0]);
        close(from[1]);
        close(to[1]);
        close(scan[0]);
        close(scan[1]);
    }
    sigaction(SIGPIPE, &old, NULL);
}

/* No destination (-1): only the scan is fed. */
static void test_no_destination(void **state)
{
    (void)state;
    int scan[2];
    assert_int_equal(pipe(scan), 0);
    int from = pipe_with("only scanned\n", 13);
    char buf[64];
    struct relay r = {from, -1, scan[1], 0, 0, buf, sizeof buf, 0};
    assert_int_equal(relay_once(&r, NULL, NULL), 13);
    char got[32];
    assert_int_equal(drain(scan[0], got, sizeof got), 13);
    assert_int_equal(r.to_failed, 0);
    close(from);
    close(scan[0]);
    close(scan[1]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fast_path),
        cmocka_unit_test(test_copy_path),
        cmocka_unit_test(test_file_destination_no_scan),
        cmocka_unit_test(test_closed_destination),
        cmocka_unit_test(test_no_destination),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
