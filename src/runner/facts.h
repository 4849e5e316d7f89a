/* The parent's facts about a job it ran, as the lines of a pseudo-input
 * ("oomdiag-run: exit signal=9 (SIGKILL) status=137", ...) that rules
 * match like any log line; the format is an interface (docs/run.md).
 * Writes into a caller's buffer. */
#ifndef OOMDIAG_FACTS_H
#define OOMDIAG_FACTS_H

#include <stddef.h>

#include "cgroup.h"
#include "oomdiag/livescan.h"
#include "run.h"

/* The pseudo-input's name in the report's inputs and evidence. */
#define FACTS_INPUT "(oomdiag run)"

/* Writes the facts into BUF (NUL-terminated, cut at SIZE). BEFORE and
 * AFTER may be NULL (no cgroup v2 memory files). Returns the length. */
size_t facts_format(char *buf, size_t size, char *const *argv, const struct run_result *res,
                    const struct livescan_stats *scan, const struct cgroup_snap *before,
                    const struct cgroup_snap *after);

#endif
