/* --files-from: a list of input paths read from a file or standard
 * input, separated by NUL bytes (find -print0) or, when there is none,
 * by newlines.  The list owns its text and its array; pathlist_free
 * releases them. */
#ifndef OOMDIAG_PATHLIST_H
#define OOMDIAG_PATHLIST_H

#include <stddef.h>

struct pathlist {
    char *text;
    const char **paths;
    size_t count;
};

/* Reads FILE ("-": standard input) into LIST.  0, or -1 with errno set. */
int pathlist_read(const char *file, struct pathlist *list);
void pathlist_free(struct pathlist *list);

#endif
