/* Shared helpers for the cmocka unit tests: a message collector for the
 * library's od_msg_fn, temporary files and directories, whole-file reads.
 * Include after <cmocka.h>; every helper is static inline so that a test
 * that does not use one gets no warning. */
#ifndef OOMDIAG_TEST_HELPERS_H
#define OOMDIAG_TEST_HELPERS_H

#include <fcntl.h>
#include <ftw.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "msg.h"
#include "oomdiag/oomdiag.h"

/* ---- messages ---------------------------------------------------------- */

enum { MSGS_MAX = 64 };

struct collected {
    enum od_severity sev;
    char file[256]; /* "" when the message had none */
    unsigned long line, col;
    char text[1024];
    int has_source;
    char source[1024];
    size_t caret;
};

struct msgs {
    size_t count;
    struct collected items[MSGS_MAX];
};

/* An od_msg_fn: CTX is a struct msgs. */
static inline void collect_msg(void *ctx, const struct od_message *m)
{
    struct msgs *ms = ctx;
    if (ms->count >= MSGS_MAX) {
        ms->count++;
        return;
    }
    struct collected *c = &ms->items[ms->count++];
    memset(c, 0, sizeof *c);
    c->sev = m->severity;
    snprintf(c->file, sizeof c->file, "%s", m->file ? m->file : "");
    c->line = m->line;
    c->col = m->col;
    snprintf(c->text, sizeof c->text, "%s", m->text);
    c->has_source = m->source != NULL;
    if (m->source)
        snprintf(c->source, sizeof c->source, "%s", m->source);
    c->caret = m->caret;
}

/* Prints every collected message: call before a failing assertion helps. */
static inline void dump_msgs(const struct msgs *ms)
{
    for (size_t i = 0; i < ms->count && i < MSGS_MAX; i++)
        print_message("msg[%zu] sev=%d %s:%lu:%lu: %s | source=%s caret=%zu\n", i, (int)ms->items[i].sev,
                      ms->items[i].file, ms->items[i].line, ms->items[i].col, ms->items[i].text,
                      ms->items[i].has_source ? ms->items[i].source : "(none)", ms->items[i].caret);
}

/* Asserts one collected message field by field. */
#define assert_msg(ms, i, sev_, file_, line_, col_, text_)                                                             \
    do {                                                                                                               \
        if ((ms)->count <= (i))                                                                                        \
            dump_msgs(ms);                                                                                             \
        assert_true((ms)->count > (i));                                                                                \
        assert_int_equal((ms)->items[i].sev, (sev_));                                                                  \
        assert_string_equal((ms)->items[i].file, (file_));                                                             \
        assert_int_equal((ms)->items[i].line, (line_));                                                                \
        assert_int_equal((ms)->items[i].col, (col_));                                                                  \
        assert_string_equal((ms)->items[i].text, (text_));                                                             \
    } while (0)

#define assert_msg_source(ms, i, source_, caret_)                                                                      \
    do {                                                                                                               \
        assert_true((ms)->items[i].has_source);                                                                        \
        assert_string_equal((ms)->items[i].source, (source_));                                                         \
        assert_int_equal((ms)->items[i].caret, (caret_));                                                              \
    } while (0)

/* ---- files ------------------------------------------------------------- */

/* A new empty directory under $TMPDIR or /tmp; the caller frees the path. */
static inline char *tmpdir_create(void)
{
    const char *base = getenv("TMPDIR");
    char tmpl[4096];
    snprintf(tmpl, sizeof tmpl, "%s/oomdiag-test-XXXXXX", base && base[0] ? base : "/tmp");
    char *dir = mkdtemp(tmpl);
    assert_non_null(dir);
    char *copy = strdup(dir);
    assert_non_null(copy);
    return copy;
}

static inline int tmpdir_remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    return remove(path);
}

/* Removes DIR and everything under it, and frees the path. */
static inline void tmpdir_remove(char *dir)
{
    if (dir == NULL)
        return;
    nftw(dir, tmpdir_remove_one, 16, FTW_DEPTH | FTW_PHYS);
    free(dir);
}

/* Writes LEN bytes of DATA to DIR/NAME (or to NAME when DIR is NULL). */
static inline void write_file(const char *dir, const char *name, const void *data, size_t len)
{
    char path[4096];
    if (dir)
        snprintf(path, sizeof path, "%s/%s", dir, name);
    else
        snprintf(path, sizeof path, "%s", name);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    if (len > 0)
        assert_int_equal(fwrite(data, 1, len, f), len);
    assert_int_equal(fclose(f), 0);
}

/* The whole file, NUL-terminated (the caller frees it); *LEN its size. */
static inline char *read_whole_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        print_error("cannot open %s\n", path);
    assert_non_null(f);
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap + 1);
    assert_non_null(buf);
    for (;;) {
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (n < cap)
            break;
        cap *= 2;
        buf = realloc(buf, cap + 1);
        assert_non_null(buf);
    }
    fclose(f);
    buf[n] = '\0';
    if (len)
        *len = n;
    return buf;
}

/* An unlinked temporary file holding DATA, positioned at its start. */
static inline int tmpfd_with(const void *data, size_t len)
{
    const char *base = getenv("TMPDIR");
    char tmpl[4096];
    snprintf(tmpl, sizeof tmpl, "%s/oomdiag-test-XXXXXX", base && base[0] ? base : "/tmp");
    int fd = mkstemp(tmpl);
    assert_true(fd >= 0);
    unlink(tmpl);
    const char *p = data;
    size_t left = len;
    while (left > 0) {
        ssize_t n = write(fd, p, left);
        assert_true(n > 0);
        p += n;
        left -= (size_t)n;
    }
    assert_int_equal(lseek(fd, 0, SEEK_SET), 0);
    return fd;
}

/* A pipe's read end holding DATA (at most a pipe buffer: 64 KiB), its write
 * end closed. */
static inline int pipe_with(const void *data, size_t len)
{
    int p[2];
    assert_int_equal(pipe(p), 0);
    if (len > 0)
        assert_int_equal(write(p[1], data, len), (ssize_t)len);
    close(p[1]);
    return p[0];
}

/* ---- rules, jobs, children ---------------------------------------------- */

/* The finished rule set of TEST_DATA/NAME (e.g. "classify/rules.json"),
 * its messages collected in MS; NULL if it does not load. */
/* A rule file with one cause CAUSE and one signature SIG of it. */
static inline void rule_text(char *buf, size_t size, const char *cause, const char *sig)
{
    snprintf(buf, size,
             "{\"oomdiag_rules\": 1,\n"
             " \"causes\": [{\"id\": \"%s\", \"title\": \"T\", \"explanation\": \"E\",\n"
             "              \"remediation\": [{\"id\": \"s1\", \"action\": \"A\"}]}],\n"
             " \"signatures\": [{\"id\": \"%s\", \"cause\": \"%s\", \"literal\": \"boom\", \"pattern\": \"boom\",\n"
             "                 \"samples\": {\"match\": [\"boom\"]}}]}\n",
             cause, sig, cause);
}

static inline struct od_ruleset *load_test_rules(const char *name, struct msgs *ms)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", TEST_DATA, name);
    struct od_ruleset *rs = od_ruleset_create(collect_msg, ms);
    if (rs != NULL && (od_ruleset_add_path(rs, path) != 0 || od_ruleset_finish(rs) != 0)) {
        dump_msgs(ms);
        od_ruleset_free(rs);
        rs = NULL;
    }
    return rs;
}

/* A job over classify/rules.json, as a cmocka fixture (*state). */
struct job_fixture {
    struct msgs msgs;
    struct od_ruleset *rs;
    struct od_job *job;
    char *dir; /* an empty temporary directory */
};

/* A test's own rules (tests/data/NAME), a job over them and a scratch
 * folder, into *RS, *MS, *JOB and *DIR: 0, or -1.  rules_job_close frees
 * them all and clears the pointers. */
static inline int rules_job_open(const char *name, struct od_ruleset **rs, struct msgs *ms, struct od_job **job,
                                 char **dir)
{
    memset(ms, 0, sizeof *ms);
    if ((*rs = load_test_rules(name, ms)) == NULL)
        return -1;
    *job = od_job_create(*rs, NULL, collect_msg, ms);
    *dir = tmpdir_create();
    return *job ? 0 : -1;
}

static inline void rules_job_close(struct od_ruleset **rs, struct od_job **job, char **dir)
{
    od_job_free(*job);
    od_ruleset_free(*rs);
    tmpdir_remove(*dir);
    *job = NULL;
    *rs = NULL;
    *dir = NULL;
}

static inline int job_fixture_setup(void **state)
{
    struct job_fixture *fx = calloc(1, sizeof *fx);
    if (fx == NULL || (fx->rs = load_test_rules("classify/rules.json", &fx->msgs)) == NULL)
        return -1;
    fx->job = od_job_create(fx->rs, NULL, collect_msg, &fx->msgs);
    fx->dir = tmpdir_create();
    *state = fx;
    return fx->job ? 0 : -1;
}

static inline int job_fixture_teardown(void **state)
{
    struct job_fixture *fx = *state;
    od_job_free(fx->job);
    od_ruleset_free(fx->rs);
    tmpdir_remove(fx->dir);
    free(fx);
    return 0;
}

/* An od_msg_fn that prints as main does, on stderr. */
static inline void print_msg_stderr(void *ctx, const struct od_message *m)
{
    (void)ctx;
    msg_print(stderr, m, 0);
}

/* Forks a child whose stdout and stderr go to DIR/out and DIR/err (made
 * anew, and gone in the parent until the child writes them) and whose
 * stdin holds STDIN_TEXT (NULL: left as it is).  Returns the child's pid
 * in the parent and 0 in the child, where a crash ends the child instead
 * of running cmocka's recovery in it. */
static inline pid_t fork_redirected(const char *dir, const char *stdin_text)
{
    char out[4096], err[4096];
    snprintf(out, sizeof out, "%s/out", dir);
    snprintf(err, sizeof err, "%s/err", dir);
    unlink(out);
    unlink(err);
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid != 0)
        return pid;
    signal(SIGSEGV, SIG_DFL);
    signal(SIGABRT, SIG_DFL);
    signal(SIGBUS, SIG_DFL);
    if (stdin_text != NULL) {
        int in = pipe_with(stdin_text, strlen(stdin_text));
        dup2(in, 0);
        close(in);
    }
    int o = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0600), e = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (o < 0 || e < 0)
        _exit(98);
    dup2(o, 1);
    dup2(e, 2);
    close(o);
    close(e);
    return 0;
}

/* DIR/NAME's whole text (the caller frees it). */
static inline char *read_in(const char *dir, const char *name)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return read_whole_file(path, NULL);
}

#endif
