#include "live.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cgroup.h"
#include "decision.h"
#include "facts.h"
#include "feed.h"
#include "linesplit.h"
#include "livescan.h"
#include "mkparent.h"
#include "msg.h"
#include "relay.h"
#include "run.h"
#include "words.h"

enum { TEE_CHUNK = 128 * 1024, FACTS_MAX = 16384 };

static void note(od_msg_fn fn, void *ctx, enum od_severity sev, const char *file, const char *text)
{
    struct od_message m = {sev, file, 0, 0, text, NULL, 0};
    fn(ctx, &m);
}

/* The job's name: the command `run` runs, its words joined by spaces (cut
 * to SIZE), or "-" for --tee's standard input. */
static const char *job_name(const struct cli_opts *o, char *buf, size_t size)
{
    if (o->command == NULL || o->command[0] == NULL)
        return "-";
    size_t len = 0;
    buf[0] = '\0';
    for (size_t i = 0; o->command[i] != NULL && len + 1 < size; i++)
        len += (size_t)snprintf(buf + len, size - len, i ? " %s" : "%s", o->command[i]);
    return buf;
}

int live_report(struct od_job *job, const struct cli_opts *o, const struct od_ruleset *rs, const struct live_words *lw,
                FILE *out, int color, int *diagnosed)
{
    struct od_render_opts ro = {
        o->format, color,     o->trace, o->max_evidence, od_ruleset_version(rs),
        lw->lang,  lw->words, 0, /* whole: after run and --tee the input is gone, --verbose cannot follow */
        NULL};
    struct od_renderer *rend = od_renderer_create(out, &ro);
    struct od_report *rep = od_classify(job);
    char name[1024];
    int rc = 0;
    if (rep != NULL)
        rep->name = job_name(o, name, sizeof name);
    if (rend == NULL || rep == NULL)
        rc = -1;
    for (size_t i = 0; rep != NULL && i < rep->count; i++)
        if (rep->diagnoses[i].role == OD_ROLE_ROOT)
            *diagnosed = 1;
    if (rc == 0 && *diagnosed < 0 && rep->count == 0 && o->format == OD_FMT_TEXT && !o->trace) {
        *diagnosed = 0; /* the caller says it in its own words */
        od_report_free(rep);
        od_renderer_free(rend);
        return 0;
    }
    if (*diagnosed < 0)
        *diagnosed = 0;
    if (rc == 0 && (od_render_job(rend, rep) != 0 || od_renderer_finish(rend) != 0))
        rc = -1;
    if (fflush(out) != 0)
        rc = -1;
    od_report_free(rep);
    od_renderer_free(rend);
    return rc;
}

struct fact_feed {
    struct od_job *job;
    size_t input;
};

static int on_fact(void *ctx, const struct line *ln, unsigned long long newlines)
{
    struct fact_feed *f = ctx;
    (void)newlines;
    return ln ? od_job_feed_line(f->job, f->input, ln) : 0;
}

/* The parent's facts become the pseudo-input FACTS_INPUT of JOB. */
static int add_facts(struct od_job *job, const char *text, size_t len)
{
    struct linesplit ls;
    long idx = od_job_feed_begin(job, FACTS_INPUT);
    if (idx < 0 || linesplit_init(&ls) != 0)
        return -1;
    struct fact_feed f = {job, (size_t)idx};
    int rc = linesplit_push(&ls, text, len, on_fact, &f);
    if (rc == 0)
        rc = linesplit_end(&ls, on_fact, &f);
    od_job_feed_end(job, (size_t)idx, linesplit_lines(&ls), ls.bytes);
    linesplit_free(&ls);
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
    note(fn, ctx, sev, NULL, text);
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

int live_run(const struct cli_opts *o, const struct od_ruleset *rs, const char *lang, const struct od_words *words,
             od_msg_fn fn, void *ctx)
{
    struct live_words lw = {lang, words};
    struct od_scan_opts so = {1, o->no_messages, o->trace};
    struct od_job *job = od_job_create(rs, &so, fn, ctx);
    struct cgroup_snap *cg = calloc(2, sizeof *cg);
    char *facts = malloc(FACTS_MAX), err[512];
    struct livescan *scan = NULL;
    FILE *report = NULL;
    int status = OD_EXIT_TROUBLE, have_cgroup = 0;

    if (job == NULL || cg == NULL || facts == NULL ||
        (scan = livescan_start(job, o->log ? o->log : "(output)", 2)) == NULL) {
        note(fn, ctx, OD_SEV_ERROR, NULL, "out of memory");
        goto done;
    }
    /* A report that cannot be written is no reason not to run the job:
     * the diagnosis goes to stderr instead. */
    if (o->report != NULL && (report = open_for_writing(o->report)) == NULL) {
        snprintf(err, sizeof err, "cannot write the report: %s; it goes to standard error", strerror(errno));
        note(fn, ctx, OD_SEV_WARNING, o->report, err);
    }
    char dir[CGROUP_PATH_MAX];
    if (cgroup_self_dir(dir, sizeof dir) == 0) {
        cgroup_snapshot(dir, &cg[0]);
        have_cgroup = cg[0].event_count > 0;
    }

    struct run_spec spec = {o->command, o->log, scan};
    struct run_result res;
    int rc = run_process(&spec, &res, err, sizeof err);
    struct livescan_stats stats;
    if (livescan_finish(scan, &stats) != 0)
        note(fn, ctx, OD_SEV_ERROR, NULL, "out of memory while scanning the output");
    if (rc != 0) {
        note(fn, ctx, OD_SEV_ERROR, NULL, err);
        status = res.exec_errno ? res.status : OD_EXIT_TROUBLE;
        goto done;
    }
    status = res.status;
    res.host_mem_bytes = host_mem_total();
    if (res.log_error[0])
        note(fn, ctx, OD_SEV_WARNING, o->log, res.log_error);
    if (res.out_error[0])
        note(fn, ctx, OD_SEV_WARNING, NULL, res.out_error);
    if (res.killed) {
        snprintf(err, sizeof err, "the job was still running %d s after a second signal: killed with SIGKILL",
                 RUN_KILL_GRACE_S);
        note(fn, ctx, OD_SEV_WARNING, NULL, err);
    }
    note_dropped(fn, ctx, &lw, &stats);
    if (have_cgroup)
        cgroup_snapshot(dir, &cg[1]);
    size_t len = facts_format(facts, FACTS_MAX, o->command, &res, &stats, have_cgroup ? &cg[0] : NULL,
                              have_cgroup && cg[1].event_count ? &cg[1] : NULL);
    if (add_facts(job, facts, len) != 0)
        note(fn, ctx, OD_SEV_ERROR, NULL, "out of memory");
    if (o->facts != NULL) {
        FILE *ff = open_for_writing(o->facts);
        int bad = ff == NULL || fwrite(facts, 1, len, ff) != len;
        if ((ff != NULL && fclose(ff) != 0) || bad) {
            snprintf(err, sizeof err, "cannot write the facts: %s", strerror(errno));
            note(fn, ctx, OD_SEV_ERROR, o->facts, err);
        }
    }

    int diagnosed = 0, failed = res.status != 0;
    if (report != NULL) {
        int bad = live_report(job, o, rs, &lw, report, 0, &diagnosed) != 0, e = errno;
        if (fclose(report) != 0 && !bad) {
            bad = 1;
            e = errno;
        }
        report = NULL;
        if (bad) { /* a full disk: the report goes to stderr instead, not lost */
            snprintf(err, sizeof err, "writing the report failed: %s; it goes to standard error", strerror(e));
            note(fn, ctx, OD_SEV_ERROR, o->report, err);
            diagnosed = 0;
            if (live_report(job, o, rs, &lw, stderr, cli_use_color(o, STDERR_FILENO), &diagnosed) != 0)
                note(fn, ctx, OD_SEV_ERROR, NULL, "writing the diagnosis failed");
        }
    } else if (!o->quiet && (failed || o->always)) {
        diagnosed = -1;
        if (live_report(job, o, rs, &lw, stderr, cli_use_color(o, STDERR_FILENO), &diagnosed) != 0)
            note(fn, ctx, OD_SEV_ERROR, NULL, "writing the diagnosis failed");
        else if (diagnosed == 0) {
            char code[16];
            snprintf(code, sizeof code, "%d", res.exited ? res.status : res.signal);
            const char *args[] = {o->command[0], code};
            note_word(fn, ctx, OD_SEV_NOTE, &lw, res.exited ? W_RUN_NONE_STATUS : W_RUN_NONE_SIGNAL, 2, args);
        }
    }
    if (o->exit_by_decision)
        status = decision_job_status(job, status);
done:
    if (report != NULL && fclose(report) != 0)
        note(fn, ctx, OD_SEV_ERROR, o->report, "writing the report failed");
    od_job_free(job);
    free(cg);
    free(facts);
    return status;
}

int live_tee(const struct cli_opts *o, const struct od_ruleset *rs, const char *lang, const struct od_words *words,
             od_msg_fn fn, void *ctx)
{
    struct live_words lw = {lang, words};
    struct od_scan_opts so = {o->binary_as_text, o->no_messages, o->trace};
    struct od_job *job = od_job_create(rs, &so, fn, ctx);
    char *buf = malloc(TEE_CHUNK);
    struct livescan *scan = job ? livescan_start(job, "-", 1) : NULL;
    int trouble = 0, copying = 1, diagnosed = 0;
    if (scan == NULL || buf == NULL) {
        note(fn, ctx, OD_SEV_ERROR, NULL, "out of memory");
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
            note(fn, ctx, OD_SEV_ERROR, "-", text);
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
    if (!o->quiet && live_report(job, o, rs, &lw, stderr, cli_use_color(o, STDERR_FILENO), &diagnosed) != 0)
        trouble = 1;
    else if (o->quiet) {
        struct od_report *rep = od_classify(job);
        for (size_t i = 0; rep != NULL && i < rep->count; i++)
            diagnosed |= rep->diagnoses[i].role == OD_ROLE_ROOT;
        od_report_free(rep);
    }
    od_job_free(job);
    free(buf);
    if (o->quiet && diagnosed)
        return OD_EXIT_DIAGNOSED;
    return trouble ? OD_EXIT_TROUBLE : diagnosed ? OD_EXIT_DIAGNOSED : OD_EXIT_NONE;
}
