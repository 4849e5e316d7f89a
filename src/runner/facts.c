#include "facts.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "outbuf.h"

/* The command as one line: arguments with spaces or quotes in '...'. */
static void put_command(struct outbuf *o, char *const *argv)
{
    outbuf_put(o, "oomdiag-run: command:");
    for (size_t i = 0; argv[i] != NULL && o->len < 1024; i++) {
        const char *a = argv[i];
        int plain = a[0] != '\0' && strpbrk(a, " \t'\"\\$`\n\r") == NULL;
        if (plain) {
            outbuf_put(o, " %s", a);
            continue;
        }
        outbuf_put(o, " '");
        for (; *a; a++) {
            if (*a == '\'')
                outbuf_put(o, "'\\''");
            else if (*a == '\n' || *a == '\r')
                outbuf_put(o, " ");
            else
                outbuf_put(o, "%c", *a);
        }
        outbuf_put(o, "'");
    }
    outbuf_put(o, "\n");
}

size_t facts_format(char *buf, size_t size, char *const *argv, const struct run_result *res,
                    const struct livescan_stats *scan, const struct cgroup_snap *before,
                    const struct cgroup_snap *after)
{
    struct outbuf o = {buf, size, 0};
    if (size == 0)
        return 0;
    buf[0] = '\0';
    put_command(&o, argv);
    if (res->exec_errno)
        outbuf_put(&o, "oomdiag-run: exec failed errno=%d (%s) status=%d\n", res->exec_errno, strerror(res->exec_errno),
                   res->status);
    else if (res->exited)
        outbuf_put(&o, "oomdiag-run: exit status=%d\n", res->status);
    else {
        const char *name = run_signal_name(res->signal);
        outbuf_put(&o, "oomdiag-run: exit signal=%d (%s) status=%d%s\n", res->signal, name ? name : "unknown",
                   res->status, res->core ? " core dumped" : "");
    }
    outbuf_put(&o, "oomdiag-run: elapsed %.3f s\n", res->elapsed_s);
    outbuf_put(&o, "oomdiag-run: output stdout=%llu bytes stderr=%llu bytes tty=%s\n", res->bytes[0], res->bytes[1],
               res->pty[0] && res->pty[1] ? "stdout,stderr"
               : res->pty[0]              ? "stdout"
               : res->pty[1]              ? "stderr"
                                          : "none");
    if (scan != NULL && scan->skipped_bytes > 0)
        outbuf_put(&o,
                   "oomdiag-run: output not scanned %llu bytes (%llu lines): written faster than it could be scanned\n",
                   scan->skipped_bytes, scan->skipped_newlines);
    if (res->forwarded > 0)
        outbuf_put(&o, "oomdiag-run: signals forwarded=%d\n", res->forwarded);
    if (res->killed)
        outbuf_put(&o, "oomdiag-run: killed by oomdiag with SIGKILL: still running %d s after a second signal\n",
                   RUN_KILL_GRACE_S);
    if (res->maxrss_bytes >= 0)
        outbuf_put(&o, "oomdiag-run: rusage maxrss=%lld bytes\n", res->maxrss_bytes);
    if (res->host_mem_bytes > 0)
        outbuf_put(&o, "oomdiag-run: host MemTotal=%lld bytes\n", res->host_mem_bytes);
    if (after == NULL)
        return o.len;
    outbuf_put(&o, "oomdiag-run: cgroup %s\n", after->dir);
    if (after->max >= 0)
        outbuf_put(&o, "oomdiag-run: cgroup %s %lld bytes\n", after->max_file[0] ? after->max_file : "memory.max",
                   after->max);
    else
        outbuf_put(&o, "oomdiag-run: cgroup %s max\n", after->max_file[0] ? after->max_file : "memory.max");
    if (after->peak >= 0)
        outbuf_put(&o, "oomdiag-run: cgroup %s %lld bytes\n", after->peak_file[0] ? after->peak_file : "memory.peak",
                   after->peak);
    for (size_t i = 0; i < after->event_count; i++) {
        long long was = before ? cgroup_event(before, after->events[i].name) : -1;
        const char *file = after->events[i].file[0] ? after->events[i].file : "memory.events";
        if (was >= 0)
            outbuf_put(&o, "oomdiag-run: cgroup %s %s %lld -> %llu\n", file, after->events[i].name, was,
                       after->events[i].value);
        else
            outbuf_put(&o, "oomdiag-run: cgroup %s %s %llu\n", file, after->events[i].name, after->events[i].value);
    }
    return o.len;
}
