#include "mkparent.h"

#include <errno.h>
#include <limits.h>
#include <string.h>
#include <sys/stat.h>

int mkparent(const char *path)
{
    char dir[PATH_MAX];
    size_t len = strlen(path);
    if (len >= sizeof dir)
        return ENAMETOOLONG;
    memcpy(dir, path, len + 1);
    char *slash = strrchr(dir, '/');
    if (slash == NULL || slash == dir)
        return 0;
    *slash = '\0';
    /* Each prefix ending before a '/', then the whole directory part. */
    for (char *p = dir + 1;; p++) {
        if (*p != '/' && *p != '\0')
            continue;
        char saved = *p;
        *p = '\0';
        struct stat st;
        if (mkdir(dir, 0777) != 0 && errno != EEXIST)
            return errno;
        if (stat(dir, &st) != 0)
            return errno;
        if (!S_ISDIR(st.st_mode))
            return ENOTDIR;
        *p = saved;
        if (saved == '\0')
            return 0;
    }
}
