/* Doubling growth of a caller-owned array: the one place that computes a
 * new capacity and calls realloc for the engine's lists.  The caller keeps
 * ownership of ITEMS and frees it as before. */
#ifndef OOMDIAG_GROW_H
#define OOMDIAG_GROW_H

#include <stddef.h>
#include <stdlib.h>

/* Makes room for one more element of SIZE bytes in ITEMS (COUNT in use, *CAP
 * allocated), doubling from FIRST.  Returns the array to use from now on
 * (ITEMS itself if it had room), or NULL when out of memory; ITEMS is then
 * untouched. */
static inline void *grow(void *items, size_t *cap, size_t count, size_t size, size_t first)
{
    if (count < *cap)
        return items;
    size_t n = *cap ? *cap * 2 : first;
    void *p = realloc(items, n * size);
    if (p != NULL)
        *cap = n;
    return p;
}

#endif
