/* The public API's small things in one place: the version, and the names
 * of roles and confidences both ways (od_role_name, od_confidence_name and
 * od_version are declared in oomdiag.h).  The names are the ones rule
 * files and JSON output spell; nothing here allocates. */
#ifndef OOMDIAG_API_H
#define OOMDIAG_API_H

#include "oomdiag/oomdiag.h"

/* The roles a signature may have, in enum od_role's order (every role but
 * "recovered", which only a diagnosis has), and the confidences; each
 * NULL-terminated, for a rule file's list of choices. */
extern const char *const od_signature_role_names[];
extern const char *const od_confidence_names[];
extern const char *const od_decision_names[];

/* The role or confidence called NAME, or -1. */
int od_role_from_name(const char *name);
int od_confidence_from_name(const char *name);

#endif
