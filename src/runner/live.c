#include "live.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cgroup.h"
#include "decision.h"
#include "facts.h"
#include "mkparent.h"
#include "msg.h"
#include "oomdiag/livescan.h"
#include "relay.h"
#include "run.h"
#include "session.h"
#include "watch.h"
#include "words.h"

enum { TEE_CHUNK = 128 * 1024, FACTS_MAX = 65536 };

/* The job's name: the command `run` runs, its words joined by spaces (cut
 * to SIZE), or "-" for --tee's standard input. */
static const char *job_name(const struct live_spec *o, char *buf, size_t size)
{
    if (o->command == NULL || o->command[0] == NULL)
        return "-";
    size_t len = 0;
    buf[0] = '\0';
    for (size_t i = 0; o->command[i] != NULL && len + 1 < size; i++)
        len += (size_t)snprintf(buf + len, size - len, i ? " %s" : "%s", o->command[i]);
    return buf;
}

/* The session of one live job: its report to OUT (COLOR for text), or
 * nothing under QUIET. */
static int live_session(struct session *s, const struct live_spec *o, const struct od_ruleset *rs,
                        const struct live_words *lw, FILE *out, int color, int quiet)
{
    struct session_opts so = {
        out,
        {o->format, color, o->trace, o->max_evidence, od_ruleset_version(rs), lw->lang, lw->words,
         0, /* whole: after run and --tee the input is gone, --verbose cannot follow */
         NULL},
        lw->fail_on,
        quiet,
        NULL,
        NULL,
        NULL,
        0,
        o->compact,
        /* beside the job's output: marked, skipped when read again (JSON
         * is known by its own first lines; JSON and JUnit stay documents) */
        out == stderr && (o->format == OD_FMT_TEXT || o->format == OD_FMT_MARKDOWN || o->format == OD_FMT_GITHUB)};
    return session_init(s, &so);
}

int live_report(struct od_job *job, const struct live_spec *o, const struct od_ruleset *rs, const struct live_words *lw,
                FILE *out, int color, int *diagnosed)
{
    struct session s;
    char name[1024];
    /* With *DIAGNOSED -1 an empty text report is left to the caller's words. */
    unsigned flags = SESSION_SHOW_EMPTY | (*diagnosed < 0 ? SESSION_QUIET_IF_NONE : 0);
    int rc = live_session(&s, o, rs, lw, out, color, 0);
    if (rc == 0 && session_job(&s, job, job_name(o, name, sizeof name), flags) < 0)
        rc = -1;
    if (rc == 0 && s.rendered && session_finish(&s) != 0)
        rc = -1;
    if (fflush(out) != 0)
        rc = -1;
    *diagnosed = s.diagnosed;
    session_free(&s);
    return rc;
}

/* A message in the report's language: word W with N arguments. */
static void note_word(od_msg_fn fn, void *ctx, enum od_severity sev, const struct live_words *lw, enum od_word w,
                      size_t n, const char *const *args)
{
    char text[1024];
    FILE *f = fmemopen(text, sizeof text, "w");
    if (f == NULL)
        return;
    words_put(f, lw->words, w, n, args);
    fputc('\0', f);
    fclose(f);
    text[sizeof text - 1] = '\0';
    msg_say(fn, ctx, sev, NULL, text);
}

static void note_dropped(od_msg_fn fn, void *ctx, const struct live_words *lw, const struct livescan_stats *st)
{
    if (st->skipped_bytes == 0)
        return;
    char bytes[32], lines[32];
    snprintf(bytes, sizeof bytes, "%llu", st->skipped_bytes);
    snprintf(lines, sizeof lines, "%llu", st->skipped_newlines);
    const char *args[] = {bytes, lines};
    note_word(fn, ctx, OD_SEV_WARNING, lw, W_LIVE_SKIPPED, 2, args);
}

/* The host's memory (MemTotal of /proc/meminfo) in bytes, or -1: what a
 * peak RSS is weighed against. */
static long long host_mem_total(void)
{
    FILE *f = fopen("/proc/meminfo", "re");
    char line[256];
    long long kib = -1;
    if (f == NULL)
        return -1;
    while (kib < 0 && fgets(line, sizeof line, f) != NULL)
        if (sscanf(line, "MemTotal: %lld kB", &kib) != 1)
            kib = -1;
    fclose(f);
    return kib > 0 ? kib * 1024 : -1;
}

/* PATH opened for writing, its folders made first (as `--log` makes them). */
static FILE *open_for_writing(const char *path)
{
    int err = mkparent(path);
    if (err != 0) {
        errno = err;
        return NULL;
    }
    return fopen(path, "we");
}

/* One `oomdiag run`: what its parts share. */
struct live_call {
    const struct live_spec *o;
    const struct od_ruleset *rs;
    struct live_words lw;
    od_msg_fn fn;
    void *ctx;
};

/* What the parent saw go wrong besides the job: the log, its own output,
 * a job it had to kill, output it could not scan. */
static void warn_about_run(const struct live_call *c, const struct run_result *res, const struct livescan_stats *stats)
{
    char err[256];
    if (res->log_error[0])
        msg_say(c->fn, c->ctx, OD_SEV_WARNING, c->o->log, res->log_error);
    if (res->out_error[0])
        msg_say(c->fn, c->ctx, OD_SEV_WARNING, NULL, res->out_error);
    if (res->killed) {
        snprintf(err, sizeof err, "the job was still running %d s after a second signal: killed with SIGKILL",
                 RUN_KILL_GRACE_S);
        msg_say(c->fn, c->ctx, OD_SEV_WARNING, NULL, err);
    }
    note_dropped(c->fn, c->ctx, &c->lw, stats);
}

/* The parent's facts (FACTS, LEN bytes) join JOB as an input, and go to
 * --facts FILE when asked. */
static void add_run_facts(const struct live_call *c, struct od_job *job, const char *facts, size_t len)
{
    char err[512];
    if (od_job_add_text(job, FACTS_INPUT, facts, len) != 0)
        msg_say(c->fn, c->ctx, OD_SEV_ERROR, NULL, "out of memory");
    if (c->o->facts == NULL)
        return;
    FILE *ff = open_for_writing(c->o->facts);
    int bad = ff == NULL || fwrite(facts, 1, len, ff) != len;
    if ((ff != NULL && fclose(ff) != 0) || bad) {
        snprintf(err, sizeof err, "cannot write the facts: %s", strerror(errno));
        msg_say(c->fn, c->ctx, OD_SEV_ERROR, c->o->facts, err);
    }
}

/* The diagnosis: to REPORT (closed here; stderr when that fails), or to
 * stderr when the job failed or --always, unless -q. */
static void report_run(const struct live_call *c, struct od_job *job, FILE *report, const struct run_result *res)
{
    const struct live_spec *o = c->o;
    char err[512];
    int diagnosed = 0;
    if (report != NULL) {
        int bad = live_report(job, o, c->rs, &c->lw, report, 0, &diagnosed) != 0, e = errno;
        if (fclose(report) != 0 && !bad) {
            bad = 1;
            e = errno;
        }
        if (!bad)
            return;
        /* a full disk: the report goes to stderr instead, not lost */
        snprintf(err, sizeof err, "writing the report failed: %s; it goes to standard error", strerror(e));
        msg_say(c->fn, c->ctx, OD_SEV_ERROR, o->report, err);
        diagnosed = 0;
        if (live_report(job, o, c->rs, &c->lw, stderr, o->color, &diagnosed) != 0)
            msg_say(c->fn, c->ctx, OD_SEV_ERROR, NULL, "writing the diagnosis failed");
    } else if (!o->quiet && (res->status != 0 || o->always)) {
        diagnosed = -1;
        if (live_report(job, o, c->rs, &c->lw, stderr, o->color, &diagnosed) != 0)
            msg_say(c->fn, c->ctx, OD_SEV_ERROR, NULL, "writing the diagnosis failed");
        else if (diagnosed == 0) {
            char code[16];
            snprintf(code, sizeof code, "%d", res->exited ? res->status : res->signal);
            const char *args[] = {o->command[0], code};
            note_word(c->fn, c->ctx, OD_SEV_NOTE, &c->lw, res->exited ? W_RUN_NONE_STATUS : W_RUN_NONE_SIGNAL, 2, args);
        }
    }
}

int live_run(const struct live_spec *o, const struct od_ruleset *rs, const char *lang, const struct od_words *words,
             const struct fail_on *fail_on, od_msg_fn fn, void *ctx)
{
    const struct live_call c = {o, rs, {lang, words, fail_on}, fn, ctx};
    struct od_scan_opts so = {1, o->no_messages, o->trace};
    struct od_job *job = od_job_create(rs, &so, fn, ctx);
    struct cgroup_snap *cg = calloc(2, sizeof *cg);
    char *facts = malloc(FACTS_MAX), err[512];
    struct livescan *scan = NULL;
    FILE *report = NULL;
    int status = OD_EXIT_TROUBLE, have_cgroup = 0;
    struct watch *watch = NULL;

    if (job == NULL || cg == NULL || facts == NULL ||
        (scan = livescan_start(job, o->log ? o->log : "(output)", 2)) == NULL) {
        msg_say(fn, ctx, OD_SEV_ERROR, NULL, "out of memory");
        goto done;
    }
    /* A report that cannot be written is no reason not to run the job:
     * the diagnosis goes to stderr instead. */
    if (o->report != NULL && (report = open_for_writing(o->report)) == NULL) {
        snprintf(err, sizeof err, "cannot write the report: %s; it goes to standard error", strerror(errno));
        msg_say(fn, ctx, OD_SEV_WARNING, o->report, err);
    }
    char dir[CGROUP_PATH_MAX];
    if (cgroup_self_dir(dir, sizeof dir) == 0) {
        cgroup_snapshot(dir, &cg[0]);
        have_cgroup = cg[0].event_count > 0;
    }

    watch = watch_start(o, rs, &c.lw, fn, ctx);
    struct run_spec spec = {o->command, o->log, scan, watch_hooks(watch)};
    struct run_result res;
    int rc = run_process(&spec, &res, err, sizeof err);
    struct livescan_stats stats;
    if (livescan_finish(scan, &stats) != 0)
        msg_say(fn, ctx, OD_SEV_ERROR, NULL, "out of memory while scanning the output");
    if (rc != 0) {
        msg_say(fn, ctx, OD_SEV_ERROR, NULL, err);
        status = res.exec_errno ? res.status : OD_EXIT_TROUBLE;
        goto done;
    }
    status = res.status;
    res.host_mem_bytes = host_mem_total();
    warn_about_run(&c, &res, &stats);
    if (have_cgroup)
        cgroup_snapshot(dir, &cg[1]);
    size_t len = facts_format(facts, FACTS_MAX, o->command, &res, &stats, have_cgroup ? &cg[0] : NULL,
                              have_cgroup && cg[1].event_count ? &cg[1] : NULL);
    add_run_facts(&c, job, facts, watch_finish(watch, facts, len, FACTS_MAX));
    watch = NULL;
    report_run(&c, job, report, &res);
    report = NULL;
    if (o->exit_by_decision)
        status = decision_job_status(job, status);
done:
    if (report != NULL && fclose(report) != 0)
        msg_say(fn, ctx, OD_SEV_ERROR, o->report, "writing the report failed");
    watch_finish(watch, NULL, 0, 0);
    od_job_free(job);
    free(cg);
    free(facts);
    return status;
}

int live_tee(const struct live_spec *o, const struct od_ruleset *rs, const char *lang, const struct od_words *words,
             const struct fail_on *fail_on, od_msg_fn fn, void *ctx)
{
    struct live_words lw = {lang, words, fail_on};
    struct od_scan_opts so = {o->binary_as_text, o->no_messages, o->trace};
    struct od_job *job = od_job_create(rs, &so, fn, ctx);
    char *buf = malloc(TEE_CHUNK);
    struct livescan *scan = job ? livescan_start(job, "-", 1) : NULL;
    int trouble = 0, copying = 1;
    if (scan == NULL || buf == NULL) {
        msg_say(fn, ctx, OD_SEV_ERROR, NULL, "out of memory");
        if (scan != NULL)
            livescan_finish(scan, NULL);
        od_job_free(job);
        free(buf);
        return OD_EXIT_TROUBLE;
    }
    struct sigaction ign, old;
    memset(&ign, 0, sizeof ign);
    ign.sa_handler = SIG_IGN;
    sigemptyset(&ign.sa_mask);
    sigaction(SIGPIPE, &ign, &old);
    /* A closed stdout ends the copy, not the diagnosis. */
    struct relay rl = {STDIN_FILENO, STDOUT_FILENO, livescan_fd(scan, 0), 1, 0, buf, TEE_CHUNK, 0};
    for (;;) {
        ssize_t n = relay_once(&rl, NULL, NULL);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            char text[256];
            snprintf(text, sizeof text, "%s", strerror(errno));
            msg_say(fn, ctx, OD_SEV_ERROR, "-", text);
            trouble = 1;
            break;
        }
        if (n == 0)
            break;
        if (rl.to_failed && copying) {
            copying = 0;
            trouble = errno != EPIPE;
        }
    }
    sigaction(SIGPIPE, &old, NULL);
    struct livescan_stats stats;
    if (livescan_finish(scan, &stats) != 0)
        trouble = 1;
    note_dropped(fn, ctx, &lw, &stats);
    struct session s;
    int status = OD_EXIT_TROUBLE;
    if (live_session(&s, o, rs, &lw, stderr, o->color, o->quiet) == 0) {
        if (session_job(&s, job, "-", SESSION_SHOW_EMPTY) >= 0 && s.rendered &&
            (session_finish(&s) != 0 || fflush(stderr) != 0))
            s.trouble = 1;
        s.trouble |= trouble;
        status = session_status(&s);
    }
    session_free(&s);
    od_job_free(job);
    free(buf);
    return status;
}
