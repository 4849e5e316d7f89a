#include "follow.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "follow_stall.h"
#include "msg.h"
#include "session.h"
#include "sysio.h"
#include "walk.h"

enum { FOLLOW_CHUNK = 128 * 1024 };

static volatile sig_atomic_t stop_signal;

static void on_stop(int sig)
{
    stop_signal = sig;
}

/* One file being followed: the file itself, or one under a followed
 * directory.  Each version of it (after a rotation or truncation) is an
 * input of its own. */
struct watched {
    char *path;
    struct od_feed *feed; /* its current input, NULL while it is not open */
    int fd;
    dev_t dev;
    ino_t ino;
    off_t offset;
    char head[64]; /* the file's first bytes: a rewritten file differs */
    size_t head_len;
};

struct follower {
    const struct cli_opts *o;
    od_msg_fn fn;
    void *ctx;
    struct od_job *job;
    struct session s; /* new root causes only, each rendered once complete */
    int is_dir; /* --follow DIR: one job of every file under it, found as they appear */
    struct watched *w;
    size_t nw;
    size_t findings_seen; /* job findings at the last report */
    double last_data, new_since;
    int trouble;
    struct follow_stall stall; /* --stall */
};


static void note(struct follower *f, enum od_severity sev, const char *path, const char *text)
{
    if (f->o->quiet && sev != OD_SEV_ERROR)
        return;
    msg_say(f->fn, f->ctx, sev, path, text);
}

static void end_input(struct follower *f, struct watched *w)
{
    if (w->feed == NULL)
        return;
    if (od_feed_close(w->feed) != 0) {
        note(f, OD_SEV_ERROR, NULL, "out of memory");
        f->trouble = 1;
    }
    w->feed = NULL;
}

static int begin_input(struct follower *f, struct watched *w)
{
    w->feed = od_feed_open(f->job, w->path);
    if (w->feed == NULL) {
        note(f, OD_SEV_ERROR, NULL, "out of memory");
        return -1;
    }
    w->offset = 0;
    w->head_len = 0;
    return 0;
}

/* Classifies what was read so far and reports the root causes not yet
 * reported. */
static void report_new(struct follower *f)
{
    for (size_t i = 0; i < f->nw; i++)
        if (f->w[i].feed != NULL)
            od_feed_counts(f->w[i].feed);
    f->findings_seen = od_job_finding_count(f->job);
    f->new_since = 0;
    if (session_job(&f->s, f->job, f->o->follow, SESSION_NEW_ROOTS) < 0 && !f->s.write_failed)
        note(f, OD_SEV_ERROR, NULL, "out of memory");
}

static void maybe_report(struct follower *f)
{
    if (od_job_finding_count(f->job) == f->findings_seen)
        return;
    double t = sysio_now_s();
    if (f->new_since == 0)
        f->new_since = t;
    if ((t - f->last_data) * 1000 >= FOLLOW_SETTLE_MS || (t - f->new_since) * 1000 >= FOLLOW_MAX_WAIT_MS)
        report_new(f);
}

static void nap(void)
{
    struct timespec ts = {0, FOLLOW_POLL_MS * 1000000L};
    nanosleep(&ts, NULL);
}

/* Opens W's file. 0, or -1 (not there yet, or not a file to read). */
static int open_file(struct follower *f, struct watched *w)
{
    int fd = open(w->path, O_RDONLY | O_CLOEXEC);
    struct stat st;
    if (fd < 0)
        return -1;
    if (fstat(fd, &st) != 0 || S_ISDIR(st.st_mode)) {
        close(fd);
        return -1;
    }
    w->fd = fd;
    w->dev = st.st_dev;
    w->ino = st.st_ino;
    return begin_input(f, w);
}

static void report_new(struct follower *f);

/* A truncated or replaced file starts over.  A followed file starts a new
 * job, what the old one showed reported first; a file under a followed
 * directory starts a new input of the same job. */
static void start_over(struct follower *f, struct watched *w)
{
    end_input(f, w);
    if (f->is_dir)
        return;
    report_new(f);
    od_job_reset(f->job);
    for (size_t i = 0; i < f->s.reported_count; i++)
        free(f->s.reported[i]);
    f->s.reported_count = 0; /* a new job: its root causes are new */
    f->findings_seen = 0;
}

/* Does the file still start with the bytes it started with? */
static int same_head(const struct watched *w)
{
    char now[sizeof w->head];
    if (w->head_len == 0)
        return 1;
    ssize_t got = pread(w->fd, now, w->head_len, 0);
    return got == (ssize_t)w->head_len && memcmp(now, w->head, w->head_len) == 0;
}

/* Before reading on after a pause: has the file been truncated (or
 * truncated and written again) or replaced? */
static void check_file(struct follower *f, struct watched *w)
{
    struct stat mine, named;
    if (w->fd < 0)
        return;
    if (fstat(w->fd, &mine) == 0 && S_ISREG(mine.st_mode) && (mine.st_size < w->offset || !same_head(w))) {
        note(f, OD_SEV_NOTE, w->path, "file truncated: reading it from the start");
        start_over(f, w);
        lseek(w->fd, 0, SEEK_SET);
        if (begin_input(f, w) != 0)
            f->trouble = 1;
        return;
    }
    if (stat(w->path, &named) != 0 || (named.st_dev == w->dev && named.st_ino == w->ino))
        return; /* gone for now (being rotated), or still the same file */
    note(f, OD_SEV_NOTE, w->path, "file replaced (rotated): following the new file");
    start_over(f, w);
    close(w->fd);
    w->fd = -1;
}

static struct watched *add_watched(struct follower *f, const char *path)
{
    struct watched *grown = realloc(f->w, (f->nw + 1) * sizeof *f->w);
    char *copy = strdup(path);
    if (grown == NULL || copy == NULL) {
        free(copy);
        if (grown != NULL)
            f->w = grown;
        return NULL;
    }
    f->w = grown;
    struct watched *w = &f->w[f->nw++];
    memset(w, 0, sizeof *w);
    w->path = copy;
    w->fd = -1;
    w->feed = NULL;
    return w;
}

static int on_found(void *ctx, const char *path, int depth)
{
    struct follower *f = ctx;
    (void)depth;
    for (size_t i = 0; i < f->nw; i++)
        if (strcmp(f->w[i].path, path) == 0)
            return 0;
    if (add_watched(f, path) == NULL) {
        note(f, OD_SEV_ERROR, NULL, "out of memory");
        f->trouble = 1;
        return 1;
    }
    return 0;
}

static void on_walk_problem(void *ctx, const char *path, enum walk_problem what, int err)
{
    (void)ctx, (void)path, (void)what, (void)err; /* an empty or changing tree: look again later */
}

/* --follow DIR: the files under DIR not followed yet join the job. */
static void find_files(struct follower *f)
{
    struct walk_ops ops = {on_found, on_walk_problem, f};
    walk_path(f->o->follow, &ops);
}

/* Reads what W's file has now (at most one chunk).  1 when bytes came. */
static int read_some(struct follower *f, struct watched *w, char *buf)
{
    if (w->fd < 0 && open_file(f, w) != 0)
        return 0;
    ssize_t n = read(w->fd, buf, FOLLOW_CHUNK);
    if (n < 0 && errno == EINTR)
        return 1;
    if (n < 0) {
        note(f, OD_SEV_ERROR, w->path, strerror(errno));
        f->trouble = 1;
        return 0;
    }
    if (n == 0)
        return 0;
    if (w->head_len < sizeof w->head && (off_t)w->head_len == w->offset) {
        size_t k = sizeof w->head - w->head_len < (size_t)n ? sizeof w->head - w->head_len : (size_t)n;
        memcpy(w->head + w->head_len, buf, k);
        w->head_len += k;
    }
    w->offset += n;
    f->last_data = sysio_now_s();
    if (od_feed_push(w->feed, buf, (size_t)n) != 0) {
        note(f, OD_SEV_ERROR, NULL, "out of memory");
        f->trouble = 1;
    }
    return 1;
}

/* Reads and reports until a stop signal or trouble. */
static void follow_loop(struct follower *f, char *buf)
{
    int waiting_said = 0;
    f->last_data = sysio_now_s();
    follow_stall_init(&f->stall, f->o->stall_s, f->last_data);
    while (!stop_signal && !f->trouble && !f->s.trouble) {
        if (f->is_dir)
            find_files(f);
        int got = 0;
        for (size_t i = 0; i < f->nw && !f->trouble; i++)
            got |= read_some(f, &f->w[i], buf);
        if ((f->nw == 0 || (!f->is_dir && f->w[0].fd < 0)) && !waiting_said) {
            note(f, OD_SEV_NOTE, f->o->follow,
                 f->is_dir ? "waiting for a file to appear in the directory" : "waiting for the file to appear");
            waiting_said = 1;
        }
        /* Quiet now: a line held while its rest might follow is read as it is. */
        if (!got && od_job_settle(f->job) != 0) {
            note(f, OD_SEV_ERROR, NULL, "out of memory");
            f->trouble = 1;
        }
        maybe_report(f);
        if (follow_stall_check(&f->stall, f->job, f->last_data, sysio_now_s()))
            report_new(f);
        if (got)
            continue;
        nap();
        for (size_t i = 0; i < f->nw; i++)
            check_file(f, &f->w[i]);
    }
}

/* The session: reports on stdout, each flushed at once. */
static int start_session(struct session *s, const struct cli_opts *o, const struct od_ruleset *rs, const char *lang,
                         const struct od_words *words, const struct fail_on *fail_on)
{
    struct session_opts sop = {
        stdout,
        {o->format, cli_use_color(o, STDOUT_FILENO), o->trace, o->max_evidence, od_ruleset_version(rs), lang, words,
         cli_text_width(o, STDOUT_FILENO), NULL},
        fail_on,
        o->quiet,
        NULL,
        NULL,
        NULL,
        1,
        o->compact,
        0};
    return session_init(s, &sop);
}

int follow_main(const struct cli_opts *o, const struct od_ruleset *rs, const char *lang, const struct od_words *words,
                const struct fail_on *fail_on, od_msg_fn fn, void *ctx)
{
    struct follower f;
    memset(&f, 0, sizeof f);
    f.o = o;
    f.fn = fn;
    f.ctx = ctx;
    struct od_scan_opts so = {o->binary_as_text, o->no_messages, o->trace};
    int ready = start_session(&f.s, o, rs, lang, words, fail_on) == 0;
    f.job = od_job_create(rs, &so, fn, ctx);
    char *buf = malloc(FOLLOW_CHUNK);
    if (f.job == NULL || !ready || buf == NULL) {
        note(&f, OD_SEV_ERROR, NULL, "out of memory");
        od_job_free(f.job);
        session_free(&f.s);
        free(buf);
        return OD_EXIT_TROUBLE;
    }
    struct sigaction sa, old[3];
    static const int stops[3] = {SIGINT, SIGTERM, SIGHUP};
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop;
    sigemptyset(&sa.sa_mask);
    for (int i = 0; i < 3; i++)
        sigaction(stops[i], &sa, &old[i]);
    stop_signal = 0;
    struct stat st;
    f.is_dir = stat(o->follow, &st) == 0 && S_ISDIR(st.st_mode);
    if (!f.is_dir && add_watched(&f, o->follow) == NULL) {
        note(&f, OD_SEV_ERROR, NULL, "out of memory");
        f.trouble = 1;
    }
    follow_loop(&f, buf);
    for (int i = 0; i < 3; i++)
        sigaction(stops[i], &old[i], NULL);
    for (size_t i = 0; i < f.nw; i++) {
        end_input(&f, &f.w[i]);
        if (f.w[i].fd >= 0)
            close(f.w[i].fd);
    }
    follow_stall_end(&f.stall);
    report_new(&f);
    session_finish(&f.s);
    f.s.trouble |= f.trouble;
    int status = session_status(&f.s);
    od_job_free(f.job);
    session_free(&f.s);
    for (size_t i = 0; i < f.nw; i++)
        free(f.w[i].path);
    free(f.w);
    free(buf);
    return status;
}
