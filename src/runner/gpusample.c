#include "gpusample.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "outbuf.h"

#include "sysio.h"

enum { XIDS_MAX = 16, OTHERS_MAX = 8, BUSY_UTIL = 5 };

struct other {
    unsigned int pid;
    unsigned long long bytes;
    char name[64];
};

struct gpu {
    unsigned long long total, peak_used, job_peak, before_unaccounted;
    int util_peak, used_by_job; /* the job had memory here at some sample */
    int have_last;              /* a sample while the job lived */
    struct nvml_reading now;    /* the latest sample */
    double last_at;             /* seconds since the job started */
    unsigned long long last_used, last_job, last_others, last_unaccounted;
    int last_util;
    size_t nothers;
    struct other others[OTHERS_MAX]; /* at the last sample, largest first */
};

struct gpusample {
    struct nvml *n;
    pthread_t thread;
    pthread_mutex_t lock;
    int stop, started;
    pid_t pid; /* 0 before the job started */
    double job_start;
    unsigned long long samples;
    size_t nxids;
    struct {
        size_t gpu;
        unsigned long long xid;
        double at;
    } xids[XIDS_MAX];
    struct gpu gpu[NVML_GPUS_MAX];
    struct nvml_reading scratch;
};

/* PID's parent, process group and state from /proc/PID/stat; 0, or -1. */
static int proc_stat(pid_t pid, pid_t *ppid, pid_t *pgrp, char *state)
{
    char path[64], buf[512];
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    FILE *f = fopen(path, "re");
    if (f == NULL)
        return -1;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    char *p = strrchr(buf, ')'); /* the command may hold spaces and parentheses */
    int pp = 0, pg = 0;
    if (p == NULL || sscanf(p + 1, " %c %d %d", state, &pp, &pg) != 3)
        return -1;
    *ppid = pp;
    *pgrp = pg;
    return 0;
}

/* PID belongs to the job: in its process group, or a descendant of it. */
static int is_job(pid_t job, pid_t pid)
{
    for (int depth = 0; depth < 64 && pid > 1; depth++) {
        pid_t ppid, pgrp;
        char state;
        if (pid == job)
            return 1;
        if (proc_stat(pid, &ppid, &pgrp, &state) != 0)
            return 0;
        if (pgrp == job)
            return 1;
        pid = ppid;
    }
    return 0;
}

static int job_alive(pid_t job)
{
    pid_t ppid, pgrp;
    char state = 'Z';
    return proc_stat(job, &ppid, &pgrp, &state) == 0 && state != 'Z' && state != 'X';
}

static void proc_name(struct nvml *n, unsigned int pid, char *name, size_t size)
{
    nvml_process_name(n, pid, name, size);
    if (name[0] != '\0')
        return;
    char path[64];
    snprintf(path, sizeof path, "/proc/%u/comm", pid);
    FILE *f = fopen(path, "re");
    if (f != NULL) {
        if (fgets(name, (int)size, f) == NULL)
            name[0] = '\0';
        fclose(f);
    }
    name[strcspn(name, "\n")] = '\0';
    if (name[0] == '\0')
        snprintf(name, size, "?");
}

static int by_bytes(const void *a, const void *b)
{
    const struct other *x = a, *y = b;
    return x->bytes < y->bytes ? 1 : x->bytes > y->bytes ? -1 : 0;
}

/* One reading of GPU I, folded into G (the lock held by the caller for the
 * fold; the reading itself is taken outside it). */
static void fold(struct gpusample *g, size_t i, const struct nvml_reading *r, pid_t job, int alive, double at)
{
    struct gpu *d = &g->gpu[i];
    if (!r->ok)
        return;
    d->now = *r;
    d->total = r->total;
    unsigned long long used = r->used - r->reserved, job_bytes = 0, others = 0, known = 0;
    if (used > d->peak_used)
        d->peak_used = used;
    if (r->util > d->util_peak)
        d->util_peak = r->util;
    struct other o[OTHERS_MAX];
    size_t no = 0;
    for (size_t k = 0; k < r->nprocs; k++) {
        unsigned long long b = r->procs[k].bytes == ~0ULL ? 0 : r->procs[k].bytes;
        /* A pid that no longer exists (NVML still lists it, nvidia-smi says
         * "[Not Found]") is a leftover context: no process accounts for it. */
        if (kill((pid_t)r->procs[k].pid, 0) != 0 && errno == ESRCH)
            continue;
        known += b;
        if (job > 0 && is_job(job, (pid_t)r->procs[k].pid)) {
            job_bytes += b;
            continue;
        }
        others += b;
        if (!alive || job <= 0)
            continue;
        if (no < OTHERS_MAX) {
            o[no].pid = r->procs[k].pid;
            o[no].bytes = b;
            proc_name(g->n, o[no].pid, o[no].name, sizeof o[no].name);
            no++;
        }
    }
    unsigned long long unaccounted = used > known ? used - known : 0;
    if (job <= 0) {
        /* Before the job: what the card held already, from the first
         * sample alone (gpusample_start's, before the job is forked; a
         * later one may see the job's processes half-listed). */
        if (g->samples == 0)
            d->before_unaccounted = unaccounted;
        return;
    }
    if (job_bytes > d->job_peak)
        d->job_peak = job_bytes;
    if (job_bytes > 0)
        d->used_by_job = 1;
    if (!alive)
        return;
    qsort(o, no, sizeof o[0], by_bytes);
    d->have_last = 1;
    d->last_at = at;
    d->last_used = used;
    d->last_job = job_bytes;
    d->last_others = others;
    d->last_unaccounted = unaccounted;
    d->last_util = r->util;
    d->nothers = no;
    memcpy(d->others, o, no * sizeof o[0]);
}

static void sample_all(struct gpusample *g)
{
    pthread_mutex_lock(&g->lock);
    pid_t job = g->pid;
    double start = g->job_start;
    pthread_mutex_unlock(&g->lock);
    int alive = job > 0 && job_alive(job);
    double at = sysio_now_s() - start;
    for (size_t i = 0; i < nvml_count(g->n); i++) {
        nvml_read(g->n, i, &g->scratch);
        pthread_mutex_lock(&g->lock);
        fold(g, i, &g->scratch, job, alive, at);
        pthread_mutex_unlock(&g->lock);
    }
    pthread_mutex_lock(&g->lock);
    g->samples++;
    pthread_mutex_unlock(&g->lock);
}

static void *sampler(void *arg)
{
    struct gpusample *g = arg;
    for (;;) {
        pthread_mutex_lock(&g->lock);
        int stop = g->stop;
        pthread_mutex_unlock(&g->lock);
        if (stop)
            break;
        sample_all(g);
        size_t gpu = 0;
        unsigned long long xid = 0;
        if (nvml_wait_xid(g->n, GPUSAMPLE_INTERVAL_MS, &gpu, &xid)) {
            pthread_mutex_lock(&g->lock);
            if (g->nxids < XIDS_MAX) {
                g->xids[g->nxids].gpu = gpu;
                g->xids[g->nxids].xid = xid;
                g->xids[g->nxids].at = g->pid > 0 ? sysio_now_s() - g->job_start : 0;
                g->nxids++;
            }
            pthread_mutex_unlock(&g->lock);
        }
    }
    return NULL;
}

struct gpusample *gpusample_start(struct nvml *n)
{
    struct gpusample *g = calloc(1, sizeof *g);
    if (g == NULL) {
        nvml_close(n);
        return NULL;
    }
    g->n = n;
    pthread_mutex_init(&g->lock, NULL);
    sample_all(g); /* before the job: what the GPUs held already */
    /* The thread blocks the signals oomdiag run catches and forwards. */
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &old);
    g->started = pthread_create(&g->thread, NULL, sampler, g) == 0;
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    return g;
}

void gpusample_job(struct gpusample *g, pid_t pid)
{
    pthread_mutex_lock(&g->lock);
    g->pid = pid;
    g->job_start = sysio_now_s();
    pthread_mutex_unlock(&g->lock);
}

/* The GPUs that matter: those the job used, or all when it used none. */
static int relevant(const struct gpusample *g, size_t i)
{
    for (size_t k = 0; k < nvml_count(g->n); k++)
        if (g->gpu[k].used_by_job)
            return g->gpu[i].used_by_job;
    return 1;
}

int gpusample_busy(struct gpusample *g)
{
    int busy = 0;
    pthread_mutex_lock(&g->lock);
    for (size_t i = 0; i < nvml_count(g->n); i++)
        if (g->gpu[i].used_by_job && g->gpu[i].now.util >= BUSY_UTIL)
            busy = 1;
    pthread_mutex_unlock(&g->lock);
    return busy;
}

size_t gpusample_now(struct gpusample *g, char *buf, size_t size, const char *prefix)
{
    struct outbuf o = {buf + strlen(buf), size - strlen(buf), 0};
    pthread_mutex_lock(&g->lock);
    for (size_t i = 0; i < nvml_count(g->n); i++) {
        const struct gpu *d = &g->gpu[i];
        if (!d->now.ok || !relevant(g, i))
            continue;
        outbuf_put(&o, "oomdiag-run: %s gpu %zu util=%d%% used=%llu bytes job=%llu bytes total=%llu bytes\n", prefix, i,
                   d->now.util, d->now.used - d->now.reserved, d->last_job, d->total);
    }
    pthread_mutex_unlock(&g->lock);
    return o.len;
}

/* Each GPU's identity, then its peaks and last sample, the GPUs in ORDER. */
static void put_gpus(struct outbuf *o, const struct gpusample *g, const size_t *order, size_t count)
{
    struct nvml *n = g->n;
    for (size_t j = 0; j < count; j++) {
        size_t i = order[j];
        const struct nvml_gpu_id *id = nvml_id(n, i);
        outbuf_put(o, "oomdiag-run: nvml gpu %zu uuid=%s%s%s pci_bus_id=%s name=%s\n", i, id->uuid[0] ? id->uuid : "?",
                   id->serial[0] ? " serial=" : "", id->serial, id->pci_bus_id[0] ? id->pci_bus_id : "?", id->name);
    }
    for (size_t j = 0; j < count; j++) {
        size_t i = order[j];
        const struct gpu *d = &g->gpu[i];
        outbuf_put(o,
                   "oomdiag-run: nvml gpu %zu memory total=%llu bytes peak_used=%llu bytes job_peak=%llu bytes "
                   "util_peak=%d%%\n",
                   i, d->total, d->peak_used, d->job_peak, d->util_peak);
        if (!d->have_last)
            continue;
        outbuf_put(o,
                   "oomdiag-run: nvml gpu %zu last sample at %.3f s: used=%llu bytes job=%llu bytes others=%llu bytes "
                   "unaccounted=%llu bytes util=%d%%\n",
                   i, d->last_at, d->last_used, d->last_job, d->last_others, d->last_unaccounted, d->last_util);
        for (size_t m = 0; m < d->nothers; m++)
            outbuf_put(o, "oomdiag-run: nvml gpu %zu other process pid=%u bytes=%llu name=%s\n", i, d->others[m].pid,
                       d->others[m].bytes, d->others[m].name);
    }
}

/* The summaries the rules read: on the GPUs the job used, the one where
 * other processes held most, and memory no process accounts for. */
static void put_summaries(struct outbuf *o, const struct gpusample *g, size_t count)
{
    const struct gpu *top = NULL, *ghost = NULL;
    size_t top_i = 0, ghost_i = 0;
    for (size_t i = 0; i < count; i++) {
        const struct gpu *d = &g->gpu[i];
        if (!relevant(g, i) || !d->have_last)
            continue;
        if (d->last_others > 0 && d->nothers > 0 && (top == NULL || d->last_others > top->last_others)) {
            top = d;
            top_i = i;
        }
        if (ghost == NULL || d->last_unaccounted > ghost->last_unaccounted) {
            ghost = d;
            ghost_i = i;
        }
    }
    if (top != NULL)
        outbuf_put(o,
                   "oomdiag-run: nvml other processes held %llu bytes of gpu %zu (%llu bytes) at the last sample, the "
                   "most pid %u with %llu bytes: %s\n",
                   top->last_others, top_i, top->total, top->others[0].pid, top->others[0].bytes, top->others[0].name);
    if (ghost != NULL && ghost->last_unaccounted > 0)
        outbuf_put(o,
                   "oomdiag-run: nvml memory no process accounts for: %llu bytes of gpu %zu (%llu bytes) at the last "
                   "sample, %llu bytes before the job started\n",
                   ghost->last_unaccounted, ghost_i, ghost->total, ghost->before_unaccounted);
}

size_t gpusample_finish(struct gpusample *g, char *buf, size_t size)
{
    size_t at = strlen(buf);
    struct outbuf o = {buf + at, size > at ? size - at : 0, 0};
    pthread_mutex_lock(&g->lock);
    g->stop = 1;
    pthread_mutex_unlock(&g->lock);
    if (g->started)
        pthread_join(g->thread, NULL);
    struct nvml *n = g->n;
    size_t count = nvml_count(n);
    char host[256];
    if (gethostname(host, sizeof host) == 0 && (host[sizeof host - 1] = '\0', host[0] != '\0'))
        outbuf_put(&o, "oomdiag-run: host %s\n", host);
    outbuf_put(&o, "oomdiag-run: nvml gpus=%zu samples=%llu interval=%d ms (%s)\n", count, g->samples,
               GPUSAMPLE_INTERVAL_MS, nvml_driver(n)[0] ? nvml_driver(n) : "?");
    /* The GPUs the job used first: the first line of each kind is the one
     * a diagnosis takes its fields from. */
    size_t order[NVML_GPUS_MAX], k = 0;
    for (int pass = 0; pass < 2; pass++)
        for (size_t i = 0; i < count; i++)
            if ((relevant(g, i) != 0) == (pass == 0))
                order[k++] = i;
    put_gpus(&o, g, order, count);
    for (size_t x = 0; x < g->nxids; x++)
        outbuf_put(&o, "oomdiag-run: nvml gpu %zu xid %llu at %.3f s pci_bus_id=%s\n", g->xids[x].gpu, g->xids[x].xid,
                   g->xids[x].at, nvml_id(n, g->xids[x].gpu)->pci_bus_id);
    put_summaries(&o, g, count);
    pthread_mutex_destroy(&g->lock);
    nvml_close(n);
    free(g);
    return o.len;
}
