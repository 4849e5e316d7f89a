#include "pathlist.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "grow.h"

enum { PATHLIST_MAX_BYTES = 256 << 20 };

static int slurp(int fd, char **out, size_t *len)
{
    size_t cap = 65536, got = 0;
    char *buf = malloc(cap + 1);
    while (buf != NULL) {
        if (got == cap) {
            char *p = cap < PATHLIST_MAX_BYTES ? realloc(buf, cap * 2 + 1) : NULL;
            if (p == NULL) {
                free(buf);
                errno = ENOMEM;
                return -1;
            }
            buf = p;
            cap *= 2;
        }
        ssize_t n = read(fd, buf + got, cap - got);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            int e = errno;
            free(buf);
            errno = e;
            return -1;
        }
        if (n == 0) {
            buf[got] = '\0';
            *out = buf;
            *len = got;
            return 0;
        }
        got += (size_t)n;
    }
    errno = ENOMEM;
    return -1;
}

int pathlist_read(const char *file, struct pathlist *list)
{
    memset(list, 0, sizeof *list);
    int fd = strcmp(file, "-") == 0 ? STDIN_FILENO : open(file, O_RDONLY);
    if (fd < 0)
        return -1;
    size_t len = 0, cap = 0;
    int rc = slurp(fd, &list->text, &len);
    if (fd != STDIN_FILENO) {
        int e = errno;
        close(fd);
        errno = e;
    }
    if (rc != 0)
        return -1;
    char sep = memchr(list->text, '\0', len) != NULL ? '\0' : '\n';
    for (size_t i = 0; i < len;) {
        char *end = memchr(list->text + i, sep, len - i);
        size_t n = end ? (size_t)(end - list->text) - i : len - i;
        list->text[i + n] = '\0';
        if (sep == '\n' && n > 0 && list->text[i + n - 1] == '\r')
            list->text[i + n - 1] = '\0';
        if (list->text[i] != '\0') {
            const char **p = grow(list->paths, &cap, list->count, sizeof *p, 64);
            if (p == NULL) {
                pathlist_free(list);
                errno = ENOMEM;
                return -1;
            }
            list->paths = p;
            list->paths[list->count++] = list->text + i;
        }
        i += n + 1;
    }
    return 0;
}

void pathlist_free(struct pathlist *list)
{
    free(list->text);
    free(list->paths);
    memset(list, 0, sizeof *list);
}
