/* oomdiag: options -> rules -> a mode's adapter -> the session (scan each
 * job, classify, --fail-on, render, the exit status).  oomdiag's own
 * messages all go through print_message ("oomdiag: [FILE[:L:C]: ]error:
 * TEXT" on stderr); stderr also carries the progress line and the reports
 * of --tee and run. */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "catalog.h"
#include "cli.h"
#include "fail_on.h"
#include "follow.h"
#include "lang.h"
#include "live.h"
#include "msg.h"
#include "oomdiag/oomdiag.h"
#include "pathlist.h"
#include "progress.h"
#include "selftest.h"
#include "session.h"
#include "wire.h"

static const char *env(const char *name)
{
    return getenv(name);
}

struct printer {
    int quiet;
    struct progress *progress; /* cleared while a message is printed */
};

static void print_message(void *ctx, const struct od_message *m)
{
    const struct printer *p = ctx;
    if (p->quiet && m->severity != OD_SEV_ERROR)
        return;
    progress_pause(p->progress);
    msg_print(stderr, m, 0);
    progress_resume(p->progress);
}

/* Prints an error of oomdiag's own, about FILE (may be NULL). */
static void say_error(struct printer *pr, const char *file, const char *fmt, ...) MSG_PRINTF(3, 4);
static void say_error(struct printer *pr, const char *file, const char *fmt, ...)
{
    char text[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    msg_say(print_message, pr, OD_SEV_ERROR, file, text);
}

/* An error about FILE, ending with errno's text. */
static void say_file_error(struct printer *pr, const char *file, const char *what)
{
    say_error(pr, file, "%s: %s", what, strerror(errno));
}

static struct od_ruleset *load_rules(const struct cli_opts *o, struct printer *pr)
{
    struct od_ruleset *rs = od_ruleset_create(print_message, pr);
    int rc = 0;
    if (rs == NULL)
        return NULL;
    od_ruleset_keep_samples(rs, o->mode == CLI_CHECK_RULES);
    /* --check-rules PATH checks PATH beside the embedded rules (their causes
     * count, their samples are not checked again). */
    int beside = (o->mode == CLI_CHECK_RULES || o->mode == CLI_SHOW_PATTERNS) && o->path_count > 0;
    if (!o->no_builtin_rules && !beside && od_ruleset_add_builtin(rs) != 0)
        rc = -1;
    if (!o->no_builtin_rules && beside && od_ruleset_add_builtin_lexicon(rs) != 0)
        rc = -1;
    for (size_t i = 0; i < o->rule_path_count; i++)
        if (od_ruleset_add_path(rs, o->rule_paths[i]) != 0)
            rc = -1;
    for (size_t i = 0; beside && i < o->path_count; i++)
        if (od_ruleset_add_path(rs, o->paths[i]) != 0)
            rc = -1;
    if (beside && !o->no_builtin_rules && od_ruleset_add_builtin_context(rs) != 0)
        rc = -1;
    if (rc != 0 || od_ruleset_finish(rs) != 0) {
        od_ruleset_free(rs);
        return NULL;
    }
    return rs;
}

static int run_check(struct od_ruleset *rs, int with_builtin, struct printer *pr)
{
    struct selftest_result res;
    int rc = selftest_run(rs, with_builtin, &res);
    if (res.signatures == 0) {
        say_error(pr, NULL, "no signatures to check (no rule files, or rule files without \"signatures\")");
        return OD_EXIT_TROUBLE;
    }
    printf("oomdiag: checked %zu signature%s and %zu sample%s: %zu failure%s, %zu warning%s\n", res.signatures,
           res.signatures == 1 ? "" : "s", res.samples, res.samples == 1 ? "" : "s", res.failures,
           res.failures == 1 ? "" : "s", res.warnings, res.warnings == 1 ? "" : "s");
    return rc == 0 ? OD_EXIT_DIAGNOSED : OD_EXIT_TROUBLE;
}

/* The modes that print something about oomdiag or its rules and stop.
 * Returns 1 with *STATUS set when O is one, else 0. */
static int run_info_mode(const struct cli_opts *o, struct od_ruleset *rs, const struct od_words *words,
                         struct printer *pr, int *status)
{
    *status = OD_EXIT_DIAGNOSED;
    switch (o->mode) {
    case CLI_VERSION: printf("oomdiag %s (rules %s)\n", od_version(), od_ruleset_version(rs)); return 1;
    case CLI_CHECK_RULES: *status = run_check(rs, o->path_count == 0, pr); return 1;
    case CLI_LIST_RULES: catalog_list(stdout, rs); return 1;
    case CLI_EXPLAIN:
        if (catalog_explain(stdout, rs, words, o->explain) != 0) {
            say_error(pr, NULL, "unknown cause '%s' (see --list-rules)", o->explain);
            *status = OD_EXIT_TROUBLE;
        }
        return 1;
    case CLI_SHOW_PATTERNS:
        if (catalog_show_patterns(stdout, rs, o->show_patterns) != 0) {
            say_error(pr, NULL, "no signature id matches '%s' (see --list-rules)", o->show_patterns);
            *status = OD_EXIT_TROUBLE;
        }
        return 1;
    default: return 0;
    }
}

/* --format github also appends the Markdown report to the file that
 * $GITHUB_STEP_SUMMARY names (GitHub shows it on the run's page).
 * Returns the open file, or NULL: none asked for, or an error reported
 * (then *TROUBLE is set). */
static FILE *open_step_summary(const struct cli_opts *o, struct printer *pr, const char **path, int *trouble)
{
    *path = getenv("GITHUB_STEP_SUMMARY");
    if (o->format != OD_FMT_GITHUB || o->quiet || *path == NULL || (*path)[0] == '\0')
        return NULL;
    FILE *f = fopen(*path, "a");
    if (f == NULL) {
        say_file_error(pr, *path, "cannot write the step summary ($GITHUB_STEP_SUMMARY)");
        *trouble = 1;
    }
    return f;
}

/* A diagnosis run: the session every job goes through, and the job it
 * reuses. */
struct run {
    struct od_job *job;
    const struct cli_opts *o;
    const struct fail_on *fail_on; /* NULL: every root cause counts */
    struct session s;
    struct printer *pr; /* its progress line is paused while a report is printed */
    /* -j: every worker meets the jobs in the same order and takes the next
     * one nobody has claimed (NEXT, shared), so a long job does not hold
     * up the jobs dealt to its worker. */
    unsigned long seen;          /* jobs met so far */
    unsigned long mine;          /* the job this worker claimed */
    unsigned long *next;         /* the next job to claim (shared memory); NULL: one process */
    const char *spool;           /* -j: the directory where workers leave their reports */
    FILE *spool_out;             /* -j's worker: its report file; NULL: render here */
};

static void pause_progress(void *ctx)
{
    progress_pause(((struct printer *)ctx)->progress);
}

static void resume_progress(void *ctx)
{
    progress_resume(((struct printer *)ctx)->progress);
}

/* Scans PATHS into R's job, reset first. */
static void scan_job(struct run *r, const char **paths, size_t n)
{
    od_job_reset(r->job);
    for (size_t i = 0; i < n; i++)
        if (od_job_add_path(r->job, paths[i]) != 0)
            r->s.trouble = 1;
}

/* A job's record in a -j worker's report file: the job's number, where
 * its messages lie in the worker's stderr file, then REP bytes of its
 * report (wire.h), or none when it could not be saved. */
struct spool_rec {
    uint64_t job, err_at, err_len, rep;
};

/* -j's worker: scans the job R claimed (its messages go to the worker's
 * stderr file, standard error since the worker started) and appends its
 * classified report to the worker's report file, for the parent. */
static void spool_job(struct run *r, const char *name, const char **paths, size_t n)
{
    struct spool_rec rec = {r->mine, 0, 0, 0};
    fflush(stderr);
    off_t at = lseek(STDERR_FILENO, 0, SEEK_CUR);
    scan_job(r, paths, n);
    char *data = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&data, &len);
    int rc = mem != NULL ? session_save(&r->s, r->job, name, mem) : -1;
    if (mem != NULL && fclose(mem) != 0)
        rc = -1;
    if (rc != 0) {
        say_error(r->pr, NULL, "out of memory");
        r->s.trouble = 1;
        len = 0;
    }
    fflush(stderr);
    off_t end = lseek(STDERR_FILENO, 0, SEEK_CUR);
    if (at >= 0 && end >= at) {
        rec.err_at = (uint64_t)at;
        rec.err_len = (uint64_t)(end - at);
    }
    rec.rep = len;
    fwrite(&rec, sizeof rec, 1, r->spool_out);
    if (len > 0)
        fwrite(data, 1, len, r->spool_out);
    free(data);
}

/* The N bytes of the file at PATH (malloc'd), or NULL. */
static char *read_whole(const char *path, size_t *n)
{
    FILE *f = fopen(path, "r");
    *n = 0;
    if (f == NULL)
        return NULL;
    char *data = NULL;
    long size = fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
    if (size >= 0 && fseek(f, 0, SEEK_SET) == 0 && (data = malloc((size_t)size + 1)) != NULL &&
        fread(data, 1, (size_t)size, f) != (size_t)size) {
        free(data);
        data = NULL;
    }
    fclose(f);
    *n = data != NULL ? (size_t)size : 0;
    return data;
}

/* Where job K's pieces lie in the workers' files (read by the parent). */
struct spooled {
    const char *rep, *err;
    size_t rep_len, err_len;
    int have;
};

/* The file of worker W in R's spool: its reports (".rep") or its
 * standard error (".err"). */
static void spool_file(const struct run *r, int w, const char *ext, char *buf, size_t size)
{
    snprintf(buf, size, "%s/%d%s", r->spool, w, ext);
}

/* Reads worker W's two files into DATA[0] (reports) and DATA[1]
 * (messages), removes them, and notes where each of its jobs lies in
 * JOBS (COUNT of them).  -1 when its reports are cut. */
static int index_worker(const struct run *r, int w, char *data[2], struct spooled *jobs, unsigned long count)
{
    char path[4096];
    size_t n = 0, nerr = 0;
    spool_file(r, w, ".rep", path, sizeof path);
    data[0] = read_whole(path, &n);
    (void)unlink(path);
    spool_file(r, w, ".err", path, sizeof path);
    data[1] = read_whole(path, &nerr);
    (void)unlink(path);
    for (size_t at = 0; data[0] != NULL && at < n;) {
        struct spool_rec rec;
        if (n - at < sizeof rec)
            return -1;
        memcpy(&rec, data[0] + at, sizeof rec);
        at += sizeof rec;
        if (rec.rep > n - at || rec.job >= count || rec.err_at > nerr || rec.err_len > nerr - rec.err_at)
            return -1;
        jobs[rec.job] = (struct spooled){data[0] + at, data[1] + rec.err_at, (size_t)rec.rep, (size_t)rec.err_len, 1};
        at += (size_t)rec.rep;
    }
    return 0;
}

/* Job K's messages to standard error and its report through R's session. */
static void show_spooled(struct run *r, const struct spooled *j)
{
    if (j->err_len > 0) {
        fwrite(j->err, 1, j->err_len, stderr);
        fflush(stderr);
    }
    struct wire_report w;
    if (j->rep_len == 0)
        return; /* its worker said why */
    if (wire_read(j->rep, j->rep_len, &w) != 0) {
        say_error(r->pr, NULL, "-j: a worker's report could not be read back");
        r->s.trouble = 1;
        return;
    }
    if (session_report(&r->s, &w.rep, 0) < 0 && !r->s.write_failed)
        say_error(r->pr, NULL, "out of memory");
    wire_free(&w);
}

/* -j's parent: the COUNT jobs' reports and messages that WORKERS workers
 * left in R's spool, in input order, through R's one session; the spool
 * is removed. */
static void render_spool(struct run *r, unsigned long count, int workers)
{
    struct spooled *jobs = calloc(count ? count : 1, sizeof *jobs);
    char **data = calloc((size_t)workers * 2 + 1, sizeof *data);
    if (jobs == NULL || data == NULL) {
        say_error(r->pr, NULL, "out of memory");
        r->s.trouble = 1;
    }
    for (int w = 0; jobs != NULL && data != NULL && w < workers; w++)
        if (index_worker(r, w, data + 2 * w, jobs, count) != 0) {
            say_error(r->pr, NULL, "-j: a worker's reports were cut short");
            r->s.trouble = 1;
        }
    (void)rmdir(r->spool); /* emptied: gone before a write can fail (SIGPIPE) */
    for (unsigned long k = 0; jobs != NULL && data != NULL && k < count && !r->s.write_failed; k++)
        if (jobs[k].have)
            show_spooled(r, &jobs[k]);
    for (int w = 0; data != NULL && w < workers * 2; w++)
        free(data[w]);
    free(data);
    free(jobs);
}

/* -j's worker W: its report file open as R's spool_out, and standard
 * error sent to its own file.  0, or -1 after a message. */
static int open_worker_spool(struct run *r, int w)
{
    char path[4096];
    spool_file(r, w, ".err", path, sizeof path);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    spool_file(r, w, ".rep", path, sizeof path);
    r->spool_out = fd >= 0 ? fopen(path, "w") : NULL;
    if (r->spool_out == NULL) {
        say_error(r->pr, NULL, "-j: cannot write in %s: %s", r->spool, strerror(errno));
        if (fd >= 0)
            close(fd);
        return -1;
    }
    fflush(stderr);
    (void)dup2(fd, STDERR_FILENO);
    close(fd);
    return 0;
}

/* Scans one job named NAME made of PATHS, reusing R's job, and hands it
 * to the session. */
static void run_job(struct run *r, const char *name, const char **paths, size_t n)
{
    if (r->spool_out != NULL) {
        spool_job(r, name, paths, n);
        return;
    }
    scan_job(r, paths, n);
    if (session_job(&r->s, r->job, name, 0) < 0 && !r->s.write_failed)
        say_error(r->pr, NULL, "out of memory");
}

/* One job per file, for the loop over PATHs and for --each. */
static int each_job(void *ctx, const char *path)
{
    struct run *r = ctx;
    if (r->s.write_failed)
        return 1; /* stop: nothing more can be written */
    if (r->next != NULL && r->seen++ != r->mine)
        return 0;
    run_job(r, path, &path, 1);
    if (r->next != NULL)
        r->mine = __atomic_fetch_add(r->next, 1, __ATOMIC_RELAXED);
    return r->s.write_failed;
}

/* Appends the paths --files-from names to O's paths; LIST keeps their
 * text.  0, or -1 after a message. */
static int add_files_from(struct cli_opts *o, struct pathlist *list, struct printer *pr)
{
    if (pathlist_read(o->files_from, list) != 0) {
        say_file_error(pr, o->files_from, "--files-from");
        return -1;
    }
    if (list->count == 0) {
        say_error(pr, o->files_from, "--files-from: no paths in it");
        return -1;
    }
    const char **all = realloc(o->paths, (o->path_count + list->count) * sizeof *all);
    if (all == NULL) {
        say_error(pr, NULL, "out of memory");
        return -1;
    }
    memcpy(all + o->path_count, list->paths, list->count * sizeof *all);
    o->paths = all;
    o->path_count += list->count;
    return 0;
}

/* Scans PATHS' jobs in the current process: every one, or with R's
 * slots only its share. */
static void scan_paths(struct run *r, const char **paths, size_t n)
{
    for (size_t i = 0; i < n && !r->s.write_failed; i++) {
        if (r->o->each)
            (void)od_each_file(paths[i], each_job, r);
        else
            (void)each_job(r, paths[i]);
    }
}

/* -j's private directory for the workers' reports (in $TMPDIR, else
 * /tmp), named in BUF and set as R's spool.  0, or -1 after a message. */
static int make_spool(struct run *r, char *buf, size_t size)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(buf, size, "%s/oomdiag-j-XXXXXX", tmp != NULL && tmp[0] != '\0' ? tmp : "/tmp");
    if (mkdtemp(buf) == NULL) {
        say_error(r->pr, NULL, "-j: cannot make a directory for the reports (%s): %s", buf, strerror(errno));
        r->s.trouble = 1;
        return -1;
    }
    r->spool = buf;
    return 0;
}

/* -j's worker W: takes jobs until none is left, then exits with its
 * status bits (1 diagnosed, 2 trouble, 4 a write failed). */
static void run_worker(struct run *r, int w, unsigned long *next, const char **paths, size_t n)
{
    int keep = dup(STDERR_FILENO); /* the real stderr, for a failure of the spool itself */
    if (open_worker_spool(r, w) != 0)
        _exit(2);
    r->next = next;
    r->mine = __atomic_fetch_add(next, 1, __ATOMIC_RELAXED);
    scan_paths(r, paths, n);
    int ok = fflush(stdout) == 0;
    if (fclose(r->spool_out) != 0 || !ok) {
        fflush(stderr);
        if (keep >= 0)
            (void)dup2(keep, STDERR_FILENO);
        say_error(r->pr, NULL, "-j: cannot write in %s: %s", r->spool, strerror(errno));
        r->s.trouble = 1;
    }
    _exit((r->s.diagnosed ? 1 : 0) | (r->s.trouble ? 2 : 0) | (r->s.write_failed ? 4 : 0));
}

/* -j N: N worker processes, each taking the next job no other worker has
 * taken (a counter in shared memory: a worker that met a long job does
 * not hold up the rest).  Each worker scans and classifies the jobs it
 * takes and appends each report, under the job's number, to its file in
 * the spool (its messages to another); once they are done the parent
 * shows each job's messages and renders its report, in input order,
 * through its one session, so the output, the messages and the exit
 * status are those of one process (the workers add only trouble). */
static void run_workers(struct run *r, const char **paths, size_t n)
{
    int slots = r->o->jobs, started = 0;
    unsigned long *next = mmap(NULL, sizeof *next, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (next == MAP_FAILED) {
        say_error(r->pr, NULL, "-j: %s", strerror(errno));
        r->s.trouble = 1;
        return;
    }
    *next = 0;
    char spool[4096];
    if (make_spool(r, spool, sizeof spool) != 0) {
        munmap(next, sizeof *next);
        return;
    }
    fflush(stdout);
    fflush(stderr);
    for (int k = 0; k < slots; k++) {
        pid_t pid = fork();
        if (pid < 0) {
            say_error(r->pr, NULL, "-j: cannot start a worker: %s", strerror(errno));
            r->s.trouble = 1;
            break;
        }
        if (pid == 0)
            run_worker(r, k, next, paths, n);
        started++;
    }
    for (int k = 0; k < started; k++) {
        int status = 0;
        if (wait(&status) < 0)
            break;
        int code = WIFEXITED(status) ? WEXITSTATUS(status) : 2;
        r->s.diagnosed |= code & 1;
        r->s.trouble |= (code & 2) != 0 || !WIFEXITED(status);
        r->s.write_failed |= (code & 4) != 0;
    }
    if (r->spool != NULL)
        render_spool(r, *next, started);
    r->spool = NULL;
    munmap(next, sizeof *next);
}

static int has_cause(const void *rs, const char *id)
{
    return catalog_has_cause(rs, id);
}

/* Parses O's --fail-on into F, for every mode that diagnoses (before a
 * job is started or an input read).  Returns F, NULL when there is none,
 * or sets *BAD_LIST after a message. */
static struct fail_on *parse_fail_on(const struct cli_opts *o, const struct od_ruleset *rs, struct printer *pr,
                                     struct fail_on *f, int *bad_list)
{
    const char *bad = NULL;
    if (o->fail_on == NULL)
        return NULL;
    if (fail_on_parse(f, o->fail_on, has_cause, rs, &bad) == 0)
        return f;
    if (bad != NULL)
        say_error(pr, NULL, "--fail-on: unknown cause or confidence '%s'", bad);
    else
        say_error(pr, NULL, "out of memory");
    fail_on_free(f);
    *bad_list = 1;
    return NULL;
}

/* Every job of O's paths (standard input when none) through R's session,
 * with the progress line, in this process or -j's workers. */
static void diagnose_paths(const struct cli_opts *o, struct run *r, struct printer *pr)
{
    static const char *const stdin_path[] = {"-"};
    const char **paths = o->path_count ? o->paths : (const char **)stdin_path;
    size_t npaths = o->path_count ? o->path_count : 1;
    /* A bare `oomdiag` at a terminal waits for typed or pasted text:
     * say so, as its progress line would only count its own reads. */
    int typing = npaths == 1 && strcmp(paths[0], "-") == 0 && isatty(STDIN_FILENO);
    if (typing && !o->quiet && isatty(STDERR_FILENO))
        msg_say(print_message, pr, OD_SEV_NOTE, NULL,
                "reading standard input: paste a log and end with Ctrl-D (oomdiag --help for usage)");
    pr->progress = typing ? NULL : progress_start(o, paths, npaths);
    r->s.o.flush_each = pr->progress != NULL;
    if (o->jobs > 1 && !o->one_job) {
        progress_stop(pr->progress);
        pr->progress = NULL;
        run_workers(r, paths, npaths);
    } else if (o->one_job) {
        run_job(r, npaths == 1 ? paths[0] : NULL, paths, npaths);
    } else {
        scan_paths(r, paths, npaths);
    }
    progress_stop(pr->progress);
    pr->progress = NULL;
}

/* Diagnoses O's paths (standard input when none) into R; returns the
 * exit status. */
static int run_diagnosis(struct cli_opts *o, const struct od_ruleset *rs, const char *lang,
                         const struct od_words *words, struct printer *pr, struct run *r)
{
    struct pathlist listed = {0};
    const char *summary_path = NULL;
    int status = OD_EXIT_TROUBLE;
    int trouble = 0;
    FILE *summary = open_step_summary(o, pr, &summary_path, &trouble);
    struct session_opts sop = {
        stdout,
        {o->format, cli_use_color(o, STDOUT_FILENO), o->trace, o->max_evidence, od_ruleset_version(rs), lang, words,
         cli_text_width(o, STDOUT_FILENO), summary},
        r->fail_on,
        o->quiet,
        pause_progress,
        resume_progress,
        pr,
        0,
        o->compact,
        0};
    struct od_scan_opts so = {o->binary_as_text, o->no_messages, o->trace};
    r->o = o;
    r->pr = pr;
    int ready = session_init(&r->s, &sop) == 0;
    r->s.trouble = trouble;
    r->job = od_job_create(rs, &so, print_message, pr);
    if (!ready || r->job == NULL) {
        say_error(pr, NULL, "out of memory");
        goto done;
    }
    if (o->files_from != NULL && add_files_from(o, &listed, pr) != 0)
        r->s.trouble = 1;
    else
        diagnose_paths(o, r, pr);
    session_finish(&r->s);
    if (summary != NULL) {
        int failed = ferror(summary);
        if (fclose(summary) != 0 || failed) {
            say_file_error(pr, summary_path, "writing the step summary failed");
            r->s.trouble = 1;
        }
        summary = NULL;
    }
    status = session_status(&r->s);
done:
    if (summary != NULL)
        fclose(summary);
    od_job_free(r->job);
    session_free(&r->s);
    r->job = NULL;
    pathlist_free(&listed);
    return status;
}

int main(int argc, char **argv)
{
    struct cli_opts o;
    struct printer pr = {0};
    struct run run = {0};
    struct od_ruleset *rs = NULL;
    struct od_words *words = NULL;
    int status = OD_EXIT_TROUBLE;

    int parsed = cli_parse(argc, argv, &o, stderr) == 0;
    pr.quiet = o.quiet;
    if (parsed && o.mode == CLI_HELP) {
        cli_help(stdout);
        status = OD_EXIT_DIAGNOSED;
    } else if (parsed && (rs = load_rules(&o, &pr)) != NULL) {
        const char *lang = lang_choose(o.lang, env);
        int translate = o.mode == CLI_DIAGNOSE || o.mode == CLI_EXPLAIN || o.mode == CLI_RUN;
        struct fail_on fail_on;
        int bad_list = 0;
        if ((translate && od_ruleset_translate(rs, lang, &words) != 0) || run_info_mode(&o, rs, words, &pr, &status))
            ; /* done: an error reported, or the information printed */
        else if ((run.fail_on = parse_fail_on(&o, rs, &pr, &fail_on, &bad_list)), bad_list)
            status = OD_EXIT_TROUBLE; /* in every mode, before a job starts or an input is read */
        else if (o.mode == CLI_RUN || o.tee) {
            struct live_spec spec;
            cli_live_spec(&o, &spec);
            status = (o.mode == CLI_RUN ? live_run : live_tee)(&spec, rs, lang, words, run.fail_on, print_message, &pr);
        }
        else if (o.follow)
            status = follow_main(&o, rs, lang, words, run.fail_on, print_message, &pr);
        else
            status = run_diagnosis(&o, rs, lang, words, &pr, &run);
        if (run.fail_on != NULL)
            fail_on_free(&fail_on);
        run.fail_on = NULL;
    }
    od_ruleset_free(rs);
    words_free(words);
    cli_free(&o);
    errno = 0;
    if (fclose(stdout) != 0 || run.s.write_failed) {
        if (run.s.out_errno == 0)
            run.s.out_errno = errno;
        if (!run.s.write_failed || !o.quiet)
            say_error(&pr, NULL, "writing output failed: %s",
                      run.s.out_errno ? strerror(run.s.out_errno) : "the output stream reported an error");
        status = OD_EXIT_TROUBLE;
    }
    return status;
}
