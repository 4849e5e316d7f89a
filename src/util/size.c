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

/* Writes the NUL-ended TEXT (N bytes) into BUF as snprintf would. */
static void put(char *buf, size_t bufsize, const char *text, size_t n)
{
    if (bufsize == 0)
        return;
    if (n >= bufsize)
        n = bufsize - 1;
    memcpy(buf, text, n);
    buf[n] = '\0';
}

/* Writes U's digits ending just before END; returns where they start. */
static char *digits(char *end, unsigned long long u)
{
    do
        *--end = (char)('0' + u % 10);
    while ((u /= 10) > 0);
    return end;
}

void size_format(long long bytes, char *buf, size_t bufsize)
{
    static const char *const names[] = {"KiB", "MiB", "GiB", "TiB", "PiB"};
    char tmp[48], *end = tmp + 40, *p;
    if (bytes < 1024) {
        memcpy(end, " bytes", 7);
        p = digits(end, bytes < 0 ? 0 - (unsigned long long)bytes : (unsigned long long)bytes);
        if (bytes < 0)
            *--p = '-';
        put(buf, bufsize, p, (size_t)(end + 6 - p));
        return;
    }
    size_t u = 0;
    if (bytes < (1LL << 53)) {
        /* bytes / 1024^(u+1) is exact in a double, so "%.2f" of it is the
         * exact quotient rounded to hundredths, ties to even: done here in
         * integers, without printf. */
        while (u + 1 < sizeof names / sizeof names[0] && bytes >= 1LL << (10 * (u + 2)))
            u++;
        unsigned shift = 10 * ((unsigned)u + 1);
        unsigned long long x = (unsigned long long)bytes * 100, q = x >> shift, rem = x & ((1ULL << shift) - 1),
                           half = 1ULL << (shift - 1);
        if (rem > half || (rem == half && (q & 1)))
            q++;
        size_t un = strlen(names[u]);
        *end = ' ';
        memcpy(end + 1, names[u], un + 1);
        p = digits(end, q % 100 + 100) + 1; /* two digits, the 1 left off */
        *--p = '.';
        p = digits(p, q / 100);
        put(buf, bufsize, p, (size_t)(end + 1 + un - p));
        return;
    }
    double v = (double)bytes / 1024.0;
    while (v >= 1024.0 && u + 1 < sizeof names / sizeof names[0]) {
        v /= 1024.0;
        u++;
    }
    snprintf(buf, bufsize, "%.2f %s", v, names[u]);
}
