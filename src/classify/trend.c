/* Growth and jumps of a memory series (trend.h). */
#include "trend.h"

#include <string.h>

#include "memseries.h"

/* Growth counts as steady when at least this share of the readings is
 * above the one before, the last is this much above the first, and no
 * single rise is more than this share of the whole; a series is flat when
 * its range is within this share of its largest. */
#define GROW_SHARE 0.75
#define GROW_TOTAL 0.10
#define GROW_JUMP 0.5
#define FLAT_RANGE 0.10

static int is_growing(const struct trend *t)
{
    size_t up = 0;
    double jump = 0; /* the largest rise from one reading to the next */
    for (size_t i = 1; i < t->points; i++) {
        up += t->values[i] > t->values[i - 1];
        if (t->values[i] - t->values[i - 1] > jump)
            jump = t->values[i] - t->values[i - 1];
    }
    /* One rise that makes most of the growth (the optimizer's state
     * allocated at the first step, then flat) is no steady growth. */
    return (double)up >= GROW_SHARE * (double)(t->points - 1) && t->last > t->first * (1 + GROW_TOTAL) &&
           jump <= GROW_JUMP * (t->last - t->first);
}

/* Whether the readings [0, N) are flat. */
static int is_flat(const struct trend *t, size_t n)
{
    double lo = t->values[0], hi = t->values[0];
    for (size_t i = 1; i < n; i++) {
        lo = t->values[i] < lo ? t->values[i] : lo;
        hi = t->values[i] > hi ? t->values[i] : hi;
    }
    return hi - lo <= FLAT_RANGE * hi;
}

/* The last boundary of IN before line BEFORE, after the last reading
 * LAST_LINE, or after some reading that jumped above the flat ones before
 * it; sets *N to the readings before it.  NULL: none. */
static const char *boundary_before(const struct input *in, const struct trend *t, const unsigned long long *lines,
                                   unsigned long long before, size_t *n)
{
    const struct series_log *s = &in->series;
    size_t kept = s->boundary_count < JOB_BOUNDARY_MAX ? s->boundary_count : JOB_BOUNDARY_MAX;
    for (size_t k = 0; k < kept; k++) {
        const struct boundary_mark *b = &s->boundaries[(s->boundary_count - 1 - k) % JOB_BOUNDARY_MAX];
        if (b->line >= before)
            continue;
        size_t i = 0;
        while (i < t->points && lines[i] < b->line)
            i++;
        *n = i;
        return b->name;
    }
    return NULL;
}

int trend_of(const struct input *in, unsigned long long before, struct trend *t)
{
    unsigned long long lines[JOB_SERIES_MAX];
    long long step0 = -1, step1 = -1;
    memset(t, 0, sizeof *t);
    for (size_t i = 0; i < memseries_kept(in); i++) {
        const struct series_point *p = memseries_at(in, i);
        if (p->line >= before)
            break;
        if (t->points == 0)
            step0 = p->step;
        step1 = p->step;
        lines[t->points] = p->line;
        t->values[t->points++] = p->value;
    }
    if (t->points < TREND_MIN_POINTS)
        return -1;
    t->percent = in->series.percent;
    t->first = t->values[0];
    t->last = t->values[t->points - 1];
    t->steps = step0 >= 0 && step1 > step0 ? step1 - step0 : (long long)t->points - 1;
    t->growing = is_growing(t);
    if (t->growing)
        t->growth_per_step = (t->last - t->first) / (double)t->steps;
    size_t n = 0;
    const char *b = t->growing ? NULL : boundary_before(in, t, lines, before, &n);
    /* the boundary after the last reading, or before one that jumped: a
     * boundary with flat readings after it is not where memory ran out */
    if (b != NULL && n >= TREND_MIN_POINTS - 1 && n + 1 >= t->points && is_flat(t, n))
        t->boundary = b;
    return 0;
}
