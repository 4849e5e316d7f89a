/* --follow FILE: reads a log while it grows, as `tail -F` does (it waits
 * for the file to appear, goes on across rotation and truncation), and
 * reports each root cause once its message is complete: when the file has
 * been quiet for FOLLOW_SETTLE_MS, or FOLLOW_MAX_WAIT_MS after the first
 * line of it.  Each version of the file (after a rotation or truncation)
 * is a job of its own.  --follow DIR follows every file under DIR, those
 * that appear later too, as one job (each file's versions its inputs).
 * Ends on SIGINT, SIGTERM or SIGHUP. */
#ifndef OOMDIAG_FOLLOW_H
#define OOMDIAG_FOLLOW_H

#include "cli.h"
#include "fail_on.h"
#include "oomdiag/oomdiag.h"

enum { FOLLOW_POLL_MS = 100, FOLLOW_SETTLE_MS = 500, FOLLOW_MAX_WAIT_MS = 2000 };

/* Returns the usual status: 0 a failure was diagnosed (one FAIL_ON counts;
 * NULL: any root cause), 1 none, 2 trouble. */
int follow_main(const struct cli_opts *o, const struct od_ruleset *rs, const char *lang, const struct od_words *words,
                const struct fail_on *fail_on, od_msg_fn fn, void *ctx);

#endif
