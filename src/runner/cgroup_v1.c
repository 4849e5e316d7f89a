#include "cgroup_v1.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The v1 limit that means none: the largest page-aligned signed value. */
#define V1_NO_LIMIT 0x7ffffffffffff000LL

/* Is NAME one of the comma-separated words of LIST (LEN bytes)? */
static int has_word(const char *list, size_t len, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = list, *end = list + len; p < end;) {
        const char *comma = memchr(p, ',', (size_t)(end - p));
        size_t w = comma ? (size_t)(comma - p) : (size_t)(end - p);
        if (w == n && memcmp(p, name, n) == 0)
            return 1;
        p += w + 1;
    }
    return 0;
}

/* The memory controller's mount: its point and its root, from MOUNTINFO. */
static int memory_mount(const char *mountinfo, char *point, char *root, size_t size)
{
    FILE *f = fopen(mountinfo, "r");
    char line[4096];
    int found = -1;
    if (f == NULL)
        return -1;
    while (found != 0 && fgets(line, sizeof line, f) != NULL) {
        /* ID PARENT MAJ:MIN ROOT MOUNTPOINT OPTIONS... - cgroup SOURCE SUPER_OPTIONS */
        line[strcspn(line, "\n")] = '\0';
        char *sep = strstr(line, " - ");
        if (sep == NULL || strncmp(sep + 3, "cgroup ", 7) != 0)
            continue;
        char *super = strrchr(sep + 3, ' ');
        if (super == NULL || !has_word(super + 1, strlen(super + 1), "memory"))
            continue;
        *sep = '\0';
        char *save = NULL, *tok = strtok_r(line, " ", &save);
        for (int field = 0; tok != NULL && field < 3; field++)
            tok = strtok_r(NULL, " ", &save);
        char *mp = tok ? strtok_r(NULL, " ", &save) : NULL;
        if (tok != NULL && mp != NULL && strlen(tok) < size && strlen(mp) < size) {
            snprintf(root, size, "%s", tok);
            snprintf(point, size, "%s", mp);
            found = 0;
        }
    }
    fclose(f);
    return found;
}

int cgroup_v1_dir_from(const char *mountinfo, const char *proc_cgroup, char *dir, size_t size)
{
    FILE *f = fopen(proc_cgroup, "r");
    char line[CGROUP_PATH_MAX], rel[CGROUP_PATH_MAX] = "";
    int have = 0;
    if (f == NULL)
        return -1;
    while (!have && fgets(line, sizeof line, f) != NULL) {
        /* ID:CONTROLLERS:PATH, e.g. "4:memory:/docker/abc" */
        line[strcspn(line, "\n")] = '\0';
        char *c1 = strchr(line, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
        if (c2 != NULL && has_word(c1 + 1, (size_t)(c2 - c1 - 1), "memory")) {
            snprintf(rel, sizeof rel, "%s", c2 + 1);
            have = 1;
        }
    }
    fclose(f);
    char point[CGROUP_PATH_MAX], root[CGROUP_PATH_MAX];
    if (!have || memory_mount(mountinfo, point, root, sizeof point) != 0)
        return -1;
    /* Inside a container the mount's root is the container's own cgroup. */
    size_t rl = strlen(root);
    const char *tail = rel;
    if (strcmp(root, "/") != 0 && strncmp(rel, root, rl) == 0 && (rel[rl] == '/' || rel[rl] == '\0'))
        tail = rel + rl;
    int n = snprintf(dir, size, "%s%s", point, strcmp(tail, "/") == 0 ? "" : tail);
    return n > 0 && (size_t)n < size ? 0 : -1;
}

int cgroup_v1_is(const char *dir)
{
    char path[CGROUP_PATH_MAX + 32];
    snprintf(path, sizeof path, "%s/memory.oom_control", dir);
    return access(path, R_OK) == 0;
}

static long long read_number(const char *dir, const char *name)
{
    char path[CGROUP_PATH_MAX + 32], text[64];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "r");
    long long v = -1;
    if (f == NULL)
        return -1;
    if (fgets(text, sizeof text, f) != NULL) {
        char *end = NULL;
        long long n = strtoll(text, &end, 10);
        if (end != text && n >= 0)
            v = n;
    }
    fclose(f);
    return v;
}

static void add_event(struct cgroup_snap *snap, const char *file, const char *name, unsigned long long value)
{
    if (snap->event_count == CGROUP_EVENTS_MAX)
        return;
    snprintf(snap->events[snap->event_count].file, sizeof snap->events[0].file, "%s", file);
    snprintf(snap->events[snap->event_count].name, sizeof snap->events[0].name, "%s", name);
    snap->events[snap->event_count++].value = value;
}

void cgroup_v1_snapshot(const char *dir, struct cgroup_snap *snap)
{
    memset(snap, 0, sizeof *snap);
    snprintf(snap->dir, sizeof snap->dir, "%s", dir);
    snprintf(snap->max_file, sizeof snap->max_file, "memory.limit_in_bytes");
    snprintf(snap->peak_file, sizeof snap->peak_file, "memory.max_usage_in_bytes");
    snap->max = read_number(dir, "memory.limit_in_bytes");
    if (snap->max >= V1_NO_LIMIT)
        snap->max = -1;
    snap->peak = read_number(dir, "memory.max_usage_in_bytes");
    char path[CGROUP_PATH_MAX + 32], line[128];
    snprintf(path, sizeof path, "%s/memory.oom_control", dir);
    FILE *f = fopen(path, "r");
    if (f != NULL) {
        while (fgets(line, sizeof line, f) != NULL) {
            char name[32];
            unsigned long long v;
            /* oom_kill_disable is a setting, not a counter */
            if (sscanf(line, "%31s %llu", name, &v) == 2 && strcmp(name, "oom_kill_disable") != 0)
                add_event(snap, "memory.oom_control", name, v);
        }
        fclose(f);
    }
    long long failcnt = read_number(dir, "memory.failcnt");
    if (failcnt >= 0)
        add_event(snap, "memory.failcnt", "failcnt", (unsigned long long)failcnt);
}
