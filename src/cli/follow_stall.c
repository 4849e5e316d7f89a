#include "follow_stall.h"

#include <stdio.h>

#include "feed.h"

void follow_stall_init(struct follow_stall *s, double after_s, double now)
{
    s->after_s = after_s;
    s->started = now;
    s->stalled = 0;
    s->input = -1;
}

struct feed_to {
    struct od_job *job;
    size_t input;
};

static int on_line(void *ctx, const struct line *ln, unsigned long long newlines)
{
    struct feed_to *f = ctx;
    (void)newlines;
    return ln ? od_job_feed_line(f->job, f->input, ln) : 0;
}

int follow_stall_check(struct follow_stall *s, struct od_job *job, double last_data, double now)
{
    if (s->after_s <= 0)
        return 0;
    if (now - last_data < s->after_s) {
        s->stalled = 0;
        return 0;
    }
    /* A log that never had data (LAST_DATA still the start) has not stalled. */
    if (s->stalled || last_data <= s->started)
        return 0;
    long long step = -1;
    for (size_t i = 0; i < job->input_count; i++)
        if ((long)i != s->input && job->inputs[i].last_step > step)
            step = job->inputs[i].last_step;
    s->stalled = 1;
    if (s->input < 0) {
        s->input = od_job_feed_begin(job, FOLLOW_STALL_INPUT);
        if (s->input < 0 || linesplit_init(&s->ls) != 0) {
            s->input = -1;
            return 0;
        }
    }
    char text[256];
    int len = snprintf(text, sizeof text, "oomdiag-follow: stall: no output for %.3f s at %.3f s\n", now - last_data,
                       now - s->started);
    if (step >= 0)
        len += snprintf(text + len, sizeof text - (size_t)len, "oomdiag-follow: stall last step %lld\n", step);
    struct feed_to f = {job, (size_t)s->input};
    linesplit_push(&s->ls, text, (size_t)len, on_line, &f);
    od_job_feed_counts(job, (size_t)s->input, linesplit_lines(&s->ls), s->ls.bytes);
    return 1;
}

void follow_stall_end(struct follow_stall *s, struct od_job *job)
{
    if (s->input < 0)
        return;
    struct feed_to f = {job, (size_t)s->input};
    linesplit_end(&s->ls, on_line, &f);
    od_job_feed_end(job, (size_t)s->input, linesplit_lines(&s->ls), s->ls.bytes);
    linesplit_free(&s->ls);
    s->input = -1;
}
