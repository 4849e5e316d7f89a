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
        free(job->inputs[i].marks);
        free(job->inputs[i].series.points);
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
    job->limit_count = 0;
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

/* INPUT's mark for cause C, made when missing (NULL when there is no room). */
static struct retry_mark *mark_for(struct input *in, const struct cause *c)
{
    struct retry_mark *m = (struct retry_mark *)job_retry_mark(in, c);
    if (m != NULL || in->mark_count >= JOB_RETRY_MARKS)
        return m;
    struct retry_mark *marks = grow(in->marks, &in->mark_cap, in->mark_count, sizeof *marks, 4);
    if (marks == NULL)
        return NULL;
    in->marks = marks;
    m = &in->marks[in->mark_count++];
    memset(m, 0, sizeof *m);
    m->cause = c;
    return m;
}

/* Keeps INPUT's marks up to date with a line of SIG's role: the retry
 * marks, and where each cause's last line was and what progress followed
 * it.  A line of one cause stops the count of every other cause. */
static void note_line(struct input *in, const struct sig *sig, unsigned long long line, int rank)
{
    if (sig->cause == NULL || sig->role == OD_ROLE_HINT)
        return;
    for (size_t i = 0; i < in->mark_count; i++) {
        struct retry_mark *o = &in->marks[i];
        if (o->cause != sig->cause && o->last_line != 0 && o->cut_line == 0)
            o->cut_line = line;
    }
    struct retry_mark *m = mark_for(in, sig->cause);
    if (m == NULL)
        return;
    if (sig->role == OD_ROLE_RETRY) {
        m->retry_line = line;
        m->progress_at = in->progress_lines;
        m->retry_goes_on = sig->goes_on;
    } else if (m->retry_line != 0 && (sig->role == OD_ROLE_ROOT || sig->role == OD_ROLE_CONFIRMATION)) {
        m->fail_line = line;
    }
    m->last_line = line;
    m->went_on = 0;
    m->finished = 0;
    m->cut_line = 0;
    m->step_first = m->step_last = -1;
    m->rank = rank;
}

/* Counts a progress line with STEP and RANK for mark M. */
static void went_on(struct retry_mark *m, long long step, int rank, int goes_on)
{
    if (m->last_line == 0 || m->cut_line != 0 || (rank >= 0 && m->rank >= 0 && rank != m->rank))
        return;
    m->went_on++;
    m->finished |= goes_on;
    if (step >= 0) {
        if (m->step_first < 0)
            m->step_first = step;
        m->step_last = step;
    }
}

void job_progress_after(struct od_job *job, size_t input, long long step, int rank, int goes_on)
{
    struct input *in = &job->inputs[input];
    for (size_t i = 0; i < in->mark_count; i++)
        went_on(&in->marks[i], step, rank, goes_on);
}

int job_progress_wants_rank(const struct od_job *job, size_t input)
{
    const struct input *in = &job->inputs[input];
    for (size_t i = 0; i < in->mark_count; i++)
        if (in->marks[i].last_line != 0 && in->marks[i].cut_line == 0 && in->marks[i].rank >= 0)
            return 1;
    return 0;
}

void job_progress_before(struct od_job *job, size_t input, unsigned long long line)
{
    struct input *in = &job->inputs[input];
    for (size_t i = 0; i < in->mark_count; i++) {
        struct retry_mark *m = &in->marks[i];
        if (m->retry_line == line)
            m->progress_at = in->progress_lines;
        if (m->last_line == line) { /* the update came before the line: not after it */
            m->went_on = 0;
            m->finished = 0;
            m->step_first = m->step_last = -1;
        } else if (m->cut_line == line) { /* ... and before the line that stopped the count */
            m->cut_line = 0;
            went_on(m, in->last_step, -1, 0);
            m->cut_line = line;
        }
    }
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
    note_line(&job->inputs[input], sig, line, rank);
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
