#include "cgroup.h"

#include <unistd.h>

#include "cgroup_v1.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The mount point of the cgroup2 file system, from /proc/self/mountinfo. */
static int cgroup2_mount(char *out, size_t size)
{
    FILE *f = fopen("/proc/self/mountinfo", "r");
    char line[4096];
    int found = -1;
    if (f == NULL)
        return -1;
    while (found != 0 && fgets(line, sizeof line, f) != NULL) {
        /* ID PARENT MAJ:MIN ROOT MOUNTPOINT OPTIONS... - FSTYPE SOURCE ... */
        char *sep = strstr(line, " - ");
        if (sep == NULL || strncmp(sep + 3, "cgroup2 ", 8) != 0)
            continue;
        char *save = NULL, *tok = strtok_r(line, " ", &save);
        for (int field = 0; tok != NULL && field < 4; field++)
            tok = strtok_r(NULL, " ", &save);
        if (tok != NULL && strlen(tok) < size) {
            snprintf(out, size, "%s", tok);
            found = 0;
        }
    }
    fclose(f);
    return found;
}

int cgroup_self_dir(char *dir, size_t size)
{
    FILE *f = fopen("/proc/self/cgroup", "r");
    char line[CGROUP_PATH_MAX], rel[CGROUP_PATH_MAX] = "";
    int have = 0;
    if (f == NULL)
        return -1;
    while (fgets(line, sizeof line, f) != NULL)
        if (strncmp(line, "0::", 3) == 0) {
            line[strcspn(line, "\n")] = '\0';
            snprintf(rel, sizeof rel, "%s", line + 3);
            have = 1;
        }
    fclose(f);
    char mount[CGROUP_PATH_MAX], events[CGROUP_PATH_MAX + 16];
    int n = have && cgroup2_mount(mount, sizeof mount) == 0
                ? snprintf(dir, size, "%s%s", mount, strcmp(rel, "/") == 0 ? "" : rel)
                : -1;
    snprintf(events, sizeof events, "%s/memory.events", n > 0 && (size_t)n < size ? dir : "");
    if (n > 0 && (size_t)n < size && access(events, R_OK) == 0)
        return 0;
    if (cgroup_v1_dir_from("/proc/self/mountinfo", "/proc/self/cgroup", dir, size) == 0)
        return 0; /* no v2 memory controller here: v1's (or a hybrid's) */
    return n > 0 && (size_t)n < size ? 0 : -1;
}

static long long read_bytes(const char *dir, const char *name)
{
    char path[CGROUP_PATH_MAX + 32], text[64];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "r");
    if (f == NULL)
        return -1;
    long long v = -1;
    if (fgets(text, sizeof text, f) != NULL) {
        char *end = NULL;
        long long n = strtoll(text, &end, 10);
        if (end != text && n >= 0)
            v = n;
    }
    fclose(f);
    return v;
}

void cgroup_snapshot(const char *dir, struct cgroup_snap *snap)
{
    if (cgroup_v1_is(dir)) {
        cgroup_v1_snapshot(dir, snap);
        return;
    }
    memset(snap, 0, sizeof *snap);
    snprintf(snap->dir, sizeof snap->dir, "%s", dir);
    snap->max = read_bytes(dir, "memory.max");
    snap->peak = read_bytes(dir, "memory.peak");
    char path[CGROUP_PATH_MAX + 32], line[128];
    snprintf(path, sizeof path, "%s/memory.events", dir);
    FILE *f = fopen(path, "r");
    if (f == NULL)
        return;
    while (snap->event_count < CGROUP_EVENTS_MAX && fgets(line, sizeof line, f) != NULL) {
        char name[32];
        unsigned long long v;
        if (sscanf(line, "%31s %llu", name, &v) != 2)
            continue;
        snprintf(snap->events[snap->event_count].name, sizeof snap->events[0].name, "%s", name);
        snap->events[snap->event_count++].value = v;
    }
    fclose(f);
}

long long cgroup_event(const struct cgroup_snap *snap, const char *name)
{
    for (size_t i = 0; i < snap->event_count; i++)
        if (strcmp(snap->events[i].name, name) == 0)
            return (long long)snap->events[i].value;
    return -1;
}
