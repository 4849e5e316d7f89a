/* Walking a path given on the command line: a file is itself; a
 * directory is every file under it, in sorted order, at most
 * WALK_MAX_DEPTH levels deep, each directory once (a symbolic link back to
 * a parent is skipped).  Sockets, FIFOs and devices found inside a tree
 * are left out.  The walker keeps nothing after it returns; what it finds
 * and what goes wrong go to the callbacks. */
#ifndef OOMDIAG_WALK_H
#define OOMDIAG_WALK_H

enum { WALK_MAX_DEPTH = 64 };

enum walk_problem {
    WALK_ERRNO,     /* stat or scandir failed with ERR */
    WALK_TOO_DEEP,  /* a directory at WALK_MAX_DEPTH: not descended */
    WALK_LOOP,      /* a directory already on the path: skipped */
    WALK_EMPTY_DIR, /* the path given is a tree without files */
};

struct walk_ops {
    /* A file to read; DEPTH 0 is the path as given.  A positive result
     * stops the walk; a negative one is remembered and the walk goes on. */
    int (*file)(void *ctx, const char *path, int depth);
    void (*problem)(void *ctx, const char *path, enum walk_problem what, int err);
    void *ctx;
};

/* Walks PATH.  Returns 0; -1 after an error (WALK_ERRNO, WALK_EMPTY_DIR)
 * or a negative FILE result; or FILE's positive result. */
int walk_path(const char *path, const struct walk_ops *ops);

#endif
