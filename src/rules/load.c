#include "load.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "builtin_rules.h"
#include "image.h"
#include "rulefile.h"
#include "ruleset.h"

void od_ruleset_keep_samples(struct od_ruleset *rs, int keep)
{
    rs->no_samples = !keep;
}

int od_ruleset_add_buffer(struct od_ruleset *rs, const char *name, const char *text, size_t len)
{
    const struct rulefile_opts opts = {.keep_samples = !rs->no_samples};
    char *copy = malloc(len + 1);
    if (copy == NULL) {
        msg_error(&rs->msgs, name, "out of memory");
        return -1;
    }
    memcpy(copy, text, len);
    copy[len] = '\0';
    if (ruleset_keep_text(rs, copy) != 0) {
        free(copy);
        msg_error(&rs->msgs, name, "out of memory");
        return -1;
    }
    return rulefile_load(rs, &opts, name, copy, len);
}

int od_ruleset_add_builtin(struct od_ruleset *rs)
{
    const struct rulefile_opts opts = {.builtin = 1, .keep_samples = !rs->no_samples};
    int rc = 0;
    /* A diagnosis run: the same items, compiled into static data at build
     * time (image.h).  Only into an empty ruleset: the image holds no
     * duplicate checks against what was loaded before it. */
    int empty = rs->file_count == 0 && rs->sig_count == 0 && rs->cause_count == 0 && rs->rank_count == 0 &&
                rs->prefix_count == 0 && rs->dtype_count == 0 && rs->translation_count == 0;
    if (!opts.keep_samples && empty && builtin_image.file_count > 0 && builtin_image.file_count == builtin_rule_count)
        return image_add(rs, &builtin_image);
    for (size_t i = 0; i < builtin_rule_count; i++) {
        const struct builtin_rule *b = &builtin_rules[i];
        /* Without samples the lean copy serves (its line numbers are not
         * the file's, but the embedded rules are checked as files). */
        const unsigned char *text = opts.keep_samples ? b->data : b->lean;
        size_t len = opts.keep_samples ? b->len : b->lean_len;
        if (rulefile_load(rs, &opts, b->name, (const char *)text, len) != 0)
            rc = -1;
    }
    return rc;
}

/* Is TEXT (LEN bytes) one of the rule files' texts loaded already? */
static int loaded_already(const struct od_ruleset *rs, const unsigned char *text, size_t len)
{
    for (size_t i = 0; i < rs->text_count; i++)
        if (strlen(rs->texts[i]) == len && memcmp(rs->texts[i], text, len) == 0)
            return 1;
    return 0;
}

int od_ruleset_add_builtin_context(struct od_ruleset *rs)
{
    const struct rulefile_opts opts = {.builtin = 1, .builtin_context = 1};
    int rc = 0;
    for (size_t i = 0; i < builtin_rule_count; i++) {
        const struct builtin_rule *b = &builtin_rules[i];
        if (loaded_already(rs, b->data, b->len))
            continue;
        /* The whole file (its samples are skipped): its field declarations count. */
        if (rulefile_load(rs, &opts, b->name, (const char *)b->data, b->len) != 0)
            rc = -1;
    }
    return rc;
}

int od_ruleset_add_builtin_lexicon(struct od_ruleset *rs)
{
    const struct rulefile_opts opts = {.builtin = 1, .builtin_context = 1};
    int rc = 0;
    for (size_t i = 0; i < builtin_rule_count; i++) {
        const struct builtin_rule *b = &builtin_rules[i];
        if (rulefile_is_lexicon((const char *)b->data, b->len) &&
            rulefile_load(rs, &opts, b->name, (const char *)b->data, b->len) != 0)
            rc = -1;
    }
    return rc;
}

/* Reads FD (PATH, whose fstat is ST) to the end into a malloc'd,
 * NUL-terminated text of *LEN bytes; NULL after reporting.  Not st_size
 * bytes: a pipe (-r /dev/stdin, -r <(...)) has no size.  One byte past the
 * limit tells a file that is over it. */
static char *read_rule_file(struct od_ruleset *rs, const char *path, int fd, const struct stat *st, size_t *len)
{
    size_t cap = S_ISREG(st->st_mode) ? (size_t)st->st_size + 1 : 65536, got = 0;
    char *text = malloc(cap + 1);
    ssize_t n = 0;
    while (text != NULL && got <= RULEFILE_MAX_BYTES) {
        if (got == cap) {
            size_t bigger = cap * 2 < RULEFILE_MAX_BYTES + 1 ? cap * 2 : RULEFILE_MAX_BYTES + 1;
            char *p = realloc(text, bigger + 1);
            if (p == NULL) {
                free(text);
                text = NULL;
                break;
            }
            text = p;
            cap = bigger;
        }
        n = read(fd, text + got, cap - got);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        got += (size_t)n;
    }
    if (text == NULL || n < 0 || got > RULEFILE_MAX_BYTES) {
        if (text == NULL)
            msg_error(&rs->msgs, path, "out of memory");
        else if (n < 0)
            msg_error(&rs->msgs, path, "cannot read rule file: %s", strerror(errno));
        else
            msg_error(&rs->msgs, path, "rule file is larger than %d MiB", RULEFILE_MAX_BYTES >> 20);
        free(text);
        return NULL;
    }
    text[got] = '\0';
    *len = got;
    return text;
}

/* Reads PATH into a text the ruleset keeps (every origin points into
 * it); NULL after reporting. */
static char *read_kept(struct od_ruleset *rs, const char *path, size_t *len)
{
    int fd = open(path, O_RDONLY);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) {
        msg_error(&rs->msgs, path, "cannot read rule file: %s", strerror(errno));
        if (fd >= 0)
            close(fd);
        return NULL;
    }
    if (S_ISREG(st.st_mode) && st.st_size > RULEFILE_MAX_BYTES) {
        msg_error(&rs->msgs, path, "rule file is larger than %d MiB", RULEFILE_MAX_BYTES >> 20);
        close(fd);
        return NULL;
    }
    char *text = read_rule_file(rs, path, fd, &st, len);
    close(fd);
    if (text != NULL && ruleset_keep_text(rs, text) != 0) {
        free(text);
        msg_error(&rs->msgs, path, "out of memory");
        return NULL;
    }
    return text;
}

/* A file named by the user: every regex compiled now, so that a bad
 * pattern is reported at load, not at its first use. */
static int load_kept(struct od_ruleset *rs, const char *path, const char *text, size_t len)
{
    const struct rulefile_opts opts = {.keep_samples = !rs->no_samples, .compile_now = 1};
    return rulefile_load(rs, &opts, path, text, len);
}

static int add_file(struct od_ruleset *rs, const char *path)
{
    size_t len = 0;
    const char *text = read_kept(rs, path, &len);
    return text != NULL ? load_kept(rs, path, text, len) : -1;
}

int load_is_rule_file_name(const char *name)
{
    size_t n = strlen(name);
    return n > 5 && strcmp(name + n - 5, ".json") == 0;
}

int od_ruleset_add_path(struct od_ruleset *rs, const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        msg_error(&rs->msgs, path, "cannot read rules: %s", strerror(errno));
        return -1;
    }
    if (!S_ISDIR(st.st_mode))
        return add_file(rs, path);
    struct dirent **names = NULL;
    int n = scandir(path, &names, NULL, alphasort), rc = 0, found = 0;
    size_t plen = strlen(path);
    const char *sep = plen > 0 && path[plen - 1] == '/' ? "" : "/"; /* "rr/" names rr/x.json, not rr//x.json */
    if (n < 0) {
        msg_error(&rs->msgs, path, "cannot read rule directory: %s", strerror(errno));
        return -1;
    }
    /* Lexicon files first, then the rest, each in name order: a file sees
     * the directory's whole lexicon whatever its name. */
    const char **texts = calloc((size_t)(n > 0 ? n : 1), sizeof *texts);
    size_t *lens = calloc((size_t)(n > 0 ? n : 1), sizeof *lens);
    char(*full)[4096] = calloc((size_t)(n > 0 ? n : 1), sizeof *full);
    unsigned char *lexicon = calloc((size_t)(n > 0 ? n : 1), 1);
    int ok = texts != NULL && lens != NULL && full != NULL && lexicon != NULL;
    if (!ok) {
        msg_error(&rs->msgs, path, "out of memory");
        rc = -1;
    }
    for (int pass = 0; pass < 2 && ok; pass++)
        for (int i = 0; i < n; i++) {
            if (!load_is_rule_file_name(names[i]->d_name))
                continue;
            if (pass == 0) {
                found++;
                snprintf(full[i], sizeof full[i], "%s%s%s", path, sep, names[i]->d_name);
                if ((texts[i] = read_kept(rs, full[i], &lens[i])) == NULL)
                    rc = -1;
                else
                    lexicon[i] = (unsigned char)rulefile_is_lexicon(texts[i], lens[i]);
            }
            if (texts[i] != NULL && (pass == 0) == lexicon[i] && load_kept(rs, full[i], texts[i], lens[i]) != 0)
                rc = -1;
        }
    for (int i = 0; i < n; i++)
        free(names[i]);
    free(texts);
    free(lens);
    free(full);
    free(lexicon);
    free(names);
    if (!found)
        msg_warn(&rs->msgs, path, "no *.json rule files in this directory");
    return rc;
}
