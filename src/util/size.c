#include "size.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

struct unit {
    const char *name;
    double scale;
};

/* Longest names first so that "KiB" is tried before "K". Case matters only
 * for telling "b" (never used for bits in memory logs) apart: all compared
 * case-insensitively. */
static const struct unit units[] = {
    {"bytes", 1.0},          {"byte", 1.0},          {"kib", 1024.0},
    {"mib", 1048576.0},      {"gib", 1073741824.0},  {"tib", 1099511627776.0},
    {"kb", 1024.0},          {"mb", 1048576.0},      {"gb", 1073741824.0},
    {"tb", 1099511627776.0}, {"k", 1024.0},          {"m", 1048576.0},
    {"g", 1073741824.0},     {"t", 1099511627776.0}, {"b", 1.0},
};

static int unit_scale(const char *s, size_t len, double *scale)
{
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++) {
        size_t n = strlen(units[i].name);
        if (n == len && strncasecmp(s, units[i].name, n) == 0) {
            *scale = units[i].scale;
            return 0;
        }
    }
    return -1;
}

int size_parse(const char *text, size_t len, long long *bytes)
{
    size_t i = 0;
    double whole = 0.0, frac = 0.0, div = 1.0, scale = 1.0;
    int digits = 0;

    while (i < len && isspace((unsigned char)text[i]))
        i++;
    for (; i < len; i++) {
        unsigned char c = (unsigned char)text[i];
        if (isdigit(c)) {
            whole = whole * 10.0 + (c - '0');
            digits++;
        } else if (c == ',' && digits > 0 && i + 1 < len && isdigit((unsigned char)text[i + 1])) {
            continue; /* thousands separator */
        } else {
            break;
        }
    }
    if (digits == 0)
        return -1;
    if (i < len && text[i] == '.') {
        i++;
        while (i < len && isdigit((unsigned char)text[i])) {
            div *= 10.0;
            frac += (text[i] - '0') / div;
            i++;
        }
    }
    while (i < len && isspace((unsigned char)text[i]))
        i++;
    size_t ustart = i;
    while (i < len && isalpha((unsigned char)text[i]))
        i++;
    if (i > ustart && unit_scale(text + ustart, i - ustart, &scale) != 0)
        return -1;
    while (i < len && isspace((unsigned char)text[i]))
        i++;
    if (i != len)
        return -1;
    double v = (whole + frac) * scale;
    if (v > 9.2e18)
        return -1;
    *bytes = (long long)(v + 0.5);
    return 0;
}

void size_format(long long bytes, char *buf, size_t bufsize)
{
    static const char *const names[] = {"KiB", "MiB", "GiB", "TiB", "PiB"};
    if (bytes < 1024) {
        snprintf(buf, bufsize, "%lld bytes", bytes);
        return;
    }
    double v = (double)bytes / 1024.0;
    size_t u = 0;
    while (v >= 1024.0 && u + 1 < sizeof names / sizeof names[0]) {
        v /= 1024.0;
        u++;
    }
    snprintf(buf, bufsize, "%.2f %s", v, names[u]);
}
