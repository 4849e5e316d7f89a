/* oomdiag: options -> rules -> scan each job -> classify -> render.
 * The only place that prints diagnostics and chooses the exit status. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "catalog.h"
#include "cli.h"
#include "follow.h"
#include "lang.h"
#include "live.h"
#include "msg.h"
#include "oomdiag/oomdiag.h"
#include "pathlist.h"
#include "progress.h"
#include "selftest.h"
#include "translate.h"

static const char *env(const char *name)
{
    return getenv(name);
}

/* The errno of the first failed write to standard output, for its message. */
static int out_errno;

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

/* --fail-on, parsed once: the causes that count (none listed: all) and
 * the lowest confidence that counts. */
enum { FAIL_ON_MAX = 64 };
struct fail_on {
    char buf[512];
    const char *causes[FAIL_ON_MAX];
    size_t cause_count;
    int min_confidence;
};

/* Parses TEXT, checking each cause against the rules. 0, or -1 after a
 * message. */
static int fail_on_parse(struct fail_on *f, const char *text, const struct od_ruleset *rs)
{
    static const char *const levels[] = {"low", "medium", "high"};
    f->cause_count = 0;
    f->min_confidence = OD_CONF_LOW;
    snprintf(f->buf, sizeof f->buf, "%s", text);
    for (char *save = NULL, *tok = strtok_r(f->buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        int level = -1;
        for (int i = 0; i < 3; i++)
            if (strcmp(tok, levels[i]) == 0)
                level = i;
        if (level >= 0) {
            f->min_confidence = level;
        } else if (catalog_has_cause(rs, tok) && f->cause_count < FAIL_ON_MAX) {
            f->causes[f->cause_count++] = tok;
        } else {
            fprintf(stderr, "oomdiag: --fail-on: unknown cause or confidence '%s'\n", tok);
            return -1;
        }
    }
    return 0;
}

/* Does diagnosis D count for the exit status (F: --fail-on, or NULL)? */
static int counts(const struct od_diagnosis *d, const struct fail_on *f)
{
    if (d->role != OD_ROLE_ROOT)
        return 0;
    if (f == NULL)
        return 1;
    if ((int)d->confidence < f->min_confidence)
        return 0;
    for (size_t i = 0; i < f->cause_count; i++)
        if (strcmp(f->causes[i], d->cause) == 0)
            return 1;
    return f->cause_count == 0;
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
    int beside = o->mode == CLI_CHECK_RULES && o->path_count > 0;
    if (!o->no_builtin_rules && !beside && od_ruleset_add_builtin(rs) != 0)
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

static int run_check(struct od_ruleset *rs, int with_builtin)
{
    struct selftest_result res;
    int rc = selftest_run(rs, with_builtin, &res);
    if (res.signatures == 0) {
        fputs("oomdiag: no signatures to check (no rule files, or rule files without \"signatures\")\n", stderr);
        return OD_EXIT_TROUBLE;
    }
    printf("oomdiag: checked %zu signatures and %zu samples: %zu failure%s, %zu warning%s\n", res.signatures,
           res.samples, res.failures, res.failures == 1 ? "" : "s", res.warnings, res.warnings == 1 ? "" : "s");
    return rc == 0 ? OD_EXIT_DIAGNOSED : OD_EXIT_TROUBLE;
}

static void print_file_error(const char *path, const char *what)
{
    char text[256];
    snprintf(text, sizeof text, "%s: %s", what, strerror(errno));
    struct od_message m = {OD_SEV_ERROR, path, 0, 0, text, NULL, 0};
    msg_print(stderr, &m, 0);
}

/* --format github also appends the Markdown report to the file that
 * $GITHUB_STEP_SUMMARY names (GitHub shows it on the run's page).
 * Returns the open file, or NULL: none asked for, or an error reported
 * (then *TROUBLE is set). */
static FILE *open_step_summary(const struct cli_opts *o, const char **path, int *trouble)
{
    *path = getenv("GITHUB_STEP_SUMMARY");
    if (o->format != OD_FMT_GITHUB || o->quiet || *path == NULL || (*path)[0] == '\0')
        return NULL;
    FILE *f = fopen(*path, "a");
    if (f == NULL) {
        print_file_error(*path, "cannot write the step summary ($GITHUB_STEP_SUMMARY)");
        *trouble = 1;
    }
    return f;
}

/* Scans, classifies and renders one job made of PATHS, reusing JOB. */
static int run_job(struct od_job *job, const struct cli_opts *o, const struct fail_on *fail_on,
                   struct od_renderer *rend, const char **paths, size_t n, int *diagnosed, struct progress *pg)
{
    int trouble = 0;
    od_job_reset(job);
    for (size_t i = 0; i < n; i++)
        if (od_job_add_path(job, paths[i]) != 0)
            trouble = 1;
    struct od_report *rep = od_classify(job);
    if (rep == NULL) {
        fputs("oomdiag: out of memory\n", stderr);
        return -1;
    }
    for (size_t i = 0; i < rep->count; i++)
        if (counts(&rep->diagnoses[i], fail_on))
            *diagnosed = 1;
    progress_pause(pg);
    if (!o->quiet && (rep->input_count > 0 || rep->count > 0) && od_render_job(rend, rep) != 0) {
        out_errno = errno;
        trouble = 2;
    }
    if (pg != NULL)
        fflush(stdout);
    progress_resume(pg);
    od_report_free(rep);
    return trouble;
}

/* One job per file, for the loop over PATHs and for --each. */
struct each_ctx {
    struct od_job *job;
    const struct cli_opts *o;
    const struct fail_on *fail_on;
    struct od_renderer *rend;
    int *diagnosed;
    int trouble, write_failed;
    struct progress *pg; /* paused while a report is printed */
    unsigned long seen;  /* jobs met so far: -j gives worker SLOT of SLOTS every SLOTS-th */
    int slot, slots;
};

static int each_job(void *ctx, const char *path)
{
    struct each_ctx *e = ctx;
    if (e->write_failed)
        return 1; /* stop: nothing more can be written */
    if (e->slots > 1 && e->seen++ % (unsigned long)e->slots != (unsigned long)e->slot)
        return 0;
    int rc = run_job(e->job, e->o, e->fail_on, e->rend, &path, 1, e->diagnosed, e->pg);
    e->trouble |= rc != 0;
    e->write_failed |= rc == 2;
    return e->write_failed;
}

/* Appends the paths --files-from names to O's paths; LIST keeps their
 * text.  0, or -1 after a message. */
static int add_files_from(struct cli_opts *o, struct pathlist *list)
{
    if (pathlist_read(o->files_from, list) != 0) {
        print_file_error(strcmp(o->files_from, "-") == 0 ? "-" : o->files_from, "--files-from");
        return -1;
    }
    if (list->count == 0) {
        fprintf(stderr, "oomdiag: --files-from %s: no paths in it\n", o->files_from);
        return -1;
    }
    const char **all = realloc(o->paths, (o->path_count + list->count) * sizeof *all);
    if (all == NULL) {
        fputs("oomdiag: out of memory\n", stderr);
        return -1;
    }
    memcpy(all + o->path_count, list->paths, list->count * sizeof *all);
    o->paths = all;
    o->path_count += list->count;
    return 0;
}

/* Scans PATHS' jobs in the current process: every one, or with E's
 * slots only its share. */
static void scan_paths(struct each_ctx *e, const char **paths, size_t n)
{
    for (size_t i = 0; i < n && !e->write_failed; i++) {
        if (e->o->each)
            (void)od_each_file(paths[i], each_job, e);
        else
            (void)each_job(e, paths[i]);
    }
}

/* -j N: N worker processes, each taking every N-th job, each writing its
 * records whole (render_json.c locks the output around each).  The exit
 * status is the workers' combined: any diagnosis, any trouble. */
static void run_workers(struct each_ctx *e, const char **paths, size_t n, int *trouble, int *write_failed)
{
    int slots = e->o->jobs, started = 0;
    fflush(stdout);
    fflush(stderr);
    for (int k = 0; k < slots; k++) {
        pid_t pid = fork();
        if (pid < 0) {
            fprintf(stderr, "oomdiag: -j: cannot start a worker: %s\n", strerror(errno));
            *trouble = 1;
            break;
        }
        if (pid == 0) {
            e->slot = k;
            e->slots = slots;
            scan_paths(e, paths, n);
            int ok = fflush(stdout) == 0;
            _exit((*e->diagnosed ? 1 : 0) | (e->trouble ? 2 : 0) | (e->write_failed || !ok ? 4 : 0));
        }
        started++;
    }
    for (int k = 0; k < started; k++) {
        int status = 0;
        if (wait(&status) < 0)
            break;
        int code = WIFEXITED(status) ? WEXITSTATUS(status) : 2;
        *e->diagnosed |= code & 1;
        *trouble |= (code & 2) != 0 || !WIFEXITED(status);
        *write_failed |= (code & 4) != 0;
    }
}

int main(int argc, char **argv)
{
    struct cli_opts o;
    struct printer pr = {0};
    struct od_ruleset *rs = NULL;
    struct od_renderer *rend = NULL;
    struct od_job *job = NULL;
    struct fail_on fail_on;
    FILE *summary = NULL;
    const char *summary_path = NULL;
    struct od_words *words = NULL;
    struct pathlist listed = {0};
    const char *lang = "en";
    int status = OD_EXIT_TROUBLE, trouble = 0, diagnosed = 0, write_failed = 0;
    static const char *const stdin_path[] = {"-"};

    if (cli_parse(argc, argv, &o, stderr) != 0)
        goto done;
    pr.quiet = o.quiet;
    if (o.mode == CLI_HELP) {
        cli_help(stdout);
        status = OD_EXIT_DIAGNOSED;
        goto done;
    }
    rs = load_rules(&o, &pr);
    if (rs == NULL)
        goto done;
    lang = lang_choose(o.lang, env);
    if ((o.mode == CLI_DIAGNOSE || o.mode == CLI_EXPLAIN || o.mode == CLI_RUN) &&
        translate_apply(rs, lang, &words) != 0)
        goto done;
    switch (o.mode) {
    case CLI_VERSION:
        printf("oomdiag %s (rules %s)\n", od_version(), od_ruleset_version(rs));
        status = OD_EXIT_DIAGNOSED;
        goto done;
    case CLI_CHECK_RULES: status = run_check(rs, o.path_count == 0); goto done;
    case CLI_LIST_RULES:
        catalog_list(stdout, rs);
        status = OD_EXIT_DIAGNOSED;
        goto done;
    case CLI_EXPLAIN:
        if (catalog_explain(stdout, rs, words, o.explain) != 0) {
            fprintf(stderr, "oomdiag: unknown cause '%s' (see --list-rules)\n", o.explain);
            goto done;
        }
        status = OD_EXIT_DIAGNOSED;
        goto done;
    case CLI_RUN: status = live_run(&o, rs, lang, words, print_message, &pr); goto done;
    default: break;
    }
    if (o.tee) {
        status = live_tee(&o, rs, lang, words, print_message, &pr);
        goto done;
    }
    if (o.follow) {
        status = follow_main(&o, rs, lang, words, print_message, &pr);
        goto done;
    }
    if (o.fail_on != NULL && fail_on_parse(&fail_on, o.fail_on, rs) != 0)
        goto done;

    struct od_render_opts ro = {
        o.format, cli_use_color(&o, STDOUT_FILENO),  o.trace, o.max_evidence, od_ruleset_version(rs), lang,
        words,    cli_text_width(&o, STDOUT_FILENO), NULL};
    summary = open_step_summary(&o, &summary_path, &trouble);
    ro.step_summary = summary;
    rend = od_renderer_create(stdout, &ro);
    struct od_scan_opts so = {o.binary_as_text, o.no_messages, o.trace};
    job = od_job_create(rs, &so, print_message, &pr);
    if (rend == NULL || job == NULL) {
        fputs("oomdiag: out of memory\n", stderr);
        if (summary != NULL)
            fclose(summary);
        goto done;
    }
    if (o.files_from != NULL && add_files_from(&o, &listed) != 0) {
        trouble = 1;
        goto finish;
    }
    const char **paths = o.path_count ? o.paths : (const char **)stdin_path;
    size_t npaths = o.path_count ? o.path_count : 1;
    pr.progress = progress_start(&o, paths, npaths);
    struct each_ctx each = {job, &o, o.fail_on ? &fail_on : NULL, rend, &diagnosed, 0, 0, pr.progress, 0, 0, 1};
    if (o.jobs > 1 && !o.one_job) {
        progress_stop(pr.progress);
        pr.progress = NULL;
        run_workers(&each, paths, npaths, &trouble, &write_failed);
    } else if (o.one_job) {
        int rc = run_job(job, &o, o.fail_on ? &fail_on : NULL, rend, paths, npaths, &diagnosed, pr.progress);
        trouble |= rc != 0;
        write_failed |= rc == 2;
    } else {
        scan_paths(&each, paths, npaths);
        trouble |= each.trouble;
        write_failed |= each.write_failed;
    }
    progress_stop(pr.progress);
    pr.progress = NULL;
finish:
    if (!o.quiet && od_renderer_finish(rend) != 0) {
        out_errno = errno;
        write_failed = 1;
    }
    if (summary != NULL) {
        int bad = ferror(summary);
        if (fclose(summary) != 0 || bad) {
            print_file_error(summary_path, "writing the step summary failed");
            trouble = 1;
        }
    }
    if (o.quiet && diagnosed)
        status = OD_EXIT_DIAGNOSED; /* as grep -q: a match wins over trouble */
    else if (trouble || write_failed)
        status = OD_EXIT_TROUBLE;
    else
        status = diagnosed ? OD_EXIT_DIAGNOSED : OD_EXIT_NONE;
done:
    od_job_free(job);
    od_renderer_free(rend);
    od_ruleset_free(rs);
    words_free(words);
    cli_free(&o);
    pathlist_free(&listed);
    errno = 0;
    if (fclose(stdout) != 0 || write_failed) {
        if (out_errno == 0)
            out_errno = errno;
        if (!write_failed || !o.quiet)
            fprintf(stderr, "oomdiag: writing output failed: %s\n",
                    out_errno ? strerror(out_errno) : "the output stream reported an error");
        status = OD_EXIT_TROUBLE;
    }
    return status;
}
