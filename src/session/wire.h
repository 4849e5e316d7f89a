/* A classified report as bytes and back, for -j: a worker writes each job's
 * report to a file of its own, and the parent reads them in input order
 * into its one session, so every format comes out as without -j.  The
 * bytes never leave the machine or outlive the run: no version, native
 * byte order. */
#ifndef OOMDIAG_WIRE_H
#define OOMDIAG_WIRE_H

#include <stdio.h>

#include "oomdiag/oomdiag.h"

/* Writes REP to OUT.  0, or -1 when a write failed. */
int wire_write(FILE *out, const struct od_report *rep);

/* A report read back; everything it points to belongs to it. */
struct wire_report {
    struct od_report rep;
    struct wire_block *blocks; /* what wire_read allocated */
};

/* Reads the N bytes of DATA into W.  0, or -1 when they are cut or memory
 * ran out (then W holds nothing). */
int wire_read(const void *data, size_t n, struct wire_report *w);
void wire_free(struct wire_report *w);

#endif
