#include "msg.h"

#include <stdarg.h>
#include <string.h>

static void vreport(struct msg_sink *sink, enum od_severity sev, const char *file, unsigned long line,
                    unsigned long col, const char *source, size_t caret, const char *fmt, va_list ap)
{
    char text[1024];
    vsnprintf(text, sizeof text, fmt, ap);
    for (char *p = text; *p; p++) /* one line, and no escape sequence from a file name or rule */
        if ((unsigned char)*p < 0x20 || *p == 0x7f)
            *p = ' ';
    if (sev == OD_SEV_ERROR)
        sink->errors++;
    else if (sev == OD_SEV_WARNING)
        sink->warnings++;
    if (sink->fn == NULL)
        return;
    struct od_message m = {sev, file, line, col, text, source, caret};
    sink->fn(sink->ctx, &m);
}

void msg_report(struct msg_sink *sink, enum od_severity sev, const char *file, unsigned long line, unsigned long col,
                const char *source, size_t caret, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vreport(sink, sev, file, line, col, source, caret, fmt, ap);
    va_end(ap);
}

void msg_error(struct msg_sink *sink, const char *file, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vreport(sink, OD_SEV_ERROR, file, 0, 0, NULL, 0, fmt, ap);
    va_end(ap);
}

void msg_say(od_msg_fn fn, void *ctx, enum od_severity sev, const char *file, const char *text)
{
    struct od_message m = {sev, file, 0, 0, text, NULL, 0};
    fn(ctx, &m);
}

void msg_warn(struct msg_sink *sink, const char *file, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vreport(sink, OD_SEV_WARNING, file, 0, 0, NULL, 0, fmt, ap);
    va_end(ap);
}

static const char *severity_name(enum od_severity sev)
{
    switch (sev) {
    case OD_SEV_ERROR: return "error";
    case OD_SEV_WARNING: return "warning";
    default: return "note";
    }
}

void msg_print(FILE *out, const struct od_message *m, int color)
{
    const char *on = "", *off = "";
    if (color) {
        on = m->severity == OD_SEV_ERROR ? "\033[1;31m" : m->severity == OD_SEV_WARNING ? "\033[1;33m" : "\033[1m";
        off = "\033[0m";
    }
    fputs("oomdiag: ", out);
    if (m->file != NULL) {
        for (const char *p = m->file; *p; p++)
            fputc((unsigned char)*p < 0x20 || *p == 0x7f ? '?' : *p, out);
        if (m->line > 0)
            fprintf(out, ":%lu", m->line);
        if (m->col > 0)
            fprintf(out, ":%lu", m->col);
        fputs(": ", out);
    }
    fprintf(out, "%s%s%s: %s\n", on, severity_name(m->severity), off, m->text);
    if (m->source != NULL) {
        fputs("    ", out);
        for (const char *p = m->source; *p && *p != '\n'; p++)
            fputc((unsigned char)*p < 0x20 ? ' ' : *p, out);
        fputs("\n    ", out);
        for (size_t i = 0; i < m->caret && m->source[i] && m->source[i] != '\n'; i++)
            fputc(m->source[i] == '\t' ? '\t' : ' ', out);
        fprintf(out, "%s^%s\n", on, off);
    }
}
