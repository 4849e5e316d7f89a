/* The one list of the evidence field names the engine itself gives a
 * meaning (docs/rules.md, "Captures and fields"): the scan reads and
 * derives them (scan/evidence.h), the classifier answers some beside the
 * fields, and a rule file's field declarations must agree with them
 * (fielddecl.c).  Every other name is the rules' own.  Names only. */
#ifndef OOMDIAG_FIELDNAMES_H
#define OOMDIAG_FIELDNAMES_H

/* Captures the scan reads. */
#define EVIDENCE_RANK "rank" /* the rank a line names (also a rank source's one group) */
#define EVIDENCE_STEP "step" /* a progress line's step */
/* Captures a size is derived from, and the size. */
#define EVIDENCE_SHAPE "shape"                     /* "[32,1024,1024]", "(32, 1024)", "32x1024" */
#define EVIDENCE_DTYPE "dtype"                     /* a dtype the rules give a size ("dtypes") */
#define EVIDENCE_REQUESTED_BYTES "requested_bytes" /* elements of shape x size of dtype, unless captured */
/* A capture whose name ends so is a size: "2.87 GiB" -> bytes. */
#define EVIDENCE_BYTES_SUFFIX "_bytes"
/* Names that templates and conditions see beside the fields (classify). */
#define EVIDENCE_RANKS "ranks" /* every rank the diagnosis saw, "0, 3" */
#define EVIDENCE_PATH "path"   /* the lead finding's input */
#define EVIDENCE_LINE "line"   /* the lead finding's line number */

#endif
