#include "job.h"

#include <stdlib.h>
#include <string.h>

#include "fields.h"
#include "grow.h"
#include "textsafe.h"

struct od_job *od_job_create(const struct od_ruleset *rs, const struct od_scan_opts *opts, od_msg_fn fn, void *ctx)
{
    struct od_job *job = calloc(1, sizeof *job);
    if (job == NULL)
        return NULL;
    job->rs = rs;
    if (opts != NULL)
        job->opts = *opts;
    job->msgs.fn = fn;
    job->msgs.ctx = ctx;
    job->matcher = matcher_create(rs, &job->msgs);
    job->sig_counts = calloc(rs->sig_count ? rs->sig_count : 1, sizeof *job->sig_counts);
    job->kept_here = calloc(rs->sig_count ? rs->sig_count : 1, sizeof *job->kept_here);
    job->line_buf = malloc(1024 * 1024 + 1);
    job->pending = malloc(JOB_PENDING_MAX);
    if (job->matcher == NULL || job->sig_counts == NULL || job->kept_here == NULL || job->line_buf == NULL ||
        job->pending == NULL || join_init(&job->join) != 0) {
        od_job_free(job);
        return NULL;
    }
    return job;
}

void od_job_reset(struct od_job *job)
{
    for (size_t i = 0; i < job->input_count; i++) {
        free(job->inputs[i].path);
        free(job->inputs[i].error_message);
    }
    job->input_count = 0;
    for (size_t i = 0; i < job->finding_count; i++) {
        free(job->findings[i].text);
        fields_free(&job->findings[i].fields);
    }
    job->finding_count = 0;
    memset(job->sig_counts, 0, (job->rs->sig_count ? job->rs->sig_count : 1) * sizeof *job->sig_counts);
    job->seq = 0;
    job->had_error = 0;
    job->pending_len = 0;
    join_clear(&job->join);
    free(job->last_error.text);
    job->last_error.text = NULL;
    for (size_t i = 0; i < job->near_count; i++)
        free(job->near[i].text);
    job->near_count = 0;
}

void od_job_free(struct od_job *job)
{
    if (job == NULL)
        return;
    od_job_reset(job);
    free(job->inputs);
    free(job->findings);
    reader_free(job->reader);
    free(job->sig_counts);
    free(job->kept_here);
    free(job->line_buf);
    free(job->pending);
    join_free(&job->join);
    matcher_free(job->matcher);
    free(job);
}

long job_add_input(struct od_job *job, const char *path)
{
    struct input *inputs = grow(job->inputs, &job->input_cap, job->input_count, sizeof *inputs, 8);
    if (inputs == NULL)
        return -1;
    job->inputs = inputs;
    struct input *in = &job->inputs[job->input_count];
    memset(in, 0, sizeof *in);
    /* For display only: a file name found in a directory walk is as
     * hostile as the log text (escape sequences, bytes that are not UTF-8). */
    in->path = textsafe_dup(path, strlen(path), 3 * strlen(path) + 3);
    if (in->path == NULL)
        return -1;
    in->rank = -1;
    in->context_rank = -1;
    in->last_step = -1;
    memset(job->kept_here, 0, job->rs->sig_count * sizeof *job->kept_here);
    return (long)job->input_count++;
}

const struct retry_mark *job_retry_mark(const struct input *in, const struct cause *c)
{
    for (size_t i = 0; i < in->mark_count; i++)
        if (in->marks[i].cause == c)
            return &in->marks[i];
    return NULL;
}

/* Keeps INPUT's retry marks up to date with a line of SIG's role. */
static void note_retry(struct input *in, const struct sig *sig, unsigned long long line)
{
    if (sig->cause == NULL)
        return;
    struct retry_mark *m = (struct retry_mark *)job_retry_mark(in, sig->cause);
    if (sig->role == OD_ROLE_RETRY) {
        if (m == NULL && in->mark_count < JOB_RETRY_MARKS) {
            m = &in->marks[in->mark_count++];
            *m = (struct retry_mark){sig->cause, 0, 0, 0};
        }
        if (m != NULL) {
            m->retry_line = line;
            m->progress_at = in->progress_lines;
        }
    } else if (m != NULL && (sig->role == OD_ROLE_ROOT || sig->role == OD_ROLE_CONFIRMATION)) {
        m->fail_line = line;
    }
}

void job_progress_before(struct od_job *job, size_t input, unsigned long long line)
{
    struct input *in = &job->inputs[input];
    for (size_t i = 0; i < in->mark_count; i++)
        if (in->marks[i].retry_line == line)
            in->marks[i].progress_at = in->progress_lines;
}

long job_input_error(struct od_job *job, long idx, const char *path, const char *kind, const char *message)
{
    if (idx < 0)
        idx = job_add_input(job, path);
    if (idx < 0)
        return -1;
    struct input *in = &job->inputs[idx];
    free(in->error_message);
    in->error_kind = kind;
    in->error_message = strdup(message);
    in->error = strcmp(kind, "empty") != 0 && strcmp(kind, "binary") != 0;
    if (in->error)
        job->had_error = 1;
    return in->error_message ? idx : -1;
}

int job_record(struct od_job *job, size_t input, const struct sig *sig, const struct od_fields *fields,
               const char *text, size_t len, unsigned long long line, int rank)
{
    job->sig_counts[sig->index]++;
    note_retry(&job->inputs[input], sig, line);
    if (job->kept_here[sig->index] >= JOB_KEEP_PER_SIG_INPUT || job->finding_count >= JOB_KEEP_TOTAL)
        return 0;
    struct finding *findings = grow(job->findings, &job->finding_cap, job->finding_count, sizeof *findings, 32);
    if (findings == NULL)
        return -1;
    job->findings = findings;
    struct finding *f = &job->findings[job->finding_count];
    f->sig = sig;
    f->input = input;
    f->line = line;
    f->rank = rank;
    f->step_at = job->inputs[input].last_step;
    f->seq = job->seq++;
    f->text = textsafe_dup(text, len, JOB_TEXT_MAX);
    if (f->text == NULL || fields_copy(&f->fields, fields) != 0) {
        free(f->text);
        fields_free(&f->fields);
        return -1;
    }
    job->kept_here[sig->index]++;
    job->finding_count++;
    return 0;
}

void job_unrecord(struct od_job *job, size_t n)
{
    for (; n > 0 && job->finding_count > 0; n--) {
        struct finding *f = &job->findings[--job->finding_count];
        job->sig_counts[f->sig->index]--;
        job->kept_here[f->sig->index]--;
        free(f->text);
        fields_free(&f->fields);
    }
}
