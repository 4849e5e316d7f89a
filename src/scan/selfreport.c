#include "selfreport.h"

#include <string.h>

enum { IN_JSON = 1u << 30 }; /* in *STATE: inside a JSON document, not between markers */

static int holds(const char *text, size_t len, const char *s)
{
    size_t n = strlen(s);
    return len >= n && memmem(text, len, s, n) != NULL;
}

/* A --format json document's tool line, "name": "oomdiag" (cJSON puts a
 * tab after the colon, other printers a space). */
static int json_tool_line(const char *text, size_t len)
{
    static const char key[] = "\"name\":";
    const char *p = len >= sizeof key ? memmem(text, len, key, sizeof key - 1) : NULL;
    if (p == NULL)
        return 0;
    p += sizeof key - 1;
    const char *end = text + len;
    while (p < end && (*p == ' ' || *p == '\t'))
        p++;
    return (size_t)(end - p) >= 10 && memcmp(p, "\"oomdiag\",", 10) == 0;
}

/* The document's last line: its closing brace, at the margin (inner ones
 * are indented by a tab). */
static int json_last_line(const char *text, size_t len)
{
    return len > 0 && text[len - 1] == '}' && (len == 1 || text[len - 2] != '\t');
}

int selfreport_skip(unsigned *state, const char *text, size_t len)
{
    if (*state == 0) {
        if (holds(text, len, SELFREPORT_BEGIN))
            *state = 1;
        else if (json_tool_line(text, len))
            *state = IN_JSON | 1;
        else /* a --format ndjson record is one line */
            return holds(text, len, "\"diagnoses\":[") && holds(text, len, "\"schema_version\":");
        return 1;
    }
    int end = *state & IN_JSON ? json_last_line(text, len) : holds(text, len, SELFREPORT_END);
    if (end || (*state & ~(unsigned)IN_JSON) >= SELFREPORT_MAX_LINES) {
        *state = 0;
        return 1;
    }
    ++*state;
    return 1;
}
