/* The progress line: only on a terminal (a pty stands in for stderr here),
 * never with -q or --no-progress; with --progress it is drawn at least
 * once, shows the size when the input is a file, and is cleared at the
 * end. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <fcntl.h>
#include <unistd.h>

#include "helpers.h"
#include "progress.h"

static void test_not_wanted(void **state)
{
    (void)state;
    struct cli_opts o;
    memset(&o, 0, sizeof o);
    const char *paths[] = {"-"};
    if (!isatty(STDERR_FILENO))
        assert_null(progress_start(&o, paths, 1)); /* not a terminal */
    progress_stop(NULL);
    progress_pause(NULL);
    progress_resume(NULL);
}

/* Runs FN with stderr on a pty; what the pty received. */
static char *on_pty(void (*fn)(void *), void *ctx)
{
    int master = posix_openpt(O_RDWR | O_NOCTTY);
    if (master < 0 || grantpt(master) != 0 || unlockpt(master) != 0)
        return NULL;
    int slave = open(ptsname(master), O_RDWR | O_NOCTTY);
    if (slave < 0)
        return NULL;
    fflush(stderr);
    int saved = dup(STDERR_FILENO);
    dup2(slave, STDERR_FILENO);
    close(slave);
    fn(ctx);
    fflush(stderr);
    dup2(saved, STDERR_FILENO);
    close(saved);
    char *buf = calloc(1, 8192);
    size_t n = 0;
    fcntl(master, F_SETFL, O_NONBLOCK);
    ssize_t k;
    while (n < 8191 && (k = read(master, buf + n, 8191 - n)) > 0)
        n += (size_t)k;
    close(master);
    return buf;
}

struct job {
    struct cli_opts o;
    const char *path;
    int started;
};

static void read_with_progress(void *ctx)
{
    struct job *j = ctx;
    const char *paths[] = {j->path};
    struct progress *p = progress_start(&j->o, paths, 1);
    j->started = p != NULL;
    char *text = read_whole_file(j->path, NULL);
    free(text);
    progress_pause(p);
    progress_resume(p);
    progress_stop(p);
}

static void test_on_a_terminal(void **state)
{
    (void)state;
    char *dir = tmpdir_create();
    static char data[200000];
    memset(data, 'x', sizeof data);
    write_file(dir, "big.log", data, sizeof data);
    char path[4096];
    snprintf(path, sizeof path, "%s/big.log", dir);

    struct job j;
    memset(&j, 0, sizeof j);
    j.path = path;
    j.o.progress = CLI_PROGRESS_ALWAYS;
    char *seen = on_pty(read_with_progress, &j);
    if (seen == NULL) {
        tmpdir_remove(dir);
        skip(); /* no ptys here */
        return;
    }
    assert_true(j.started);
    /* "oomdiag: 195.31 KiB of 195.31 KiB (100%), 0:00 left", then cleared. */
    if (strstr(seen, " of 195.31 KiB (") == NULL)
        print_error("pty got: %s\n", seen);
    assert_non_null(strstr(seen, "\roomdiag: "));
    assert_non_null(strstr(seen, " of 195.31 KiB ("));
    assert_non_null(strstr(seen, "%), "));
    size_t len = strlen(seen);
    assert_true(len >= 4);
    assert_string_equal(seen + len - 4, "\r\033[K"); /* the line is cleared at the end */
    free(seen);

    /* -q and --no-progress: nothing, even on a terminal. */
    j.o.progress = CLI_PROGRESS_NEVER;
    seen = on_pty(read_with_progress, &j);
    assert_false(j.started);
    assert_string_equal(seen, "");
    free(seen);
    j.o.progress = CLI_PROGRESS_ALWAYS;
    j.o.quiet = 1;
    seen = on_pty(read_with_progress, &j);
    assert_false(j.started);
    free(seen);
    /* Automatic: started on a terminal (it draws after PROGRESS_DELAY_MS). */
    j.o.quiet = 0;
    j.o.progress = CLI_PROGRESS_AUTO;
    seen = on_pty(read_with_progress, &j);
    assert_true(j.started);
    free(seen);
    tmpdir_remove(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_not_wanted),
        cmocka_unit_test(test_on_a_terminal),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
