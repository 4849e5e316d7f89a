#include "join.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

int join_init(struct join *j)
{
    memset(j, 0, sizeof *j);
    j->glued = malloc(JOIN_MAX_BYTES);
    j->scratch = malloc(JOIN_MAX_BYTES + JOIN_MAX_LINES);
    j->seam = malloc(JOIN_MAX_BYTES / 2);
    if (j->glued == NULL || j->scratch == NULL || j->seam == NULL) {
        join_free(j);
        return -1;
    }
    return 0;
}

void join_free(struct join *j)
{
    free(j->glued);
    free(j->scratch);
    free(j->seam);
    memset(j, 0, sizeof *j);
}

void join_clear(struct join *j)
{
    j->first_skip = 0;
    j->first_done = 0;
    j->undo = 0;
    j->seam_len = 0;
    j->run_count = 0;
    j->count = 0;
    j->glued_len = 0;
    j->glued_lines = 0;
}

static void hold(struct join *j, const char *text, size_t len, size_t skip, unsigned long long number, int cr_ended)
{
    struct join_line *l = &j->lines[j->count++];
    l->off = j->glued_len;
    l->len = len;
    l->skip = skip;
    l->number = number;
    l->cr_ended = cr_ended;
    memcpy(j->glued + j->glued_len, text, len);
    j->glued_len += len;
}

int join_start(struct join *j, const char *text, size_t len, unsigned long long number, int cr_ended)
{
    join_clear(j);
    if (len > JOIN_MAX_BYTES / 2)
        return -1;
    hold(j, text, len, 0, number, cr_ended);
    j->glued_lines = len >= JOIN_MIN_WIDTH;
    return 0;
}

static int blank(int c)
{
    return c == ' ' || c == '\t';
}

static int is_blank(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!blank(s[i]) && s[i] != '\r')
            return 0;
    return 1;
}

/* "2026-01-01", "10:24:33", "12/01": digits, then '-', ':' or '/', then a
 * digit; or a glog-style "E1201 ": one capital, four digits, a space. */
static int starts_with_stamp(const char *s, size_t n)
{
    size_t i = 0;
    while (i < n && i < 4 && isdigit((unsigned char)s[i]))
        i++;
    if (i > 0 && i + 1 < n && (s[i] == '-' || s[i] == ':' || s[i] == '/') && isdigit((unsigned char)s[i + 1]))
        return 1;
    if (n >= 6 && isupper((unsigned char)s[0]) && s[5] == ' ') {
        for (i = 1; i < 5 && isdigit((unsigned char)s[i]); i++)
            ;
        return i == 5;
    }
    return 0;
}

/* "[rank1]:", "[2026-01-01 10:00:00] ", "[W1129 10:11:12.3 x.cpp:1] ": a
 * bracketed prefix with a letter, '-' or ':' in it, then ':' or a space;
 * not a tensor shape ("[128,225,225,3]", "[16]"). */
static int starts_with_bracket(const char *s, size_t n)
{
    if (n == 0 || s[0] != '[')
        return 0;
    int wordy = 0;
    for (size_t i = 1; i < n && i < 64; i++) {
        if (s[i] == ']')
            return wordy && i + 1 < n && (s[i + 1] == ':' || blank(s[i + 1]));
        if (s[i] == ',' || s[i] == '[')
            return 0;
        wordy |= isalpha((unsigned char)s[i]) || s[i] == '-' || s[i] == ':';
    }
    return 0;
}

/* "Name: ", "module.Name:" at the start: a label that opens a record. */
static int starts_with_label(const char *s, size_t n)
{
    size_t i = 0;
    if (n == 0 || !(isalpha((unsigned char)s[0]) || s[0] == '_'))
        return 0;
    while (i < n && (isalnum((unsigned char)s[i]) || s[i] == '_' || s[i] == '.'))
        i++;
    return i >= 2 && i < n && s[i] == ':' && (i + 1 == n || blank(s[i + 1]));
}

int join_record_start(const char *text, size_t len)
{
    size_t a = 0, b = len;
    while (a < b && blank(text[a]))
        a++;
    while (b > a && (blank(text[b - 1]) || text[b - 1] == '\r'))
        b--;
    if (a == b)
        return 0;
    const char *s = text + a;
    size_t n = b - a;
    return starts_with_bracket(s, n) || s[0] == '{' || starts_with_stamp(s, n) || starts_with_label(s, n) ||
           s[n - 1] == ':';
}

/* Were the held lines cut by a wrap at a fixed width, the last one too?
 * All as long as the first, which is as long as the longest line so far. */
/* The width of held line I: what a wrap left of it (its prefixes shared
 * with the first line not counted, nor the first line's own). */
static size_t width(const struct join *j, size_t i)
{
    return j->lines[i].len - (i == 0 ? j->first_skip : j->lines[i].skip);
}

static int wrapped(const struct join *j)
{
    size_t w = width(j, 0);
    return w >= JOIN_MIN_WIDTH && j->lines[0].len >= j->max_len && j->glued_lines == j->count &&
           (j->count == 1 || width(j, j->count - 1) == w);
}

int join_wrap_cut(const struct join *j, const char *text, size_t len)
{
    if (j->count == 0 || len == 0 || !wrapped(j))
        return 0;
    const struct join_line *l = &j->lines[j->count - 1];
    if (l->len - l->skip < 2)
        return 0;
    const unsigned char *end = (const unsigned char *)j->glued + l->off + l->len;
    unsigned char p = end[-2], a = end[-1], b = (unsigned char)text[0];
    /* Within a word: lower-case letters ("memo" / "ry"), a capital that
     * begins one ("T" / "ried"), capitals in a run ("CUDA_ERR" / "OR"),
     * an underscore.  Not a lower-case letter before a capital (a
     * sentence's end, a new record's first word), nor "kB" / "Out"; digits
     * tell nothing ("uid=21417" / "2024-04-29T..."). */
    if ((a == '_' && isalpha(b)) || (isalpha(a) && b == '_'))
        return 1;
    if (islower(a))
        return islower(b);
    if (isupper(a))
        return islower(b) ? !isalpha(p) : isupper(b) && (isupper(p) || p == '_');
    return 0;
}

int join_continues(const struct join *j, const char *text, size_t len)
{
    if (j->count == 0 || j->count >= JOIN_MAX_LINES || j->glued_len + len > JOIN_MAX_BYTES)
        return 0;
    if (is_blank(text, len)) { /* one blank line: a paste that doubled its line ends */
        const struct join_line *l = &j->lines[j->count - 1];
        return !is_blank(j->glued + l->off + l->skip, l->len - l->skip);
    }
    return join_wrap_cut(j, text, len) || !join_record_start(text, len);
}

void join_seam_reset(struct join *j)
{
    j->seam_len = 0;
    j->run_count = 0;
    j->max_len = 0;
}

void join_seam_note(struct join *j, const char *text, size_t len, unsigned long long number, int cr_ended, int plain,
                    size_t findings)
{
    if (j->seam_len == 0)
        j->run_count = 0;
    if (cr_ended) {
        j->seam_len = 0;
        return;
    }
    if (len > j->max_len)
        j->max_len = len;
    if (!plain || len != j->max_len || len < JOIN_MIN_WIDTH || len > JOIN_MAX_BYTES / 2) {
        j->seam_len = 0;
        return;
    }
    if (j->run_count > 0 && j->run[0].len != len)
        j->run_count = j->seam_len = 0; /* another width: a run of its own */
    if (j->run_count == JOIN_RUN_MAX || j->seam_len + len > JOIN_MAX_BYTES / 2) {
        size_t drop = j->run[0].len; /* the oldest line goes */
        memmove(j->seam, j->seam + drop, j->seam_len - drop);
        memmove(j->run, j->run + 1, (j->run_count - 1) * sizeof j->run[0]);
        j->run_count--;
        j->seam_len -= drop;
    }
    memcpy(j->seam + j->seam_len, text, len);
    j->seam_len += len;
    j->run[j->run_count].len = len;
    j->run[j->run_count].number = number;
    j->run[j->run_count].findings = findings;
    j->run_count++;
}

size_t join_seam_window(const struct join *j, const char *text, size_t len, size_t reach, char *out, size_t *cut)
{
    if (j->seam_len == 0)
        return 0;
    size_t last = j->run[j->run_count - 1].len;
    size_t a = last < reach ? last : reach, b = len < reach ? len : reach;
    memcpy(out, j->seam + j->seam_len - a, a);
    memcpy(out + a, text, b);
    *cut = a;
    return a + b;
}

int join_start_at_seam(struct join *j, const char *text, size_t len, size_t skip, size_t first_skip,
                       unsigned long long number, int cr_ended)
{
    if (j->seam_len == 0 || j->seam_len + len > JOIN_MAX_BYTES)
        return -1;
    size_t runs = j->run_count, off = 0, undo = 0;
    if (skip > 0 && runs > 1) { /* the prefixes are the last line's: it starts the join alone */
        size_t last = j->run[runs - 1].len;
        memmove(j->seam, j->seam + j->seam_len - last, last);
        j->run[0] = j->run[runs - 1];
        j->run_count = runs = 1;
        j->seam_len = last;
    }
    j->count = 0;
    j->glued_len = 0;
    for (size_t i = 0; i < runs; i++) {
        if (i == 0) {
            hold(j, j->seam, j->run[0].len, 0, j->run[0].number, 0);
            j->glued_lines = 1;
        } else {
            join_add(j, j->seam + off, j->run[i].len, 0, 0, j->run[i].number, 0);
        }
        off += j->run[i].len;
        undo += j->run[i].findings;
    }
    j->first_done = runs;
    j->undo = undo;
    j->seam_len = 0;
    j->run_count = 0;
    join_add(j, text, len, skip, first_skip, number, cr_ended);
    return 0;
}

void join_add(struct join *j, const char *text, size_t len, size_t skip, size_t first_skip, unsigned long long number,
              int cr_ended)
{
    if (skip > 0)
        j->first_skip = first_skip;
    /* The glued reading goes on only if the line before this one was as
     * long as the first (cut at the same width). */
    int goes_on = j->glued_lines == j->count && (j->count == 1 || width(j, j->count - 1) == width(j, 0));
    hold(j, text, len, skip, number, cr_ended);
    if (goes_on)
        j->glued_lines = j->count;
}

size_t join_reading(const struct join *j, size_t k, int glued, char *out)
{
    if (k > j->count)
        k = j->count;
    size_t o = 0;
    for (size_t i = 0; i < k; i++) {
        const char *s = j->glued + j->lines[i].off + j->lines[i].skip;
        size_t a = 0, b = j->lines[i].len - j->lines[i].skip;
        if (glued) {
            memcpy(out + o, s, b);
            o += b;
            continue;
        }
        if (i > 0 && is_blank(s, b))
            continue;
        if (i > 0)
            while (a < b && blank(s[a]))
                a++;
        if (i + 1 < k)
            while (b > a && blank(s[b - 1]))
                b--;
        if (i > 0)
            out[o++] = ' ';
        memcpy(out + o, s + a, b - a);
        o += b - a;
    }
    return o;
}
