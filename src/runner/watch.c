#include "watch.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "facts.h"
#include "gpusample.h"
#include "msg.h"
#include "nvml.h"
#include "stall.h"
#include "sysio.h"

enum { STALL_FACTS_MAX = 24576, STALL_LINES = 5 };

struct watch {
    const struct live_spec *o;
    const struct od_ruleset *rs;
    const struct live_words *lw;
    od_msg_fn fn;
    void *ctx;
    struct run_hooks hooks;
    struct gpusample *gpu; /* NULL without NVML */
    struct stall *stall;   /* NULL without --stall */
    char *stall_facts;     /* the last stall's facts, for the end; "" none */
};

static void note(struct watch *w, enum od_severity sev, const char *text)
{
    msg_say(w->fn, w->ctx, sev, NULL, text);
}

static void on_started(void *ctx, int pid)
{
    struct watch *w = ctx;
    if (w->gpu != NULL)
        gpusample_job(w->gpu, pid);
    if (w->stall != NULL)
        w->stall->started = sysio_now_s();
}

static void on_output(void *ctx, const char *p, size_t n)
{
    struct watch *w = ctx;
    stall_output(w->stall, p, n);
}

static int on_quiet(void *ctx, int pid, double quiet_s)
{
    struct watch *w = ctx;
    return stall_quiet(w->stall, pid, quiet_s);
}

/* The stall report: the output's last bytes, then the stall's facts, as
 * one pseudo-input (so the last progress step in them is the stall's). */
static void on_stall(void *ctx, struct stall *s, int pid, double quiet_s)
{
    struct watch *w = ctx;
    char *t = w->stall_facts;
    struct od_scan_opts so = {1, w->o->no_messages, w->o->trace};
    struct od_job *job = od_job_create(w->rs, &so, w->fn, w->ctx);
    struct od_feed *f = job ? od_feed_open(job, FACTS_INPUT) : NULL;
    if (f == NULL) {
        od_job_free(job);
        note(w, OD_SEV_ERROR, "out of memory");
        return;
    }
    od_feed_push(f, s->tail, s->tail_len);
    if (s->tail_len > 0 && s->tail[s->tail_len - 1] != '\n' && s->tail[s->tail_len - 1] != '\r')
        od_feed_push(f, "\n", 1); /* a line the job left open ends here */
    long long step = od_feed_last_step(f);
    t[0] = '\0';
    size_t len = (size_t)snprintf(t, STALL_FACTS_MAX, "oomdiag-run: stall: no output for %.3f s at %.3f s%s\n", quiet_s,
                                  sysio_now_s() - s->started, w->gpu ? ", its GPUs idle" : "");
    if (step >= 0)
        len += (size_t)snprintf(t + len, STALL_FACTS_MAX - len, "oomdiag-run: stall last step %lld\n", step);
    len += stall_last_lines(s, STALL_LINES, "oomdiag-run: stall line", t, STALL_FACTS_MAX);
    if (w->gpu != NULL)
        len += gpusample_now(w->gpu, t, STALL_FACTS_MAX, "stall");
    len += stall_pyspy(pid, t, STALL_FACTS_MAX);
    if (s->sig > 0 && len + 128 < STALL_FACTS_MAX)
        len += (size_t)snprintf(t + len, STALL_FACTS_MAX - len,
                                "oomdiag-run: stall signal %s sent to the job's process group\n",
                                stall_signal_name(s->sig));
    /* The facts go on the same pseudo-input, after the output's last lines. */
    od_feed_push(f, t, len);
    od_feed_close(f);
    if (!w->o->quiet) {
        int diagnosed = 0;
        if (live_report(job, w->o, w->rs, w->lw, stderr, w->o->color, &diagnosed) != 0)
            note(w, OD_SEV_ERROR, "writing the stall report failed");
    }
    od_job_free(job);
}

struct watch *watch_start(const struct live_spec *o, const struct od_ruleset *rs, const struct live_words *lw,
                          od_msg_fn fn, void *ctx)
{
    struct watch *w = calloc(1, sizeof *w);
    if (w == NULL)
        return NULL;
    *w = (struct watch){o, rs, lw, fn, ctx, {on_started, NULL, NULL, w}, NULL, NULL, NULL};
    if (!o->no_nvml) {
        char why[512];
        struct nvml *n = nvml_open(why, sizeof why);
        if (n != NULL)
            w->gpu = gpusample_start(n);
        else if (o->trace)
            note(w, OD_SEV_NOTE, why);
    }
    if (o->stall_s > 0) {
        w->stall = calloc(1, sizeof *w->stall);
        w->stall_facts = malloc(STALL_FACTS_MAX);
        if (w->stall == NULL || w->stall_facts == NULL) {
            watch_finish(w, NULL, 0, 0);
            return NULL;
        }
        w->stall_facts[0] = '\0';
        w->stall->after_s = o->stall_s;
        w->stall->sig = o->stall_signal;
        w->stall->gpu = w->gpu;
        w->stall->report = on_stall;
        w->stall->ctx = w;
        w->hooks.output = on_output;
        w->hooks.quiet = on_quiet;
    }
    if (w->gpu == NULL && w->stall == NULL) {
        free(w);
        return NULL;
    }
    return w;
}

const struct run_hooks *watch_hooks(struct watch *w)
{
    return w ? &w->hooks : NULL;
}

size_t watch_finish(struct watch *w, char *facts, size_t len, size_t size)
{
    if (w == NULL)
        return len;
    if (w->gpu != NULL) {
        char none[1] = "";
        len += gpusample_finish(w->gpu, facts ? facts : none, facts ? size : 1);
    }
    /* A stall the job came out of (it printed again) is no cause of its end. */
    if (facts != NULL && w->stall_facts != NULL && w->stall->fired)
        len += (size_t)snprintf(facts + len, size > len ? size - len : 0, "%s", w->stall_facts);
    if (len >= size && size > 0)
        len = size - 1;
    free(w->stall);
    free(w->stall_facts);
    free(w);
    return len;
}
