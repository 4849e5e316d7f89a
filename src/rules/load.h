/* Where rules come from: the embedded rules/ files, -r files and
 * directories, and buffers, each handed to rulefile_load with the options
 * of its kind.  The only file that opens rule files; it owns nothing (the
 * texts it reads go to the ruleset).  Implements od_ruleset_keep_samples
 * and the od_ruleset_add_* functions of oomdiag.h. */
#ifndef OOMDIAG_LOAD_H
#define OOMDIAG_LOAD_H

#include "oomdiag/oomdiag.h"

/* Does NAME end in ".json" (and have a name before it)?  What a rule
 * directory's walk loads. */
int load_is_rule_file_name(const char *name);

#endif
