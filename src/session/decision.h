/* A scheduler's exit codes: `oomdiag run --exit-by-decision` exits with
 * one per decision (enum od_decision) when the job failed, so that a
 * Kubernetes podFailurePolicy, a Slurm epilog or a CI retry rule can act
 * on it (docs/decisions.md). */
#ifndef OOMDIAG_DECISION_H
#define OOMDIAG_DECISION_H

#include "oomdiag/oomdiag.h"

/* The exit codes, one per decision (docs/oomdiag.1, EXIT STATUS). */
enum {
    DECISION_EXIT_RETRY = 75,
    DECISION_EXIT_RETRY_ELSEWHERE = 76,
    DECISION_EXIT_CHANGE_AND_RETRY = 77,
    DECISION_EXIT_STOP = 78
};

/* DECISION's exit code, or -1 for OD_DECISION_NONE. */
int decision_exit_code(int decision);
/* The exit status of a job that ended with STATUS: STATUS when it is 0 or
 * nothing was diagnosed, else the first root diagnosis's decision code. */
int decision_job_status(const struct od_job *job, int status);

#endif
