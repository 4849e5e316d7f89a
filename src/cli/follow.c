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

#include "feed.h"
#include "job.h"
#include "linesplit.h"

enum { FOLLOW_CHUNK = 128 * 1024, FOLLOW_KEY = 512 };

static volatile sig_atomic_t stop_signal;

static void on_stop(int sig)
{
    stop_signal = sig;
}

struct follower {
    const struct cli_opts *o;
    od_msg_fn fn;
    void *ctx;
    struct od_job *job;
    struct od_renderer *rend;
    struct linesplit ls;
    long input; /* the current input, -1 before the file first opens */
    int fd;
    dev_t dev;
    ino_t ino;
    off_t offset;
    char head[64]; /* the input's first bytes: a rewritten file differs */
    size_t head_len;
    char (*reported)[FOLLOW_KEY]; /* root causes already reported */
    size_t reported_count;
    size_t findings_seen; /* job findings at the last report */
    double last_data, new_since;
    int diagnosed, trouble;
};

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void note(struct follower *f, enum od_severity sev, const char *text)
{
    if (f->o->quiet && sev != OD_SEV_ERROR)
        return;
    struct od_message m = {sev, f->o->follow, 0, 0, text, NULL, 0};
    f->fn(f->ctx, &m);
}

static int on_line(void *ctx, const struct line *ln, unsigned long long newlines)
{
    struct follower *f = ctx;
    (void)newlines;
    return ln ? od_job_feed_line(f->job, (size_t)f->input, ln) : 0;
}

static void end_input(struct follower *f)
{
    if (f->input < 0)
        return;
    linesplit_end(&f->ls, on_line, f);
    od_job_feed_end(f->job, (size_t)f->input, linesplit_lines(&f->ls), f->ls.bytes);
    linesplit_free(&f->ls);
    f->input = -1;
}

static int begin_input(struct follower *f)
{
    f->input = od_job_feed_begin(f->job, f->o->follow);
    if (f->input < 0 || linesplit_init(&f->ls) != 0) {
        note(f, OD_SEV_ERROR, "out of memory");
        return -1;
    }
    f->offset = 0;
    f->head_len = 0;
    return 0;
}

static int was_reported(struct follower *f, const char *key)
{
    for (size_t i = 0; i < f->reported_count; i++)
        if (strcmp(f->reported[i], key) == 0)
            return 1;
    return 0;
}

/* Renders root diagnosis ROOT of REP with its consequences, as one job. */
static int render_one(struct follower *f, const struct od_report *rep, size_t root)
{
    struct od_diagnosis *d = malloc(rep->count * sizeof *d);
    if (d == NULL)
        return -1;
    size_t n = 0;
    d[n] = rep->diagnoses[root];
    d[n++].consequence_of = -1;
    for (size_t i = 0; i < rep->count; i++)
        if (i != root && rep->diagnoses[i].role != OD_ROLE_ROOT && rep->diagnoses[i].consequence_of == (int)root) {
            d[n] = rep->diagnoses[i];
            d[n++].consequence_of = 0;
        }
    struct od_report one = *rep; /* its inputs, with this diagnosis alone */
    one.diagnoses = d;
    one.count = n;
    int rc = od_render_job(f->rend, &one);
    free(d);
    fflush(stdout);
    return rc;
}

/* Classifies what was read so far and reports the root causes not yet
 * reported. */
static void report_new(struct follower *f)
{
    if (f->input >= 0)
        od_job_feed_counts(f->job, (size_t)f->input, linesplit_lines(&f->ls), f->ls.bytes);
    f->findings_seen = f->job->finding_count;
    f->new_since = 0;
    struct od_report *rep = od_classify(f->job);
    if (rep == NULL) {
        note(f, OD_SEV_ERROR, "out of memory");
        f->trouble = 1;
        return;
    }
    for (size_t i = 0; i < rep->count; i++) {
        const struct od_diagnosis *d = &rep->diagnoses[i];
        if (d->role != OD_ROLE_ROOT)
            continue;
        char key[FOLLOW_KEY];
        snprintf(key, sizeof key, "%s|%lu", d->cause, d->evidence_count ? d->evidence[0].line : 0UL);
        if (was_reported(f, key))
            continue;
        void *grown = realloc(f->reported, (f->reported_count + 1) * sizeof *f->reported);
        if (grown == NULL) {
            f->trouble = 1;
            break;
        }
        f->reported = grown;
        snprintf(f->reported[f->reported_count++], FOLLOW_KEY, "%s", key);
        f->diagnosed = 1;
        if (!f->o->quiet && render_one(f, rep, i) != 0)
            f->trouble = 1;
    }
    od_report_free(rep);
}

static void maybe_report(struct follower *f)
{
    if (f->job->finding_count == f->findings_seen)
        return;
    double t = now_s();
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

/* Opens the followed file. 0, or -1 (not there yet). */
static int open_file(struct follower *f)
{
    int fd = open(f->o->follow, O_RDONLY | O_CLOEXEC);
    struct stat st;
    if (fd < 0)
        return -1;
    if (fstat(fd, &st) != 0 || S_ISDIR(st.st_mode)) {
        close(fd);
        return -1;
    }
    f->fd = fd;
    f->dev = st.st_dev;
    f->ino = st.st_ino;
    return begin_input(f);
}

static void report_new(struct follower *f);

/* A truncated or replaced file starts a new job: what the old one showed
 * is reported first. */
static void next_job(struct follower *f)
{
    end_input(f);
    report_new(f);
    od_job_reset(f->job);
    f->reported_count = 0;
    f->findings_seen = 0;
}

/* Does the file still start with the bytes it started with? */
static int same_head(struct follower *f)
{
    char now[sizeof f->head];
    if (f->head_len == 0)
        return 1;
    ssize_t got = pread(f->fd, now, f->head_len, 0);
    return got == (ssize_t)f->head_len && memcmp(now, f->head, f->head_len) == 0;
}

/* Before reading on after a pause: has the file been truncated (or
 * truncated and written again) or replaced? */
static void check_file(struct follower *f)
{
    struct stat mine, named;
    if (fstat(f->fd, &mine) == 0 && S_ISREG(mine.st_mode) && (mine.st_size < f->offset || !same_head(f))) {
        note(f, OD_SEV_NOTE, "file truncated: reading it from the start");
        next_job(f);
        lseek(f->fd, 0, SEEK_SET);
        if (begin_input(f) != 0)
            f->trouble = 1;
        return;
    }
    if (stat(f->o->follow, &named) != 0 || (named.st_dev == f->dev && named.st_ino == f->ino))
        return; /* gone for now (being rotated), or still the same file */
    note(f, OD_SEV_NOTE, "file replaced (rotated): following the new file");
    next_job(f);
    close(f->fd);
    f->fd = -1;
    if (open_file(f) != 0 && f->input < 0)
        f->fd = -1;
}

int follow_main(const struct cli_opts *o, const struct od_ruleset *rs, const char *lang, const struct od_words *words,
                od_msg_fn fn, void *ctx)
{
    struct follower f;
    memset(&f, 0, sizeof f);
    f.o = o;
    f.fn = fn;
    f.ctx = ctx;
    f.fd = -1;
    f.input = -1;
    struct od_scan_opts so = {o->binary_as_text, o->no_messages, o->trace};
    struct od_render_opts ro = {o->format,       cli_use_color(o, STDOUT_FILENO),  o->trace,
                                o->max_evidence, od_ruleset_version(rs),           lang,
                                words,           cli_text_width(o, STDOUT_FILENO), NULL};
    f.job = od_job_create(rs, &so, fn, ctx);
    f.rend = od_renderer_create(stdout, &ro);
    char *buf = malloc(FOLLOW_CHUNK);
    if (f.job == NULL || f.rend == NULL || buf == NULL) {
        note(&f, OD_SEV_ERROR, "out of memory");
        od_job_free(f.job);
        od_renderer_free(f.rend);
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
    int waiting_said = 0;
    f.last_data = now_s();
    while (!stop_signal && !f.trouble) {
        if (f.fd < 0) {
            if (open_file(&f) != 0) {
                if (!waiting_said) {
                    note(&f, OD_SEV_NOTE, "waiting for the file to appear");
                    waiting_said = 1;
                }
                nap();
                continue;
            }
        }
        ssize_t n = read(f.fd, buf, FOLLOW_CHUNK);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            char text[256];
            snprintf(text, sizeof text, "%s", strerror(errno));
            note(&f, OD_SEV_ERROR, text);
            f.trouble = 1;
            break;
        }
        if (n > 0) {
            if (f.head_len < sizeof f.head && (off_t)f.head_len == f.offset) {
                size_t k = sizeof f.head - f.head_len < (size_t)n ? sizeof f.head - f.head_len : (size_t)n;
                memcpy(f.head + f.head_len, buf, k);
                f.head_len += k;
            }
            f.offset += n;
            f.last_data = now_s();
            if (linesplit_push(&f.ls, buf, (size_t)n, on_line, &f) != 0) {
                note(&f, OD_SEV_ERROR, "out of memory");
                f.trouble = 1;
            }
            maybe_report(&f);
            continue;
        }
        maybe_report(&f);
        nap();
        check_file(&f);
    }
    for (int i = 0; i < 3; i++)
        sigaction(stops[i], &old[i], NULL);
    end_input(&f);
    if (f.fd >= 0)
        close(f.fd);
    report_new(&f);
    if (!o->quiet && od_renderer_finish(f.rend) != 0)
        f.trouble = 1;
    od_job_free(f.job);
    od_renderer_free(f.rend);
    free(f.reported);
    free(buf);
    if (o->quiet && f.diagnosed)
        return OD_EXIT_DIAGNOSED;
    return f.trouble ? OD_EXIT_TROUBLE : f.diagnosed ? OD_EXIT_DIAGNOSED : OD_EXIT_NONE;
}
