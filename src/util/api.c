#include "api.h"

#include <string.h>

const char *const od_signature_role_names[] = {"root",    "consequence", "confirmation", "hint", "progress",
                                               "context", "retry",       "error",        NULL};
const char *const od_confidence_names[] = {"low", "medium", "high", NULL};
const char *const od_decision_names[] = {"retry", "retry-elsewhere", "change-and-retry", "stop", NULL};

const char *od_role_name(enum od_role role)
{
    return role == OD_ROLE_RECOVERED ? "recovered" : od_signature_role_names[role];
}

const char *od_confidence_name(enum od_confidence c)
{
    return od_confidence_names[c];
}

const char *od_decision_name(int decision)
{
    return decision >= OD_DECISION_RETRY && decision <= OD_DECISION_STOP ? od_decision_names[decision] : NULL;
}

static int index_of(const char *const *names, const char *name)
{
    for (int i = 0; names[i] != NULL; i++)
        if (strcmp(names[i], name) == 0)
            return i;
    return -1;
}

int od_role_from_name(const char *name)
{
    return strcmp(name, "recovered") == 0 ? OD_ROLE_RECOVERED : index_of(od_signature_role_names, name);
}

int od_confidence_from_name(const char *name)
{
    return index_of(od_confidence_names, name);
}

const char *od_version(void)
{
    return OOMDIAG_VERSION;
}
