#include "follow_stall.h"

#include <stdio.h>

void follow_stall_init(struct follow_stall *s, double after_s, double now)
{
    s->after_s = after_s;
    s->started = now;
    s->stalled = 0;
    s->feed = NULL;
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
    /* (the pseudo-input's own steps are earlier stalls' copies of them) */
    long long step = od_job_last_step(job);
    s->stalled = 1;
    if (s->feed == NULL && (s->feed = od_feed_open(job, FOLLOW_STALL_INPUT)) == NULL)
        return 0;
    char text[256];
    int len = snprintf(text, sizeof text, "oomdiag-follow: stall: no output for %.3f s at %.3f s\n", now - last_data,
                       now - s->started);
    if (step >= 0)
        len += snprintf(text + len, sizeof text - (size_t)len, "oomdiag-follow: stall last step %lld\n", step);
    od_feed_push(s->feed, text, (size_t)len);
    od_feed_counts(s->feed);
    return 1;
}

void follow_stall_end(struct follow_stall *s)
{
    od_feed_close(s->feed);
    s->feed = NULL;
}
