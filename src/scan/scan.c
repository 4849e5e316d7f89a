/* The single pass: inputs (stdin, files, directory trees, gzip) -> lines
 * -> matcher -> findings of a job.  A per-input error is reported, marked
 * and the scan goes on with the next input. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ansi.h"
#include "feed.h"
#include "fields.h"
#include "job.h"
#include "reader.h"
#include "textsafe.h"
#include "walk.h"

struct line_ctx {
    struct od_job *job;
    size_t input;
    const char *text;
    size_t len;
    unsigned long long number;
    int line_rank; /* -2: not looked up yet */
};

static int line_rank(struct line_ctx *lc)
{
    if (lc->line_rank != -2)
        return lc->line_rank;
    lc->line_rank = -1;
    const struct od_ruleset *rs = lc->job->rs;
    for (size_t i = 0; i < rs->rank_count && lc->line_rank < 0; i++)
        if (!rs->ranks[i]->from_path)
            lc->line_rank = matcher_rank(lc->job->matcher, rs->ranks[i], lc->text, lc->len);
    return lc->line_rank;
}

static int on_hit(void *ctx, const struct sig *sig, const struct od_fields *fields)
{
    struct line_ctx *lc = ctx;
    struct input *in = &lc->job->inputs[lc->input];
    if (sig->role == OD_ROLE_PROGRESS) {
        const struct od_field *step = fields_get(fields, "step");
        lc->job->pending_len = 0; /* a later progress line supersedes it */
        in->progress_lines++;
        if (step != NULL && step->type == OD_FIELD_INT)
            in->last_step = step->num;
        lc->job->sig_counts[sig->index]++;
        return 0;
    }
    const struct od_field *r = fields_get(fields, "rank");
    int rank = r != NULL && r->type == OD_FIELD_INT && r->num >= 0 && r->num < 1000000 ? (int)r->num : -1;
    if (sig->role == OD_ROLE_ERROR) {
        lc->job->sig_counts[sig->index]++;
        char *copy = textsafe_dup(lc->text, lc->len, JOB_TEXT_MAX);
        if (copy == NULL)
            return -1;
        free(lc->job->last_error.text);
        lc->job->last_error.text = copy;
        lc->job->last_error.input = lc->input;
        lc->job->last_error.line = lc->number;
        return 0;
    }
    if (sig->role == OD_ROLE_CONTEXT) {
        lc->job->sig_counts[sig->index]++;
        in->context_rank = rank;
        return 0;
    }
    if (rank < 0)
        rank = line_rank(lc);
    if (rank < 0)
        rank = in->context_rank;
    if (rank < 0)
        rank = in->rank;
    return job_record(lc->job, lc->input, sig, fields, lc->text, lc->len, lc->number, rank);
}

/* The rank a path names.  The component closest to the file wins: the
 * path's suffixes are tried from the base name outwards, so that
 * "runs/rank1-test/rank0.log" is rank 0. */
static int path_rank(struct od_job *job, const char *path)
{
    const struct od_ruleset *rs = job->rs;
    size_t len = strlen(path);
    for (size_t start = len; start-- > 0;) {
        if (start > 0 && path[start - 1] != '/')
            continue;
        for (size_t i = 0; i < rs->rank_count; i++) {
            if (!rs->ranks[i]->from_path)
                continue;
            int rank = matcher_rank(job->matcher, rs->ranks[i], path + start, len - start);
            if (rank >= 0)
                return rank;
        }
    }
    return -1;
}

/* Evaluates the pending "\r" progress update, if any. */
static void resolve_pending(struct od_job *job, size_t input)
{
    size_t len = job->pending_len;
    if (len == 0)
        return;
    job->pending_len = 0;
    struct line_ctx lc = {job, input, job->pending, len, 0, -2};
    matcher_line(job->matcher, job->pending, len, MATCHER_ONLY_PROGRESS, on_hit, &lc);
}

/* Of a progress bar's "\r" updates only the last one before something
 * else happens counts: an update is kept aside (one copy, no regex) and
 * evaluated only when a finding follows it or the input ends. */
static int match_line(struct od_job *job, size_t input, const struct line *ln, const char *text, size_t len)
{
    struct line_ctx lc = {job, input, text, len, ln->number, -2};
    size_t before = job->finding_count;
    int had_pending = job->pending_len > 0;
    int rc = matcher_line(job->matcher, text, len, ln->cr_ended ? MATCHER_SKIP_PROGRESS : 0, on_hit, &lc);
    if (rc < 0)
        return -1;
    if (had_pending && job->pending_len > 0 && job->finding_count > before) {
        resolve_pending(job, input);
        for (size_t i = before; i < job->finding_count; i++)
            job->findings[i].step_at = job->inputs[input].last_step;
        job_progress_before(job, input, ln->number);
    }
    if (ln->cr_ended && matcher_skipped_progress(job->matcher)) {
        job->pending_len = len < JOB_PENDING_MAX ? len : JOB_PENDING_MAX;
        memcpy(job->pending, text, job->pending_len);
    }
    return 0;
}

static int scan_fd(struct od_job *job, int fd, const char *path)
{
    long idx = job_add_input(job, path);
    if (job->reader == NULL)
        job->reader = reader_create(fd);
    else
        reader_reset(job->reader, fd);
    struct reader *rd = job->reader;
    struct line ln;
    int rc = 0, first = 1;
    if (idx < 0 || rd == NULL) {
        msg_error(&job->msgs, path, "out of memory");
        job->had_error = 1;
        return -1;
    }
    job->inputs[idx].rank = path_rank(job, path);
    for (;;) {
        int got = reader_next(rd, &ln);
        if (got <= 0) {
            if (got < 0) {
                msg_error(&job->msgs, path, "%s", reader_error(rd));
                job_input_error(job, idx, path, "unreadable", reader_error(rd));
                rc = -1;
            }
            break;
        }
        if (first) {
            first = 0;
            if (reader_is_binary(rd) && !job->opts.binary_as_text) {
                static const char note[] = "binary file skipped (use --binary-files=text to scan it)";
                msg_report(&job->msgs, OD_SEV_NOTE, path, 0, 0, NULL, 0, "%s", note);
                job_input_error(job, idx, path, "binary", note);
                break;
            }
        }
        const char *text = ln.text;
        size_t len = ln.len;
        if (ln.has_escape) {
            len = ansi_strip(text, len, job->line_buf);
            text = job->line_buf;
        }
        if (match_line(job, (size_t)idx, &ln, text, len) != 0) {
            msg_error(&job->msgs, path, "out of memory");
            job->had_error = 1;
            rc = -1;
            break;
        }
    }
    resolve_pending(job, (size_t)idx);
    job->inputs[idx].lines = reader_lines(rd);
    job->inputs[idx].bytes = reader_bytes(rd);
    if (job->inputs[idx].bytes == 0 && job->inputs[idx].error_kind == NULL)
        job_input_error(job, idx, path, "empty", "the input is empty");
    return rc;
}

int od_job_add_fd(struct od_job *job, int fd, const char *path)
{
    return scan_fd(job, fd, path);
}

/* The kind of an errno from opening or listing an input. */
static const char *errno_kind(int err)
{
    if (err == ENOENT || err == ENOTDIR)
        return "not-found";
    if (err == EACCES || err == EPERM)
        return "permission";
    return "unreadable";
}

/* Reports that PATH could not be opened or listed (errno ERR), and keeps
 * it as an input with the reason.  Returns -1. */
static int cannot_read(struct od_job *job, const char *path, int err)
{
    if (!job->opts.no_messages)
        msg_error(&job->msgs, path, "%s", strerror(err));
    job_input_error(job, -1, path, errno_kind(err), strerror(err));
    job->had_error = 1;
    return -1;
}

static int scan_file(struct od_job *job, const char *path)
{
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return cannot_read(job, path, errno);
    int rc = scan_fd(job, fd, path);
    close(fd);
    return rc;
}

static int on_file(void *ctx, const char *path, int depth)
{
    (void)depth;
    return scan_file(ctx, path) != 0 ? -1 : 0;
}

static void on_problem(void *ctx, const char *path, enum walk_problem what, int err)
{
    struct od_job *job = ctx;
    switch (what) {
    case WALK_ERRNO: cannot_read(job, path, err); break;
    case WALK_TOO_DEEP:
        msg_warn(&job->msgs, path, "directory tree deeper than %d levels: not descending", WALK_MAX_DEPTH);
        break;
    case WALK_LOOP: msg_warn(&job->msgs, path, "directory loop (a symbolic link back to a parent): skipped"); break;
    case WALK_EMPTY_DIR:
        if (!job->opts.no_messages)
            msg_error(&job->msgs, path, "no files in this directory");
        job_input_error(job, -1, path, "empty-directory", "no files in this directory");
        break;
    }
}

int od_job_add_path(struct od_job *job, const char *path)
{
    if (strcmp(path, "-") == 0)
        return scan_fd(job, STDIN_FILENO, "-");
    struct walk_ops ops = {on_file, on_problem, job};
    return walk_path(path, &ops) != 0 ? -1 : 0;
}

struct each {
    int (*fn)(void *ctx, const char *path);
    void *ctx;
};

static int each_file(void *ctx, const char *path, int depth)
{
    (void)depth;
    const struct each *e = ctx;
    return e->fn(e->ctx, path);
}

/* A path that cannot be walked is still a job: FN gets it, and the scan
 * then reports it as an input with its reason. */
static void each_problem(void *ctx, const char *path, enum walk_problem what, int err)
{
    (void)err;
    const struct each *e = ctx;
    if (what == WALK_ERRNO || what == WALK_EMPTY_DIR)
        (void)e->fn(e->ctx, path);
}

int od_each_file(const char *path, int (*fn)(void *ctx, const char *path), void *ctx)
{
    if (strcmp(path, "-") == 0)
        return fn(ctx, path);
    struct each e = {fn, ctx};
    struct walk_ops ops = {each_file, each_problem, &e};
    return walk_path(path, &ops);
}

/* ---- feed.h: lines handed in by the caller ---- */

long od_job_feed_begin(struct od_job *job, const char *path)
{
    long idx = job_add_input(job, path);
    if (idx >= 0)
        job->inputs[idx].rank = path_rank(job, path);
    return idx;
}

int od_job_feed_line(struct od_job *job, size_t input, const struct line *ln)
{
    const char *text = ln->text;
    size_t len = ln->len;
    if (ln->has_escape) {
        len = ansi_strip(text, len, job->line_buf);
        text = job->line_buf;
    }
    return match_line(job, input, ln, text, len);
}

void od_job_feed_counts(struct od_job *job, size_t input, unsigned long long lines, unsigned long long bytes)
{
    job->inputs[input].lines = lines;
    job->inputs[input].bytes = bytes;
}

void od_job_feed_end(struct od_job *job, size_t input, unsigned long long lines, unsigned long long bytes)
{
    resolve_pending(job, input);
    od_job_feed_counts(job, input, lines, bytes);
}
