/* What `oomdiag run` watches while the job runs, beside its output: GPU
 * memory through NVML (src/runner/gpusample.c) and --stall
 * (src/runner/stall.c), whose report is rendered here.  Both end as lines
 * of the parent's facts (docs/run.md). */
#ifndef OOMDIAG_WATCH_H
#define OOMDIAG_WATCH_H

#include <stddef.h>

#include "live.h"
#include "run.h"

struct watch;

/* Loads NVML (unless --no-nvml; where it is absent a --trace note says
 * why) and prepares --stall. NULL when there is nothing to watch. */
struct watch *watch_start(const struct live_spec *o, const struct od_ruleset *rs, const struct live_words *lw,
                          od_msg_fn fn, void *ctx);
/* The hooks for run_spec, or NULL for a NULL W. */
const struct run_hooks *watch_hooks(struct watch *w);
/* Stops watching, appends the facts to FACTS (LEN long, SIZE its room)
 * and frees W (FACTS may be NULL: only frees). Returns the new length. */
size_t watch_finish(struct watch *w, char *facts, size_t len, size_t size);

#endif
