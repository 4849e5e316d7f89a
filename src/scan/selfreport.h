/* oomdiag's own report inside a log: `oomdiag run` writes its report to
 * standard error, which a pod log, a CI log or a `2>&1` pipe keeps beside
 * the job's output; read again (`kubectl logs POD | oomdiag`), its quoted
 * lines must not count as evidence twice.  A report written into such a
 * stream starts and ends with a marker line (docs/CONTRACT.md), and
 * reading skips everything from a begin marker to its end marker.  A
 * marker is found anywhere in a line, so that prefixes (timestamps,
 * `[pod/x]`, `name | `) leave it a marker.  JSON reports stay documents,
 * unmarked: a --format json document is skipped from its tool line
 * ("name": "oomdiag") to its closing brace, a --format ndjson record (one
 * line holding "diagnoses":[ and "schema_version":) as it stands. */
#ifndef OOMDIAG_SELFREPORT_H
#define OOMDIAG_SELFREPORT_H

#include <stddef.h>

#include "oomdiag/oomdiag.h"

#define SELFREPORT_BEGIN OD_REPORT_BEGIN
#define SELFREPORT_END OD_REPORT_END

enum {
    /* A begin marker without an end (a report cut short) stops skipping
     * after this many lines: the log goes on being read. */
    SELFREPORT_MAX_LINES = 20000
};

/* 1: the line TEXT (LEN bytes) is a marker or inside a report, not to be
 * scanned; *STATE (0 at an input's start) follows the report. */
int selfreport_skip(unsigned *state, const char *text, size_t len);

#endif
