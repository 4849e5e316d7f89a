#include "stall.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "outbuf.h"

#include "sysio.h"

enum { PYSPY_PROCS_MAX = 16, PYSPY_WAIT_MS = 10000, PYSPY_ALL_MS = 20000, PYSPY_OUT_MAX = 8192 };

static const struct {
    int sig;
    const char *name;
} names[] = {
    {SIGHUP, "SIGHUP"},   {SIGINT, "SIGINT"},   {SIGQUIT, "SIGQUIT"}, {SIGABRT, "SIGABRT"}, {SIGKILL, "SIGKILL"},
    {SIGUSR1, "SIGUSR1"}, {SIGUSR2, "SIGUSR2"}, {SIGALRM, "SIGALRM"}, {SIGTERM, "SIGTERM"}, {SIGCONT, "SIGCONT"},
    {SIGSTOP, "SIGSTOP"}, {SIGTSTP, "SIGTSTP"}, {SIGXCPU, "SIGXCPU"}, {SIGPWR, "SIGPWR"},   {SIGWINCH, "SIGWINCH"},
};

const char *stall_signal_name(int sig)
{
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (names[i].sig == sig)
            return names[i].name;
    return "";
}

int stall_parse_signal(const char *text, int *sig)
{
    char *end;
    long v = strtol(text, &end, 10);
    if (end != text && *end == '\0')
        return v > 0 && v < NSIG ? (*sig = (int)v, 0) : -1;
    if (strncasecmp(text, "SIG", 3) == 0)
        text += 3;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcasecmp(text, names[i].name + 3) == 0) {
            *sig = names[i].sig;
            return 0;
        }
    return -1;
}

int stall_parse_duration(const char *text, double *seconds)
{
    char *end;
    errno = 0;
    double v = strtod(text, &end);
    if (end == text || errno != 0 || !(v > 0))
        return -1;
    double unit = !strcmp(end, "") || !strcmp(end, "s") ? 1
                  : !strcmp(end, "ms")                  ? 0.001
                  : !strcmp(end, "m")                   ? 60
                  : !strcmp(end, "h")                   ? 3600
                                                        : 0;
    if (unit == 0 || v * unit > 1e9)
        return -1;
    *seconds = v * unit;
    return 0;
}

void stall_output(struct stall *s, const char *p, size_t n)
{
    if (n >= STALL_TAIL) {
        memcpy(s->tail, p + n - STALL_TAIL, STALL_TAIL);
        s->tail_len = STALL_TAIL;
    } else {
        size_t keep = s->tail_len + n > STALL_TAIL ? STALL_TAIL - n : s->tail_len;
        memmove(s->tail, s->tail + s->tail_len - keep, keep);
        memcpy(s->tail + keep, p, n);
        s->tail_len = keep + n;
    }
    s->fired = 0;
}

int stall_quiet(struct stall *s, int pid, double quiet_s)
{
    if (s->after_s <= 0)
        return -1;
    if (quiet_s < s->after_s) {
        s->fired = 0;
        double left = (s->after_s - quiet_s) * 1000;
        return left > 1e8 ? 100000000 : (int)left + 1;
    }
    if (s->fired)
        return -1;
    /* Quiet, but its GPUs still compute: not stalled; look again soon. */
    if (s->gpu != NULL && gpusample_busy(s->gpu))
        return STALL_RECHECK_MS;
    s->fired = 1;
    if (s->report != NULL)
        s->report(s->ctx, s, pid, quiet_s);
    if (s->sig > 0 && !s->signalled && pid > 0) {
        kill(-(pid_t)pid, s->sig);
        s->signalled = 1;
    }
    return -1;
}

/* TEXT[0..LEN) as one printable line: control bytes (a pty's escape
 * sequences, carriage returns of a progress bar) become spaces. */
static void put_line(struct outbuf *o, const char *prefix, size_t k, const char *text, size_t len)
{
    char line[512];
    size_t m = 0;
    for (size_t i = 0; i < len && m + 1 < sizeof line; i++) {
        unsigned char c = (unsigned char)text[i];
        line[m++] = c < 0x20 || c == 0x7f ? ' ' : (char)c;
    }
    line[m] = '\0';
    outbuf_put(o, "%s -%zu: %s\n", prefix, k, line);
}

size_t stall_last_lines(const struct stall *s, size_t n, const char *prefix, char *buf, size_t size)
{
    size_t at = strlen(buf);
    struct outbuf o = {buf + at, size > at ? size - at : 0, 0};
    const char *t = s->tail;
    size_t end = s->tail_len, starts[64], ends[64], found = 0;
    if (n > 64)
        n = 64;
    /* Walk back over lines (a lone \r ends a progress bar's redraw). */
    while (end > 0 && found < n) {
        while (end > 0 && (t[end - 1] == '\n' || t[end - 1] == '\r'))
            end--;
        size_t start = end;
        while (start > 0 && t[start - 1] != '\n' && t[start - 1] != '\r')
            start--;
        if (end > start) {
            starts[found] = start;
            ends[found] = end;
            found++;
        }
        end = start;
    }
    for (size_t k = found; k > 0; k--)
        put_line(&o, prefix, k, t + starts[k - 1], ends[k - 1] - starts[k - 1]);
    return o.len;
}

/* The pids of the processes of process group PGID (py-spy tells which of
 * them run Python: it refuses the others at once). */
static size_t group_pids(int pgid, int *pids, size_t max)
{
    DIR *d = opendir("/proc");
    size_t n = 0;
    struct dirent *e;
    while (d != NULL && n < max && (e = readdir(d)) != NULL) {
        if (!isdigit((unsigned char)e->d_name[0]))
            continue;
        char path[300], buf[512];
        snprintf(path, sizeof path, "/proc/%s/stat", e->d_name);
        FILE *f = fopen(path, "re");
        if (f == NULL)
            continue;
        size_t k = fread(buf, 1, sizeof buf - 1, f);
        fclose(f);
        buf[k] = '\0';
        char *close = strrchr(buf, ')');
        int ppid = 0, pg = 0;
        char state;
        if (close != NULL && sscanf(close + 1, " %c %d %d", &state, &ppid, &pg) == 3 && pg == pgid && state != 'Z')
            pids[n++] = atoi(e->d_name);
    }
    if (d != NULL)
        closedir(d);
    return n;
}

/* py-spy on the PATH, or 0. */
static int have_pyspy(void)
{
    const char *path = getenv("PATH");
    if (path == NULL)
        return 0;
    char dir[4096];
    while (*path) {
        size_t len = strcspn(path, ":");
        snprintf(dir, sizeof dir, "%.*s/py-spy", (int)len, path);
        if (len > 0 && access(dir, X_OK) == 0)
            return 1;
        path += len + (path[len] == ':');
    }
    return 0;
}

static long ms_since(double t0)
{
    return (long)((sysio_now_s() - t0) * 1000);
}

/* Runs `py-spy dump --pid PID` for WAIT_MS at most and appends its lines
 * to O. */
static void dump_one(int pid, long wait_ms, struct outbuf *o)
{
    int p[2];
    if (pipe2(p, O_CLOEXEC) != 0)
        return;
    pid_t child = fork();
    if (child == 0) {
        char arg[32];
        snprintf(arg, sizeof arg, "%d", pid);
        dup2(p[1], 1);
        dup2(p[1], 2);
        execlp("py-spy", "py-spy", "dump", "--pid", arg, (char *)NULL);
        _exit(127);
    }
    close(p[1]);
    if (child < 0) {
        close(p[0]);
        return;
    }
    char *text = malloc(PYSPY_OUT_MAX + 1);
    size_t len = 0;
    int timed_out = 0;
    double t0 = sysio_now_s();
    for (;;) {
        long left = wait_ms - ms_since(t0);
        struct pollfd pfd = {p[0], POLLIN, 0};
        int ready = left > 0 ? poll(&pfd, 1, (int)left) : 0;
        if (ready < 0 && errno == EINTR) /* py-spy's own SIGCHLD, say */
            continue;
        if (ready <= 0) {
            timed_out = 1;
            break;
        }
        char chunk[4096];
        ssize_t k = read(p[0], chunk, sizeof chunk);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            break;
        for (ssize_t i = 0; text != NULL && i < k && len < PYSPY_OUT_MAX; i++)
            text[len++] = chunk[i];
    }
    close(p[0]);
    if (timed_out)
        kill(child, SIGKILL);
    int status = 0;
    while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
    }
    /* A process that runs no Python: py-spy refuses it (a failure status). */
    if (text == NULL || timed_out || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        free(text);
        return;
    }
    text[len] = '\0';
    for (char *line = strtok(text, "\n"); line != NULL; line = strtok(NULL, "\n")) {
        line[strcspn(line, "\r")] = '\0';
        if (line[strspn(line, " \t")] != '\0')
            outbuf_put(o, "oomdiag-run: stall py-spy pid=%d: %s\n", pid, line);
    }
    free(text);
}

size_t stall_pyspy(int pgid, char *buf, size_t size)
{
    size_t at = strlen(buf);
    struct outbuf o = {buf + at, size > at ? size - at : 0, 0};
    int pids[PYSPY_PROCS_MAX];
    if (!have_pyspy())
        return 0;
    size_t n = group_pids(pgid, pids, PYSPY_PROCS_MAX);
    double t0 = sysio_now_s();
    /* The relay waits meanwhile: all the dumps get PYSPY_ALL_MS at most. */
    for (size_t i = 0; i < n && ms_since(t0) < PYSPY_ALL_MS; i++) {
        long left = PYSPY_ALL_MS - ms_since(t0);
        dump_one(pids[i], left < PYSPY_WAIT_MS ? left : PYSPY_WAIT_MS, &o);
    }
    return o.len;
}
