/* Memory over time from the log: a progress signature with "series"
 * names the capture that holds a memory reading (with "series_unit" for a
 * bare number), one with "boundary" marks an evaluation or a checkpoint
 * (docs/rules.md, Memory series).  The scan hands each such line here; an
 * input keeps its last readings and boundaries (struct series_log, job.h)
 * for the classifier to tell growth from a jump. */
#ifndef OOMDIAG_MEMSERIES_H
#define OOMDIAG_MEMSERIES_H

#include "fields.h"
#include "job.h"

/* The value of SIG's series capture in FIELDS, in bytes (or a percentage:
 * *PERCENT set); 0, or -1 when the line holds none that parses. */
int memseries_value(const struct sig *sig, const struct od_fields *fields, double *value, int *percent);
/* Notes SIG's line LINE of IN (at step STEP, -1: none): a reading, a
 * boundary, or both.  0, or -1 when out of memory. */
int memseries_note(struct input *in, const struct sig *sig, const struct od_fields *fields, long long step,
                   unsigned long long line);
/* The I-th oldest reading IN still keeps (I < memseries_kept(IN)). */
size_t memseries_kept(const struct input *in);
const struct series_point *memseries_at(const struct input *in, size_t i);

#endif
