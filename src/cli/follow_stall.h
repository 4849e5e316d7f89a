/* --follow --stall=DURATION: when the followed log has had data and then
 * grows by nothing for DURATION, a fact line in the pseudo-input
 * "(oomdiag --follow)" (`oomdiag-follow: stall: no output for D s at T s`,
 * with the last progress step any followed file showed) that rules report
 * as cause hang, once per quiet spell. */
#ifndef OOMDIAG_FOLLOW_STALL_H
#define OOMDIAG_FOLLOW_STALL_H

#include "oomdiag/oomdiag.h"

#define FOLLOW_STALL_INPUT "(oomdiag --follow)"

struct follow_stall {
    double after_s; /* 0: off */
    double started;
    int stalled;          /* reported in this quiet spell */
    struct od_feed *feed; /* the pseudo-input, NULL until the first stall */
};

void follow_stall_init(struct follow_stall *s, double after_s, double now);
/* LAST_DATA: when data last came (the NOW given to init while none
 * came). Looks at JOB's inputs; 1 when a stall was just added to
 * JOB (the caller reports it). */
int follow_stall_check(struct follow_stall *s, struct od_job *job, double last_data, double now);
/* Ends the pseudo-input, if there is one. */
void follow_stall_end(struct follow_stall *s);

#endif
