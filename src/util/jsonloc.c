#include "jsonloc.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

int jsonloc_init(struct jsonloc *loc, const char *text, size_t len)
{
    size_t n = 1;
    for (size_t i = 0; i < len; i++)
        if (text[i] == '\n')
            n++;
    loc->text = text;
    loc->len = len;
    loc->line_count = n;
    loc->line_starts = malloc(n * sizeof *loc->line_starts);
    if (loc->line_starts == NULL)
        return -1;
    loc->line_starts[0] = 0;
    n = 1;
    for (size_t i = 0; i < len; i++)
        if (text[i] == '\n')
            loc->line_starts[n++] = i + 1;
    return 0;
}

void jsonloc_free(struct jsonloc *loc)
{
    free(loc->line_starts);
    loc->line_starts = NULL;
}

void jsonloc_position(const struct jsonloc *loc, size_t offset, unsigned long *line, unsigned long *col)
{
    size_t lo = 0, hi = loc->line_count;
    if (offset > loc->len)
        offset = loc->len;
    while (hi - lo > 1) {
        size_t mid = (lo + hi) / 2;
        if (loc->line_starts[mid] <= offset)
            lo = mid;
        else
            hi = mid;
    }
    *line = (unsigned long)lo + 1;
    *col = (unsigned long)(offset - loc->line_starts[lo]) + 1;
}

void jsonloc_line_text(const struct jsonloc *loc, unsigned long line, char *buf, size_t bufsize)
{
    buf[0] = '\0';
    if (line == 0 || line > loc->line_count || bufsize == 0)
        return;
    size_t start = loc->line_starts[line - 1], end = start;
    while (end < loc->len && loc->text[end] != '\n' && loc->text[end] != '\r')
        end++;
    size_t n = end - start < bufsize - 1 ? end - start : bufsize - 1;
    memcpy(buf, loc->text + start, n);
    buf[n] = '\0';
}

/* A cursor over the raw text; all functions stop at the end of the text. */
struct cur {
    const char *s;
    size_t len, pos;
};

static void ws(struct cur *c)
{
    while (c->pos < c->len && isspace((unsigned char)c->s[c->pos]))
        c->pos++;
}

static int skip_string(struct cur *c)
{
    if (c->pos >= c->len || c->s[c->pos] != '"')
        return -1;
    for (c->pos++; c->pos < c->len; c->pos++) {
        if (c->s[c->pos] == '\\')
            c->pos++;
        else if (c->s[c->pos] == '"') {
            c->pos++;
            return 0;
        }
    }
    return -1;
}

static int skip_value(struct cur *c, int depth)
{
    ws(c);
    if (c->pos >= c->len || depth > 2000)
        return -1;
    char ch = c->s[c->pos];
    if (ch == '"')
        return skip_string(c);
    if (ch == '{' || ch == '[') {
        char close = ch == '{' ? '}' : ']';
        c->pos++;
        for (;;) {
            ws(c);
            if (c->pos >= c->len)
                return -1;
            if (c->s[c->pos] == close) {
                c->pos++;
                return 0;
            }
            if (c->s[c->pos] == ',') {
                c->pos++;
                continue;
            }
            if (ch == '{') {
                if (skip_string(c) != 0)
                    return -1;
                ws(c);
                if (c->pos < c->len && c->s[c->pos] == ':')
                    c->pos++;
            }
            size_t before = c->pos;
            if (skip_value(c, depth + 1) != 0 || c->pos == before)
                return -1; /* not JSON after all: stop rather than spin */
        }
    }
    while (c->pos < c->len && c->s[c->pos] != '\0' && !strchr(",]} \t\r\n", c->s[c->pos]))
        c->pos++;
    return 0;
}

/* Does the JSON string at the cursor equal KEY (N bytes, no escapes)? */
static int key_equals(const struct cur *c, const char *key, size_t n)
{
    return c->pos + n + 2 <= c->len && c->s[c->pos] == '"' && memcmp(c->s + c->pos + 1, key, n) == 0 &&
           c->s[c->pos + 1 + n] == '"';
}

size_t jsonloc_find(const struct jsonloc *loc, const char *pointer)
{
    struct cur c = {loc->text, loc->len, 0};
    const char *p = pointer;
    size_t found = 0;
    while (*p == '/') {
        p++;
        size_t n = strcspn(p, "/");
        ws(&c);
        if (c.pos >= c.len)
            return found;
        if (c.s[c.pos] == '{') {
            c.pos++;
            int hit = 0;
            while (!hit) {
                ws(&c);
                if (c.pos >= c.len || c.s[c.pos] == '}')
                    return found;
                if (c.s[c.pos] == ',') {
                    c.pos++;
                    continue;
                }
                hit = key_equals(&c, p, n);
                size_t key_at = c.pos;
                if (c.s[c.pos] != '"')
                    return found; /* not JSON after all */
                if (skip_string(&c) != 0)
                    return found;
                ws(&c);
                if (c.pos < c.len && c.s[c.pos] == ':')
                    c.pos++;
                if (hit)
                    found = key_at;
                else if (skip_value(&c, 0) != 0)
                    return found;
            }
        } else if (c.s[c.pos] == '[') {
            long want = strtol(p, NULL, 10);
            c.pos++;
            for (long i = 0;; i++) {
                ws(&c);
                if (c.pos < c.len && c.s[c.pos] == ',') {
                    c.pos++;
                    ws(&c);
                }
                if (c.pos >= c.len || c.s[c.pos] == ']')
                    return found;
                if (i == want) {
                    found = c.pos;
                    break;
                }
                size_t before = c.pos;
                if (skip_value(&c, 0) != 0 || c.pos == before)
                    return found;
            }
        } else {
            return found;
        }
        p += n;
    }
    return found;
}
