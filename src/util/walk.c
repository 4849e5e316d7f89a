#include "walk.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

struct walk {
    const struct walk_ops *ops;
    dev_t devs[WALK_MAX_DEPTH];
    ino_t inos[WALK_MAX_DEPTH]; /* the directories on the current path, against loops */
    int depth;
    unsigned long files;
};

static int visit(struct walk *w, const char *path, int depth);

static int on_path(const struct walk *w, const struct stat *st)
{
    for (int i = 0; i < w->depth; i++)
        if (w->devs[i] == st->st_dev && w->inos[i] == st->st_ino)
            return 1;
    return 0;
}

static int visit_dir(struct walk *w, const char *path, const struct stat *st, int depth)
{
    if (depth >= WALK_MAX_DEPTH) {
        w->ops->problem(w->ops->ctx, path, WALK_TOO_DEEP, 0);
        return 0;
    }
    if (on_path(w, st)) {
        w->ops->problem(w->ops->ctx, path, WALK_LOOP, 0);
        return 0;
    }
    struct dirent **names = NULL;
    int n = scandir(path, &names, NULL, alphasort), rc = 0;
    if (n < 0) {
        w->ops->problem(w->ops->ctx, path, WALK_ERRNO, errno);
        return -1;
    }
    w->devs[w->depth] = st->st_dev;
    w->inos[w->depth] = st->st_ino;
    w->depth++;
    for (int i = 0; i < n; i++) {
        const char *name = names[i]->d_name;
        if (rc <= 0 && strcmp(name, ".") != 0 && strcmp(name, "..") != 0) {
            size_t len = strlen(path) + strlen(name) + 2;
            char *full = malloc(len);
            if (full == NULL) {
                w->ops->problem(w->ops->ctx, path, WALK_ERRNO, ENOMEM);
                rc = -1;
            } else {
                int slash = path[0] && path[strlen(path) - 1] == '/';
                snprintf(full, len, slash ? "%s%s" : "%s/%s", path, name);
                int got = visit(w, full, depth + 1);
                if (got > 0 || (got < 0 && rc == 0))
                    rc = got;
                free(full);
            }
        }
        free(names[i]);
    }
    free(names);
    w->depth--;
    return rc;
}

static int visit(struct walk *w, const char *path, int depth)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        w->ops->problem(w->ops->ctx, path, WALK_ERRNO, errno);
        return -1;
    }
    if (S_ISDIR(st.st_mode))
        return visit_dir(w, path, &st, depth);
    if (!S_ISREG(st.st_mode) && depth > 0)
        return 0;
    w->files++;
    return w->ops->file(w->ops->ctx, path, depth);
}

int walk_path(const char *path, const struct walk_ops *ops)
{
    struct walk *w = calloc(1, sizeof *w);
    if (w == NULL) {
        ops->problem(ops->ctx, path, WALK_ERRNO, ENOMEM);
        return -1;
    }
    w->ops = ops;
    int rc = visit(w, path, 0);
    if (rc == 0 && w->files == 0) {
        ops->problem(ops->ctx, path, WALK_EMPTY_DIR, 0);
        rc = -1;
    }
    free(w);
    return rc;
}
