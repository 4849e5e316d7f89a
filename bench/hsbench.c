/* bench/hsbench.c: Hyperscan as a peer of oomdiag in the benchmark: one
 * block-mode database of oomdiag's own signature patterns, matched line by
 * line the way grep counts matching lines. Not part of oomdiag; built by
 * bench/run.sh when libhs is installed (docs/performance.md).
 *
 *   hsbench check LIST SAMPLES  for each pattern of LIST: does Hyperscan take
 *                               it exactly, only as a prefilter, or not at
 *                               all, and how many of its samples it matches
 *   hsbench build LIST DB       compile LIST into one database, serialized
 *                               into the file DB
 *   hsbench [-c] DB [FILE...]   load DB and print the lines of the FILEs
 *                               (or stdin) that match any pattern; -c:
 *                               print only how many lines match, in all
 *   hsbench [-c] -s LIST [FILE...]  the same, compiling LIST at start-up
 *   hsbench --version           the Hyperscan version it was built with
 *
 * LIST (bench/patterns.py writes it): one pattern a line,
 * "INDEX<TAB>FLAGS<TAB>NAME<TAB>PATTERN", FLAGS a word of letters: i
 * caseless, p prefilter (Hyperscan cannot match the pattern exactly), or -
 * for none. SAMPLES: "INDEX<TAB>LINE" a line. Patterns are matched as bytes
 * (no UTF-8 mode), as oomdiag's PCRE2 patterns are.
 *
 * A prefilter pattern's hit may be false: when built with PCRE2
 * (-DHSBENCH_PCRE2), the line is confirmed with PCRE2 (compiled on the
 * pattern's first hit), so every count is exact; without it prefilter hits
 * count as matches. Exit status as grep's: 0 a line matched, 1 none, 2 an
 * error. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <hs.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef HSBENCH_PCRE2
#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#endif

#define MAGIC "HSBENCH1"

typedef struct {
    unsigned index;
    unsigned flags; /* HS_FLAG_* */
    char *name;
    char *pattern;
#ifdef HSBENCH_PCRE2
    pcre2_code *code; /* confirmation of a prefilter, compiled on first use */
    int failed;
#endif
} pat_t;

typedef struct {
    pat_t *v;
    size_t n;
} patlist_t;

static void die(const char *what, const char *detail)
{
    fprintf(stderr, "hsbench: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
    exit(2);
}

static void *xrealloc(void *p, size_t n)
{
    p = realloc(p, n ? n : 1);
    if (!p)
        die("out of memory", NULL);
    return p;
}

static char *xstrdup(const char *s)
{
    size_t n = strlen(s) + 1;
    return memcpy(xrealloc(NULL, n), s, n);
}

/* ---- reading LIST, SAMPLES and DB ---- */

static unsigned parse_flags(const char *f)
{
    unsigned flags = 0;
    for (; *f; f++) {
        if (*f == 'i')
            flags |= HS_FLAG_CASELESS;
        else if (*f == 'p')
            flags |= HS_FLAG_PREFILTER;
        else if (*f != '-')
            die("unknown flag letter in the pattern list", f);
    }
    return flags;
}

static patlist_t read_list(const char *path)
{
    FILE *fh = fopen(path, "r");
    if (!fh)
        die(path, strerror(errno));
    patlist_t l = {0};
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    while ((len = getline(&line, &cap, fh)) >= 0) {
        if (len > 0 && line[len - 1] == '\n')
            line[--len] = 0;
        if (len == 0)
            continue;
        char *f[4] = {line, NULL, NULL, NULL};
        for (int k = 1; k < 4; k++) {
            char *tab = strchr(f[k - 1], '\t');
            if (!tab)
                die("a pattern list line needs INDEX, FLAGS, NAME and PATTERN, tab-separated", line);
            *tab = 0;
            f[k] = tab + 1;
        }
        l.v = xrealloc(l.v, (l.n + 1) * sizeof *l.v);
        pat_t *p = &l.v[l.n++];
        memset(p, 0, sizeof *p);
        p->index = (unsigned)strtoul(f[0], NULL, 10);
        p->flags = parse_flags(f[1]);
        p->name = xstrdup(f[2]);
        p->pattern = xstrdup(f[3]);
    }
    free(line);
    fclose(fh);
    return l;
}

static char *read_all(const char *path, size_t *size)
{
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        die(path, strerror(errno));
    size_t n = 0, cap = 1 << 16;
    char *buf = xrealloc(NULL, cap);
    for (;;) {
        if (n == cap)
            buf = xrealloc(buf, cap *= 2);
        ssize_t r = read(fd, buf + n, cap - n);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            die(path, strerror(errno));
        if (r == 0)
            break;
        n += (size_t)r;
    }
    close(fd);
    *size = n;
    return buf;
}

/* ---- compiling ---- */

static hs_database_t *compile_list(const patlist_t *l, unsigned extra, char **err)
{
    const char **exprs = xrealloc(NULL, l->n * sizeof *exprs);
    unsigned *flags = xrealloc(NULL, l->n * sizeof *flags);
    unsigned *ids = xrealloc(NULL, l->n * sizeof *ids);
    for (size_t k = 0; k < l->n; k++) {
        exprs[k] = l->v[k].pattern;
        flags[k] = l->v[k].flags | extra;
        ids[k] = (unsigned)k; /* position in the list: the callback's index */
    }
    hs_database_t *db = NULL;
    hs_compile_error_t *ce = NULL;
    *err = NULL;
    if (hs_compile_multi(exprs, flags, ids, (unsigned)l->n, HS_MODE_BLOCK, NULL, &db, &ce) != HS_SUCCESS) {
        char msg[512];
        snprintf(msg, sizeof msg, "%s (pattern %d: %s)", ce ? ce->message : "?",
                 ce && ce->expression >= 0 ? ce->expression : -1,
                 ce && ce->expression >= 0 ? l->v[ce->expression].name : "-");
        *err = xstrdup(msg);
        hs_free_compile_error(ce);
        db = NULL;
    }
    free(exprs);
    free(flags);
    free(ids);
    return db;
}

/* ---- matching a line ---- */

typedef struct {
    const patlist_t *list;
    const char *line;
    size_t len;
    int matched;
} ctx_t;

#ifdef HSBENCH_PCRE2
static int confirm(pat_t *p, const char *line, size_t len)
{
    if (p->failed)
        return 1; /* PCRE2 cannot take it either: count the hit */
    if (!p->code) {
        int ec;
        PCRE2_SIZE off;
        p->code = pcre2_compile((PCRE2_SPTR)p->pattern, PCRE2_ZERO_TERMINATED,
                                (p->flags & HS_FLAG_CASELESS) ? PCRE2_CASELESS : 0, &ec, &off, NULL);
        if (!p->code) {
            p->failed = 1;
            return 1;
        }
        pcre2_jit_compile(p->code, PCRE2_JIT_COMPLETE);
    }
    pcre2_match_data *md = pcre2_match_data_create_from_pattern(p->code, NULL);
    int rc = pcre2_match(p->code, (PCRE2_SPTR)line, len, 0, 0, md, NULL);
    pcre2_match_data_free(md);
    return rc >= 0;
}
#endif

static int on_match(unsigned int id, unsigned long long from, unsigned long long to, unsigned int flags, void *arg)
{
    (void)from, (void)to, (void)flags;
    ctx_t *c = arg;
    pat_t *p = &c->list->v[id];
#ifdef HSBENCH_PCRE2
    if ((p->flags & HS_FLAG_PREFILTER) && !confirm(p, c->line, c->len))
        return 0; /* a false prefilter hit: look on */
#else
    (void)p;
#endif
    c->matched = 1;
    return 1; /* the line matches: stop scanning it */
}

static int match_line(const hs_database_t *db, hs_scratch_t *s, ctx_t *c, const char *line, size_t len)
{
    c->line = line;
    c->len = len;
    c->matched = 0;
    hs_error_t e = hs_scan(db, line, (unsigned)len, 0, s, on_match, c);
    if (e != HS_SUCCESS && e != HS_SCAN_TERMINATED)
        die("hs_scan failed", NULL);
    return c->matched;
}

/* ---- the commands ---- */

static int cmd_check(const char *list_path, const char *samples_path)
{
    patlist_t l = read_list(list_path);
    size_t ssize;
    char *samples = read_all(samples_path, &ssize);
    for (size_t k = 0; k < l.n; k++) {
        pat_t *p = &l.v[k];
        patlist_t one = {p, 1};
        char *err = NULL, *err2 = NULL;
        const char *mode = "exact";
        p->flags &= ~HS_FLAG_PREFILTER;
        hs_database_t *db = compile_list(&one, HS_FLAG_SINGLEMATCH, &err);
        if (!db) {
            p->flags |= HS_FLAG_PREFILTER;
            mode = "prefilter";
            db = compile_list(&one, HS_FLAG_SINGLEMATCH, &err2);
        }
        if (!db) {
            printf("%u\trejected\t0/0\t%s\n", p->index, err);
            free(err);
            free(err2);
            continue;
        }
        hs_scratch_t *s = NULL;
        if (hs_alloc_scratch(db, &s) != HS_SUCCESS)
            die("hs_alloc_scratch failed", NULL);
        unsigned got = 0, total = 0;
        ctx_t c = {&one, NULL, 0, 0};
        for (char *at = samples; at < samples + ssize;) {
            char *nl = memchr(at, '\n', (size_t)(samples + ssize - at));
            char *end = nl ? nl : samples + ssize;
            char *tab = memchr(at, '\t', (size_t)(end - at));
            if (tab && strtoul(at, NULL, 10) == p->index) {
                total++;
                got += (unsigned)match_line(db, s, &c, tab + 1, (size_t)(end - tab - 1));
            }
            at = end + 1;
        }
        printf("%u\t%s\t%u/%u\t%s\n", p->index, mode, got, total, err ? err : "");
        free(err);
        hs_free_scratch(s);
        hs_free_database(db);
    }
    free(samples);
    return 0;
}

static void put_u32(FILE *fh, uint32_t v)
{
    if (fwrite(&v, sizeof v, 1, fh) != 1)
        die("cannot write the database", strerror(errno));
}

static int cmd_build(const char *list_path, const char *db_path)
{
    patlist_t l = read_list(list_path);
    char *err;
    hs_database_t *db = compile_list(&l, HS_FLAG_SINGLEMATCH, &err);
    if (!db)
        die("cannot compile the pattern list", err);
    char *bytes;
    size_t n;
    if (hs_serialize_database(db, &bytes, &n) != HS_SUCCESS)
        die("hs_serialize_database failed", NULL);
    /* MAGIC, the patterns (for the prefilters' confirmation), the database */
    FILE *fh = fopen(db_path, "wb");
    if (!fh)
        die(db_path, strerror(errno));
    fwrite(MAGIC, 1, 8, fh);
    put_u32(fh, (uint32_t)l.n);
    for (size_t k = 0; k < l.n; k++) {
        put_u32(fh, l.v[k].index);
        put_u32(fh, l.v[k].flags);
        put_u32(fh, (uint32_t)strlen(l.v[k].name));
        fputs(l.v[k].name, fh);
        put_u32(fh, (uint32_t)strlen(l.v[k].pattern));
        fputs(l.v[k].pattern, fh);
    }
    put_u32(fh, (uint32_t)n);
    fwrite(bytes, 1, n, fh);
    if (fclose(fh) != 0)
        die(db_path, strerror(errno));
    size_t npre = 0;
    for (size_t k = 0; k < l.n; k++)
        npre += (l.v[k].flags & HS_FLAG_PREFILTER) != 0;
    fprintf(stderr, "hsbench: %zu patterns (%zu exact, %zu prefilters), database %zu bytes\n", l.n, l.n - npre, npre,
            n);
    free(bytes);
    hs_free_database(db);
    return 0;
}

static uint32_t get_u32(const char **at, const char *end)
{
    uint32_t v;
    if ((size_t)(end - *at) < sizeof v)
        die("the database file is truncated", NULL);
    memcpy(&v, *at, sizeof v);
    *at += sizeof v;
    return v;
}

static char *get_str(const char **at, const char *end)
{
    uint32_t n = get_u32(at, end);
    if ((size_t)(end - *at) < n)
        die("the database file is truncated", NULL);
    char *s = xrealloc(NULL, (size_t)n + 1);
    memcpy(s, *at, n);
    s[n] = 0;
    *at += n;
    return s;
}

static hs_database_t *load_db(const char *path, patlist_t *l)
{
    size_t size;
    char *buf = read_all(path, &size);
    const char *at = buf + 8, *end = buf + size;
    if (size < 8 || memcmp(buf, MAGIC, 8) != 0)
        die(path, "not a database of hsbench build");
    l->n = get_u32(&at, end);
    l->v = xrealloc(NULL, l->n * sizeof *l->v);
    for (size_t k = 0; k < l->n; k++) {
        memset(&l->v[k], 0, sizeof l->v[k]);
        l->v[k].index = get_u32(&at, end);
        l->v[k].flags = get_u32(&at, end);
        l->v[k].name = get_str(&at, end);
        l->v[k].pattern = get_str(&at, end);
    }
    uint32_t n = get_u32(&at, end);
    if ((size_t)(end - at) < n)
        die("the database file is truncated", NULL);
    hs_database_t *db = NULL;
    hs_error_t e = hs_deserialize_database(at, n, &db);
    if (e == HS_DB_PLATFORM_ERROR)
        die(path, "built for another CPU: run hsbench build on this machine");
    if (e != HS_SUCCESS)
        die(path, "hs_deserialize_database failed");
    free(buf);
    return db;
}

/* Prints (or only counts) the lines of fd that match; returns the count. */
static size_t scan_fd(const hs_database_t *db, hs_scratch_t *s, const patlist_t *l, int fd, int count_only)
{
    static char *buf;
    static size_t cap = 1 << 20;
    size_t have = 0, matched = 0;
    if (!buf)
        buf = xrealloc(NULL, cap);
    ctx_t c = {l, NULL, 0, 0};
    for (;;) {
        if (have == cap)
            buf = xrealloc(buf, cap *= 2); /* a line longer than the buffer */
        ssize_t r = read(fd, buf + have, cap - have);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            die("read failed", strerror(errno));
        size_t end = have + (size_t)r, at = 0;
        for (;;) {
            char *nl = memchr(buf + at, '\n', end - at);
            if (!nl && r > 0)
                break;
            size_t stop = nl ? (size_t)(nl - buf) : end;
            if (!nl && stop == at)
                break; /* end of input, no unterminated last line */
            if (match_line(db, s, &c, buf + at, stop - at)) {
                matched++;
                if (!count_only) {
                    fwrite(buf + at, 1, stop - at, stdout);
                    putchar('\n');
                }
            }
            at = stop + 1;
            if (!nl)
                break;
        }
        if (r == 0)
            break;
        have = end - at;
        memmove(buf, buf + at, have);
    }
    return matched;
}

static int usage(void)
{
    fprintf(stderr, "usage: hsbench check LIST SAMPLES\n"
                    "       hsbench build LIST DB\n"
                    "       hsbench [-c] DB [FILE...]\n"
                    "       hsbench [-c] -s LIST [FILE...]\n"
                    "       hsbench --version\n");
    return 2;
}

int main(int argc, char **argv)
{
    if (argc == 2 && strcmp(argv[1], "--version") == 0) {
        printf("hsbench (Hyperscan %s%s)\n", hs_version(),
#ifdef HSBENCH_PCRE2
               ", prefilter hits confirmed with PCRE2"
#else
               ", prefilter hits unconfirmed"
#endif
        );
        return 0;
    }
    if (argc == 4 && strcmp(argv[1], "check") == 0)
        return cmd_check(argv[2], argv[3]);
    if (argc == 4 && strcmp(argv[1], "build") == 0)
        return cmd_build(argv[2], argv[3]);
    int count_only = 0, source = 0, k = 1;
    for (; k < argc && argv[k][0] == '-' && argv[k][1]; k++) {
        if (strcmp(argv[k], "-c") == 0)
            count_only = 1;
        else if (strcmp(argv[k], "-s") == 0)
            source = 1;
        else
            return usage();
    }
    if (argc - k < 1)
        return usage();
    patlist_t l = {0};
    hs_database_t *db;
    if (source) {
        char *err;
        l = read_list(argv[k]);
        db = compile_list(&l, HS_FLAG_SINGLEMATCH, &err);
        if (!db)
            die("cannot compile the pattern list", err);
    } else {
        db = load_db(argv[k], &l);
    }
    hs_scratch_t *s = NULL;
    if (hs_alloc_scratch(db, &s) != HS_SUCCESS)
        die("hs_alloc_scratch failed", NULL);
    static char obuf[1 << 16];
    setvbuf(stdout, obuf, _IOFBF, sizeof obuf);
    size_t matched = 0;
    for (int f = k + 1; f < argc || f == k + 1; f++) {
        int fd = 0;
        if (f < argc && strcmp(argv[f], "-") != 0) {
            fd = open(argv[f], O_RDONLY);
            if (fd < 0)
                die(argv[f], strerror(errno));
        }
        matched += scan_fd(db, s, &l, fd, count_only);
        if (fd != 0)
            close(fd);
    }
    if (count_only)
        printf("%zu\n", matched);
    if (fflush(stdout) != 0)
        die("write failed", strerror(errno));
    return matched ? 0 : 1;
}
