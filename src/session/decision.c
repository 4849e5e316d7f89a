/* Decisions to exit codes (decision.h). */
#include "decision.h"

int decision_exit_code(int decision)
{
    switch (decision) {
    case OD_DECISION_RETRY: return DECISION_EXIT_RETRY;
    case OD_DECISION_RETRY_ELSEWHERE: return DECISION_EXIT_RETRY_ELSEWHERE;
    case OD_DECISION_CHANGE_AND_RETRY: return DECISION_EXIT_CHANGE_AND_RETRY;
    case OD_DECISION_STOP: return DECISION_EXIT_STOP;
    default: return -1;
    }
}

int decision_job_status(const struct od_job *job, int status)
{
    if (status == 0)
        return 0;
    struct od_report *rep = od_classify(job);
    int code = -1;
    for (size_t i = 0; rep != NULL && i < rep->count && code < 0; i++)
        if (rep->diagnoses[i].role == OD_ROLE_ROOT)
            code = decision_exit_code(rep->diagnoses[i].decision);
    od_report_free(rep);
    return code < 0 ? status : code;
}
