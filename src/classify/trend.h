/* What an input's memory readings before a failure say (docs/classifier.md,
 * section 11): steady growth step by step (a leak), or a flat series that
 * a boundary line (an evaluation, a checkpoint) came after, and the values
 * for a sparkline.  Generic: the readings and boundaries are whatever the
 * rules' "series" and "boundary" signatures found. */
#ifndef OOMDIAG_TREND_H
#define OOMDIAG_TREND_H

#include "job.h"

enum { TREND_MIN_POINTS = 4 };

struct trend {
    size_t points;          /* readings before the failure (at most JOB_SERIES_MAX) */
    int percent;            /* the readings are percentages, not bytes */
    double first, last;     /* the first and last of them */
    long long steps;        /* steps between the first and the last (readings when no steps) */
    int growing;            /* grew steadily: most readings above the one before, 10% in all */
    double growth_per_step; /* (last - first) / steps, when growing */
    const char *boundary;   /* a flat series, then this boundary before the failure; or NULL */
    double values[JOB_SERIES_MAX];
};

/* The trend of IN's readings before line BEFORE; 0, or -1 when there are
 * fewer than TREND_MIN_POINTS. */
int trend_of(const struct input *in, unsigned long long before, struct trend *t);

#endif
