#include "facts.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

struct out {
    char *buf;
    size_t size, len;
};

static void put(struct out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(struct out *o, const char *fmt, ...)
{
    if (o->len + 1 >= o->size)
        return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(o->buf + o->len, o->size - o->len, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    o->len += (size_t)n < o->size - o->len ? (size_t)n : o->size - o->len - 1;
}

/* The command as one line: arguments with spaces or quotes in '...'. */
static void put_command(struct out *o, char *const *argv)
{
    put(o, "oomdiag-run: command:");
    for (size_t i = 0; argv[i] != NULL && o->len < 1024; i++) {
        const char *a = argv[i];
        int plain = a[0] != '\0' && strpbrk(a, " \t'\"\\$`\n\r") == NULL;
        if (plain) {
            put(o, " %s", a);
            continue;
        }
        put(o, " '");
        for (; *a; a++) {
            if (*a == '\'')
                put(o, "'\\''");
            else if (*a == '\n' || *a == '\r')
                put(o, " ");
            else
                put(o, "%c", *a);
        }
        put(o, "'");
    }
    put(o, "\n");
}

size_t facts_format(char *buf, size_t size, char *const *argv, const struct run_result *res,
                    const struct livescan_stats *scan, const struct cgroup_snap *before,
                    const struct cgroup_snap *after)
{
    struct out o = {buf, size, 0};
    if (size == 0)
        return 0;
    buf[0] = '\0';
    put_command(&o, argv);
    if (res->exec_errno)
        put(&o, "oomdiag-run: exec failed errno=%d (%s) status=%d\n", res->exec_errno, strerror(res->exec_errno),
            res->status);
    else if (res->exited)
        put(&o, "oomdiag-run: exit status=%d\n", res->status);
    else {
        const char *name = run_signal_name(res->signal);
        put(&o, "oomdiag-run: exit signal=%d (%s) status=%d%s\n", res->signal, name ? name : "unknown", res->status,
            res->core ? " core dumped" : "");
    }
    put(&o, "oomdiag-run: elapsed %.3f s\n", res->elapsed_s);
    put(&o, "oomdiag-run: output stdout=%llu bytes stderr=%llu bytes tty=%s\n", res->bytes[0], res->bytes[1],
        res->pty[0] && res->pty[1] ? "stdout,stderr"
        : res->pty[0]              ? "stdout"
        : res->pty[1]              ? "stderr"
                                   : "none");
    if (scan != NULL && scan->skipped_bytes > 0)
        put(&o, "oomdiag-run: output not scanned %llu bytes (%llu lines): written faster than it could be scanned\n",
            scan->skipped_bytes, scan->skipped_newlines);
    if (res->forwarded > 0)
        put(&o, "oomdiag-run: signals forwarded=%d\n", res->forwarded);
    if (res->killed)
        put(&o, "oomdiag-run: killed by oomdiag with SIGKILL: still running %d s after a second signal\n",
            RUN_KILL_GRACE_S);
    if (res->maxrss_bytes >= 0)
        put(&o, "oomdiag-run: rusage maxrss=%lld bytes\n", res->maxrss_bytes);
    if (res->host_mem_bytes > 0)
        put(&o, "oomdiag-run: host MemTotal=%lld bytes\n", res->host_mem_bytes);
    if (after == NULL)
        return o.len;
    put(&o, "oomdiag-run: cgroup %s\n", after->dir);
    if (after->max >= 0)
        put(&o, "oomdiag-run: cgroup %s %lld bytes\n", after->max_file[0] ? after->max_file : "memory.max", after->max);
    else
        put(&o, "oomdiag-run: cgroup %s max\n", after->max_file[0] ? after->max_file : "memory.max");
    if (after->peak >= 0)
        put(&o, "oomdiag-run: cgroup %s %lld bytes\n", after->peak_file[0] ? after->peak_file : "memory.peak",
            after->peak);
    for (size_t i = 0; i < after->event_count; i++) {
        long long was = before ? cgroup_event(before, after->events[i].name) : -1;
        const char *file = after->events[i].file[0] ? after->events[i].file : "memory.events";
        if (was >= 0)
            put(&o, "oomdiag-run: cgroup %s %s %lld -> %llu\n", file, after->events[i].name, was,
                after->events[i].value);
        else
            put(&o, "oomdiag-run: cgroup %s %s %llu\n", file, after->events[i].name, after->events[i].value);
    }
    return o.len;
}
