#include "origin.h"

#include <stdarg.h>
#include <stdio.h>

#include "jsonloc.h"

void origin_locate(const struct origin *o, unsigned long *line, unsigned long *col)
{
    struct jsonloc loc;
    *line = 0;
    *col = 0;
    if (o->text == NULL || o->path == NULL || jsonloc_init(&loc, o->text, o->len) != 0)
        return;
    jsonloc_position(&loc, jsonloc_find(&loc, o->path), line, col);
    jsonloc_free(&loc);
}

void origin_report(struct msg_sink *sink, enum od_severity sev, const struct origin *o, const char *source,
                   size_t caret, const char *fmt, ...)
{
    char text[1024];
    unsigned long line, col;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    origin_locate(o, &line, &col);
    msg_report(sink, sev, o->file, line, col, source, caret, "%s", text);
}
