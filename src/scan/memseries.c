/* Memory readings and boundaries of an input (memseries.h). */
#include "memseries.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Bytes per unit of a bare number; 0: a percentage; -1: unknown. */
static double unit_scale(const char *unit)
{
    static const struct {
        const char *name;
        double scale;
    } units[] = {{"B", 1}, {"KiB", 1024.0}, {"MiB", 1024.0 * 1024}, {"GiB", 1024.0 * 1024 * 1024}, {"%", 0}};
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
        if (strcasecmp(unit, units[i].name) == 0)
            return units[i].scale;
    return -1;
}

int memseries_value(const struct sig *sig, const struct od_fields *fields, double *value, int *percent)
{
    const struct od_field *f = sig->series ? fields_get(fields, sig->series) : NULL;
    if (f == NULL)
        return -1;
    *percent = 0;
    if (f->type == OD_FIELD_BYTES) {
        *value = (double)f->num;
        return 0;
    }
    double scale = unit_scale(sig->series_unit ? sig->series_unit : "B");
    double v;
    if (f->type == OD_FIELD_STRING) {
        char *end;
        v = strtod(f->str, &end);
        if (end == f->str)
            return -1;
    } else {
        v = (double)f->num;
    }
    if (scale < 0 || v < 0)
        return -1;
    *percent = scale == 0;
    *value = scale == 0 ? v : v * scale;
    return 0;
}

static int add_point(struct series_log *s, double value, int percent, long long step, unsigned long long line)
{
    if (s->points == NULL) {
        if ((s->points = calloc(JOB_SERIES_MAX, sizeof *s->points)) == NULL)
            return -1;
        s->percent = percent;
    } else if (s->percent != percent) {
        return 0; /* another kind of reading than the series started with */
    }
    s->points[s->count % JOB_SERIES_MAX] = (struct series_point){value, step, line};
    s->count++;
    return 0;
}

int memseries_note(struct input *in, const struct sig *sig, const struct od_fields *fields, long long step,
                   unsigned long long line)
{
    struct series_log *s = &in->series;
    if (sig->boundary != NULL) {
        s->boundaries[s->boundary_count % JOB_BOUNDARY_MAX] = (struct boundary_mark){sig->boundary, line};
        s->boundary_count++;
    }
    double value;
    int percent;
    if (sig->series != NULL && memseries_value(sig, fields, &value, &percent) == 0)
        return add_point(s, value, percent, step, line);
    return 0;
}

size_t memseries_kept(const struct input *in)
{
    return in->series.count < JOB_SERIES_MAX ? in->series.count : JOB_SERIES_MAX;
}

const struct series_point *memseries_at(const struct input *in, size_t i)
{
    size_t first = in->series.count < JOB_SERIES_MAX ? 0 : in->series.count % JOB_SERIES_MAX;
    return &in->series.points[(first + i) % JOB_SERIES_MAX];
}
