#include "progress.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "size.h"
#include "sysio.h"

struct progress {
    pthread_t thread;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int stop, shown, ever_shown, always;
    long long total; /* bytes to read, -1 unknown */
    long long start_read;
    double start, delay_s;
};

/* Bytes this process has read so far, or -1. */
static long long bytes_read(void)
{
    FILE *f = fopen("/proc/self/io", "r");
    char line[128];
    long long v = -1;
    if (f == NULL)
        return -1;
    while (fgets(line, sizeof line, f) != NULL)
        if (strncmp(line, "rchar:", 6) == 0) {
            v = strtoll(line + 6, NULL, 10);
            break;
        }
    fclose(f);
    return v;
}


static void clear_line(struct progress *p)
{
    if (p->shown) {
        fputs("\r\033[K", stderr);
        fflush(stderr);
        p->shown = 0;
    }
}

static void draw(struct progress *p, double t)
{
    long long done = bytes_read() - p->start_read;
    if (done < 0)
        return;
    char have[32], all[32], text[160];
    size_format((long long)done, have, sizeof have);
    double elapsed = t - p->start, rate = elapsed > 0 ? (double)done / elapsed : 0;
    if (p->total > 0) {
        if (done > p->total)
            done = p->total;
        size_format((long long)p->total, all, sizeof all);
        double left = rate > 0 ? (double)(p->total - done) / rate : 0;
        snprintf(text, sizeof text, "oomdiag: %s of %s (%d%%), %ld:%02ld left", have, all,
                 (int)(100.0 * (double)done / (double)p->total), (long)left / 60, (long)left % 60);
    } else {
        char r[32];
        size_format((long long)rate, r, sizeof r);
        snprintf(text, sizeof text, "oomdiag: %s read, %s/s", have, r);
    }
    fprintf(stderr, "\r%s\033[K", text);
    fflush(stderr);
    p->shown = p->ever_shown = 1;
}

static void *tick(void *arg)
{
    struct progress *p = arg;
    pthread_mutex_lock(&p->mu);
    while (!p->stop) {
        double t = sysio_now_s();
        if (t - p->start >= p->delay_s)
            draw(p, t);
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_nsec += PROGRESS_TICK_MS * 1000000L;
        until.tv_sec += until.tv_nsec / 1000000000L;
        until.tv_nsec %= 1000000000L;
        pthread_cond_timedwait(&p->cv, &p->mu, &until);
    }
    if (p->always && !p->ever_shown)
        draw(p, sysio_now_s()); /* --progress: at least once, however short */
    clear_line(p);
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

struct progress *progress_start(const struct cli_opts *o, const char *const *paths, size_t n)
{
    if (o->progress == CLI_PROGRESS_NEVER || o->quiet || !isatty(STDERR_FILENO))
        return NULL;
    long long base = bytes_read();
    if (base < 0)
        return NULL;
    struct progress *p = calloc(1, sizeof *p);
    if (p == NULL)
        return NULL;
    p->total = 0;
    for (size_t i = 0; i < n; i++) {
        struct stat st;
        int ok = strcmp(paths[i], "-") == 0 ? fstat(STDIN_FILENO, &st) : stat(paths[i], &st);
        if (ok != 0 || !S_ISREG(st.st_mode)) {
            p->total = -1;
            break;
        }
        p->total += st.st_size;
    }
    p->start_read = base;
    p->start = sysio_now_s();
    p->always = o->progress == CLI_PROGRESS_ALWAYS;
    p->delay_s = p->always ? 0 : PROGRESS_DELAY_MS / 1000.0;
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->cv, NULL);
    if (pthread_create(&p->thread, NULL, tick, p) != 0) {
        pthread_mutex_destroy(&p->mu);
        pthread_cond_destroy(&p->cv);
        free(p);
        return NULL;
    }
    return p;
}

void progress_pause(struct progress *p)
{
    if (p == NULL)
        return;
    pthread_mutex_lock(&p->mu);
    clear_line(p);
}

void progress_resume(struct progress *p)
{
    if (p != NULL)
        pthread_mutex_unlock(&p->mu);
}

void progress_stop(struct progress *p)
{
    if (p == NULL)
        return;
    pthread_mutex_lock(&p->mu);
    p->stop = 1;
    pthread_cond_signal(&p->cv);
    pthread_mutex_unlock(&p->mu);
    pthread_join(p->thread, NULL);
    pthread_mutex_destroy(&p->mu);
    pthread_cond_destroy(&p->cv);
    free(p);
}
