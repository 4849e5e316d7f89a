#include "run.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#include "mkparent.h"
#include "relay.h"
#include "sysio.h"

/* After the job exits, what its pipes held at that moment is read whatever
 * it takes (a slow reader of oomdiag's stdout loses nothing); then they are
 * read until they close, or until they have been quiet for DRAIN_IDLE_MS,
 * and for DRAIN_MAX_MS more at most: a process the job left behind (a
 * DataLoader worker, a server) may hold them open and even go on writing. */
enum { RELAY_CHUNK = 128 * 1024, DRAIN_IDLE_MS = 1000, DRAIN_MAX_MS = 3000 };

static const int forwarded_signals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGWINCH};

static const struct {
    int sig;
    const char *name;
} signal_names[] = {
    {SIGHUP, "SIGHUP"},   {SIGINT, "SIGINT"},   {SIGQUIT, "SIGQUIT"}, {SIGILL, "SIGILL"},   {SIGTRAP, "SIGTRAP"},
    {SIGABRT, "SIGABRT"}, {SIGBUS, "SIGBUS"},   {SIGFPE, "SIGFPE"},   {SIGKILL, "SIGKILL"}, {SIGUSR1, "SIGUSR1"},
    {SIGSEGV, "SIGSEGV"}, {SIGUSR2, "SIGUSR2"}, {SIGPIPE, "SIGPIPE"}, {SIGALRM, "SIGALRM"}, {SIGTERM, "SIGTERM"},
    {SIGXCPU, "SIGXCPU"}, {SIGXFSZ, "SIGXFSZ"}, {SIGSYS, "SIGSYS"},
};

const char *run_signal_name(int sig)
{
    for (size_t i = 0; i < sizeof signal_names / sizeof signal_names[0]; i++)
        if (signal_names[i].sig == sig)
            return signal_names[i].name;
    return NULL;
}

static int self_pipe[2] = {-1, -1};

static void on_signal(int sig)
{
    int saved = errno;
    unsigned char c = (unsigned char)sig;
    if (write(self_pipe[1], &c, 1) < 0) {
        /* full: the loop is already awake */
    }
    errno = saved;
}


struct relay_log {
    int fd;
    gzFile gz;
    int failed;
};

static int log_open(struct relay_log *lg, const char *path, char *err, size_t errsize)
{
    lg->fd = -1;
    lg->gz = NULL;
    lg->failed = 0;
    if (path == NULL)
        return 0;
    int made = mkparent(path);
    lg->fd = made == 0 ? open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666) : -1;
    if (lg->fd < 0) {
        snprintf(err, errsize, "cannot keep the log: %s; the job runs without it", strerror(made ? made : errno));
        return -1;
    }
    size_t len = strlen(path);
    if (len > 3 && strcmp(path + len - 3, ".gz") == 0) {
        lg->gz = gzdopen(lg->fd, "wb6");
        if (lg->gz == NULL) {
            snprintf(err, errsize, "cannot start gzip compression; the job runs without a log");
            close(lg->fd);
            lg->fd = -1;
            return -1;
        }
    }
    return 0;
}

static void log_write(struct relay_log *lg, const char *p, size_t n, struct run_result *res)
{
    if (lg->fd < 0 || lg->failed)
        return;
    int bad = lg->gz ? gzwrite(lg->gz, p, (unsigned)n) != (int)n : sysio_write_all(lg->fd, p, n) != 0;
    if (bad) {
        lg->failed = 1;
        snprintf(res->log_error, sizeof res->log_error, "writing the log failed: %s", strerror(errno));
    }
}

static void log_close(struct relay_log *lg, struct run_result *res)
{
    if (lg->fd < 0)
        return;
    int bad = lg->gz ? gzclose(lg->gz) != Z_OK : close(lg->fd) != 0;
    if (bad && !lg->failed)
        snprintf(res->log_error, sizeof res->log_error, "writing the log failed: %s", strerror(errno));
}

/* A pty for stream FD (1 or 2) when oomdiag's own FD is a terminal: the
 * master in *MASTER, the slave's name in NAME.  0, or -1 (then a pipe). */
static int open_pty(int fd, int *master, char *name, size_t namesize)
{
    if (!isatty(fd))
        return -1;
    int m = posix_openpt(O_RDWR | O_NOCTTY);
    if (m < 0)
        return -1;
    if (grantpt(m) != 0 || unlockpt(m) != 0 || ptsname_r(m, name, namesize) != 0) {
        close(m);
        return -1;
    }
    fcntl(m, F_SETFD, FD_CLOEXEC);
    struct winsize ws;
    if (ioctl(fd, TIOCGWINSZ, &ws) == 0)
        ioctl(m, TIOCSWINSZ, &ws);
    *master = m;
    return 0;
}

/* The job's end of a pty: the terminal's settings, output unchanged (no
 * "\n" -> "\r\n": oomdiag's own terminal does that). */
static void child_setup_pty(const char *name, int target, int like)
{
    int s = open(name, O_RDWR | O_NOCTTY);
    if (s < 0)
        _exit(126);
    struct termios t;
    if (tcgetattr(like, &t) == 0 || tcgetattr(s, &t) == 0) {
        t.c_oflag &= ~(tcflag_t)OPOST;
        tcsetattr(s, TCSANOW, &t);
    }
    dup2(s, target);
    if (s != target)
        close(s);
}

struct log_copy {
    struct relay_log *lg;
    struct run_result *res;
    const struct run_hooks *hooks;
};

static void log_copy(void *ctx, const char *p, size_t n)
{
    struct log_copy *lc = ctx;
    log_write(lc->lg, p, n, lc->res);
    if (lc->hooks != NULL && lc->hooks->output != NULL)
        lc->hooks->output(lc->hooks->ctx, p, n);
}

struct stream {
    int fd; /* our end: a pipe's read end or a pty master; -1 when done */
    int pty;
    char slave[128];
    int child_fd; /* the pipe's write end, for the child */
};

static void update_sizes(struct stream *st)
{
    for (int i = 0; i < 2; i++) {
        struct winsize ws;
        if (st[i].pty && st[i].fd >= 0 && ioctl(i + 1, TIOCGWINSZ, &ws) == 0)
            ioctl(st[i].fd, TIOCSWINSZ, &ws);
    }
}

enum { NSIG_FWD = sizeof forwarded_signals / sizeof forwarded_signals[0] };

/* The dispositions run_process changes, to be put back (in the parent
 * when the job is over, in the child before exec). */
struct saved_signals {
    struct sigaction fwd[NSIG_FWD], chld, pipe, ttou;
};

/* Forwarded signals and SIGCHLD wake the loop through the self-pipe;
 * SIGPIPE and SIGTTOU are ignored (a closed reader is seen as EPIPE; the
 * terminal can be handed back from the background). */
static void catch_signals(struct saved_signals *old)
{
    struct sigaction sa, ign;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < NSIG_FWD; i++)
        sigaction(forwarded_signals[i], &sa, &old->fwd[i]);
    sa.sa_flags = 0; /* a stopped job is reported too (Ctrl-Z) */
    sigaction(SIGCHLD, &sa, &old->chld);
    memset(&ign, 0, sizeof ign);
    ign.sa_handler = SIG_IGN;
    sigemptyset(&ign.sa_mask);
    sigaction(SIGPIPE, &ign, &old->pipe);
    sigaction(SIGTTOU, &ign, &old->ttou);
}

static void restore_signals(const struct saved_signals *old)
{
    for (size_t i = 0; i < NSIG_FWD; i++)
        sigaction(forwarded_signals[i], &old->fwd[i], NULL);
    sigaction(SIGCHLD, &old->chld, NULL);
    sigaction(SIGPIPE, &old->pipe, NULL);
    sigaction(SIGTTOU, &old->ttou, NULL);
}

/* Our ends of the job's stdout and stderr: a pty where oomdiag's own is a
 * terminal, else a pipe.  0, or -1 (ERR says why, nothing left open). */
static int open_streams(struct stream *st, struct run_result *res, char *err, size_t errsize)
{
    for (int i = 0; i < 2; i++) {
        st[i].child_fd = -1;
        st[i].pty = open_pty(i + 1, &st[i].fd, st[i].slave, sizeof st[i].slave) == 0;
        if (!st[i].pty) {
            int p[2];
            if (pipe2(p, O_CLOEXEC) != 0) {
                snprintf(err, errsize, "cannot make a pipe: %s", strerror(errno));
                for (int k = 0; k < i; k++) {
                    close(st[k].fd);
                    if (st[k].child_fd >= 0)
                        close(st[k].child_fd);
                }
                return -1;
            }
            st[i].fd = p[0];
            st[i].child_fd = p[1];
            fcntl(p[1], F_SETPIPE_SZ, 1024 * 1024); /* fewer wake-ups; the default where not allowed */
        }
        res->pty[i] = st[i].pty;
    }
    return 0;
}

/* The job stopped (Ctrl-Z reached its foreground group): stop oomdiag too,
 * so that the shell gets the terminal back, as without oomdiag; when the
 * shell continues oomdiag (fg), hand the terminal back and continue the job. */
static void job_stopped(pid_t pid)
{
    tcsetpgrp(STDIN_FILENO, getpgrp());
    kill(getpid(), SIGSTOP);
    if (tcgetpgrp(STDIN_FILENO) == getpgrp()) /* fg, not bg */
        tcsetpgrp(STDIN_FILENO, pid);
    kill(-pid, SIGCONT);
}

/* The child: its own process group, its output to the streams, then the
 * command; an exec failure's errno goes back through ERRFD. */
static void exec_child(const struct run_spec *spec, const struct stream *st, const struct saved_signals *old,
                       int errfd)
{
    restore_signals(old);
    setpgid(0, 0);
    for (int i = 0; i < 2; i++) {
        if (st[i].pty)
            child_setup_pty(st[i].slave, i + 1, i + 1);
        else
            dup2(st[i].child_fd, i + 1);
    }
    execvp(spec->argv[0], spec->argv);
    int e = errno;
    if (write(errfd, &e, sizeof e) < 0)
        _exit(127);
    _exit(e == ENOENT ? 127 : 126);
}

/* The parent's loop over a running job: its streams relayed, the signals
 * sent to oomdiag passed on, the output drained after it exits. */
struct job_loop {
    pid_t pid;
    int gave_tty; /* the job's group has the terminal */
    int status, alive, stops;
    double exit_at, last_data, kill_at, drained_at;
    unsigned long long owed[2]; /* bytes waiting in each pipe when the job exited, not read yet */
    struct stream *st;
    struct relay rl[2];
    struct relay_log *lg;
    struct log_copy lc;
    int copy; /* the output goes to log_copy: a log, or a hook that wants it */
    struct run_result *res;
};

/* poll's timeout: -1, a time to drain or to kill, or -2 to stop (what
 * the job left behind holds its output open). */
static int loop_timeout(struct job_loop *L)
{
    if (!L->alive) {
        double t = sysio_now_s(), idle = t - L->last_data, since = t - L->drained_at;
        if (L->owed[0] == 0 && L->owed[1] == 0 && (idle * 1000 >= DRAIN_IDLE_MS || since * 1000 >= DRAIN_MAX_MS))
            return -2;
        int timeout = DRAIN_IDLE_MS - (int)(idle * 1000);
        if (DRAIN_MAX_MS - (int)(since * 1000) < timeout)
            timeout = DRAIN_MAX_MS - (int)(since * 1000);
        return timeout;
    }
    const struct run_hooks *hk = L->lc.hooks;
    if (L->kill_at <= 0) /* a watcher (--stall) may want to look again after a quiet while */
        return hk != NULL && hk->quiet != NULL ? hk->quiet(hk->ctx, L->pid, sysio_now_s() - L->last_data) : -1;
    double left = L->kill_at - sysio_now_s();
    if (left > 0)
        return (int)(left * 1000) + 1;
    kill(-L->pid, SIGKILL);
    L->res->killed = 1;
    L->kill_at = 0;
    return -1;
}

/* SIGCHLD: the job stopped (the terminal is the shell's again) or ended
 * (what its pipes hold now is owed to the reader). */
static void on_child(struct job_loop *L)
{
    int st_now = 0;
    if (!L->alive || waitpid(L->pid, &st_now, WNOHANG | WUNTRACED) != L->pid)
        return;
    if (WIFSTOPPED(st_now)) {
        if (L->gave_tty)
            job_stopped(L->pid);
        return;
    }
    L->status = st_now;
    L->alive = 0;
    L->exit_at = sysio_now_s();
    L->last_data = L->drained_at = L->exit_at;
    for (int m = 0; m < 2; m++) {
        int q = 0;
        if (L->st[m].fd >= 0 && ioctl(L->st[m].fd, FIONREAD, &q) == 0 && q > 0)
            L->owed[m] = (unsigned long long)q;
    }
}

/* The signals that came through the self-pipe. */
static void on_signals(struct job_loop *L)
{
    unsigned char sigs[64];
    ssize_t k = read(self_pipe[0], sigs, sizeof sigs);
    for (ssize_t j = 0; j < k; j++) {
        int sig = sigs[j];
        if (sig == SIGCHLD) {
            on_child(L);
            continue;
        }
        if (!L->alive)
            continue;
        if (sig == SIGWINCH)
            update_sizes(L->st);
        if (kill(-L->pid, sig) == 0 && sig != SIGWINCH)
            L->res->forwarded++;
        /* A job that outlives a second request to stop is killed
         * RUN_KILL_GRACE_S later; at a third, at once. */
        if (sig == SIGINT || sig == SIGTERM || sig == SIGHUP || sig == SIGQUIT) {
            L->stops++;
            if (L->stops == 2)
                L->kill_at = sysio_now_s() + RUN_KILL_GRACE_S;
            else if (L->stops > 2)
                L->kill_at = sysio_now_s();
        }
    }
}

/* Stream I is readable: one chunk passed on, logged and scanned. */
static void on_output(struct job_loop *L, int i)
{
    struct run_result *res = L->res;
    ssize_t k = relay_once(&L->rl[i], L->copy ? log_copy : NULL, &L->lc);
    if (k < 0 && (errno == EINTR || errno == EAGAIN))
        return;
    if (L->rl[i].to_failed && L->rl[i].to_errno != EPIPE && !res->out_error[0]) {
        /* A full disk, a broken device: what cannot be passed on is still
         * read, logged and scanned, and the job goes on as it would (it
         * never sees oomdiag's trouble). */
        snprintf(res->out_error, sizeof res->out_error,
                 "writing the job's %s to oomdiag's failed: %s; the rest is still logged and scanned",
                 i == 0 ? "stdout" : "stderr", strerror(L->rl[i].to_errno));
    }
    if (k <= 0 || (L->rl[i].to_failed && L->rl[i].to_errno == EPIPE)) {
        /* The end, or EIO: the pty's other side is closed.  Or the reader
         * went away (a closed pipe): the job learns it the way it would
         * without oomdiag, on its next write. */
        close(L->st[i].fd);
        L->st[i].fd = -1;
        if (L->owed[i] > 0 && L->owed[1 - i] == 0)
            L->drained_at = sysio_now_s();
        L->owed[i] = 0;
    }
    if (k <= 0)
        return;
    L->last_data = sysio_now_s();
    if (L->owed[i] > 0) {
        L->owed[i] = L->owed[i] > (unsigned long long)k ? L->owed[i] - (unsigned long long)k : 0;
        if (L->owed[0] == 0 && L->owed[1] == 0)
            L->drained_at = L->last_data;
    }
    res->bytes[i] += (unsigned long long)k;
}

/* Relays until the job has ended and its output is drained, then waits
 * for it if it is still there. */
static void relay_loop(struct job_loop *L)
{
    struct stream *st = L->st;
    while (L->alive || st[0].fd >= 0 || st[1].fd >= 0) {
        struct pollfd pfd[3] = {{self_pipe[0], POLLIN, 0}, {st[0].fd, POLLIN, 0}, {st[1].fd, POLLIN, 0}};
        int timeout = loop_timeout(L);
        if (timeout == -2)
            break;
        int n = poll(pfd, 3, timeout);
        if (n < 0 && errno != EINTR)
            break;
        if (n <= 0)
            continue;
        if (pfd[0].revents & POLLIN)
            on_signals(L);
        for (int i = 0; i < 2; i++)
            if (st[i].fd >= 0 && (pfd[i + 1].revents & (POLLIN | POLLHUP | POLLERR)))
                on_output(L, i);
    }
    if (L->alive) {
        while (waitpid(L->pid, &L->status, 0) < 0 && errno == EINTR) {
        }
        L->exit_at = sysio_now_s();
    }
}

/* RES from how the job ended: an exec failure (CHILD_ERRNO, when GOT a
 * whole one), a signal, or an exit status.  0, or -1 (ERR says why). */
static int settle_result(const struct run_spec *spec, const struct job_loop *L, ssize_t got, int child_errno,
                         double start, struct run_result *res, char *err, size_t errsize)
{
    res->elapsed_s = L->exit_at - start;
    struct rusage ru;
    if (getrusage(RUSAGE_CHILDREN, &ru) == 0)
        res->maxrss_bytes = (long long)ru.ru_maxrss * 1024;
    if (got == (ssize_t)sizeof child_errno) {
        res->exec_errno = child_errno;
        res->exited = 1;
        res->status = child_errno == ENOENT ? 127 : 126;
        snprintf(err, errsize, "cannot run %s: %s", spec->argv[0], strerror(child_errno));
    } else if (WIFSIGNALED(L->status)) {
        res->signal = WTERMSIG(L->status);
        res->core = WCOREDUMP(L->status) != 0;
        res->status = 128 + res->signal;
    } else {
        res->exited = 1;
        res->status = WEXITSTATUS(L->status);
    }
    return res->exec_errno ? -1 : 0;
}

/* The job started as PID: it gets the terminal, its exec is awaited
 * (ERRFD says whether it failed), its output relayed to its end. */
static int follow_job(const struct run_spec *spec, pid_t pid, int errfd, struct stream *st, struct relay_log *lg,
                      char *buf, double start, struct run_result *res, char *err, size_t errsize)
{
    setpgid(pid, pid);
    const struct run_hooks *hk = spec->hooks;
    if (hk != NULL && hk->started != NULL)
        hk->started(hk->ctx, pid);
    /* The job reads the terminal as it would without oomdiag: its group
     * becomes the foreground one (Ctrl-C then reaches it directly). */
    struct job_loop L = {.pid = pid, .alive = 1, .st = st, .lg = lg, .lc = {lg, res, hk}, .res = res};
    L.copy = lg->fd >= 0 || (hk != NULL && hk->output != NULL);
    if (isatty(STDIN_FILENO) && tcgetpgrp(STDIN_FILENO) == getpgrp())
        L.gave_tty = tcsetpgrp(STDIN_FILENO, pid) == 0;
    int child_errno = 0;
    ssize_t got;
    while ((got = read(errfd, &child_errno, sizeof child_errno)) < 0 && errno == EINTR) {
    }
    for (int i = 0; i < 2; i++)
        L.rl[i] =
            (struct relay){st[i].fd, i + 1, spec->scan ? livescan_fd(spec->scan, i) : -1, 1, 0, buf, RELAY_CHUNK, 0};
    L.last_data = sysio_now_s();
    relay_loop(&L);
    if (L.gave_tty)
        tcsetpgrp(STDIN_FILENO, getpgrp());
    return settle_result(spec, &L, got, child_errno, start, res, err, errsize);
}

int run_process(const struct run_spec *spec, struct run_result *res, char *err, size_t errsize)
{
    struct stream st[2];
    struct relay_log lg;
    struct saved_signals old;
    int errpipe[2] = {-1, -1};
    char *buf = NULL;
    int rc = -1;

    memset(res, 0, sizeof *res);
    res->maxrss_bytes = -1;
    err[0] = '\0';
    /* A wrapper is never the reason a job did not run: without its log
     * the job still runs, and the reason is reported after it. */
    if (log_open(&lg, spec->log_path, res->log_error, sizeof res->log_error) != 0)
        lg.failed = 1;
    buf = malloc(RELAY_CHUNK);
    if (buf == NULL || pipe2(self_pipe, O_CLOEXEC | O_NONBLOCK) != 0 || pipe2(errpipe, O_CLOEXEC) != 0) {
        snprintf(err, errsize, "cannot start: %s", strerror(errno));
        goto done;
    }
    if (open_streams(st, res, err, errsize) != 0)
        goto done;
    catch_signals(&old);

    double start = sysio_now_s();
    pid_t pid = fork();
    if (pid == 0)
        exec_child(spec, st, &old, errpipe[1]);
    int saved_errno = errno;
    close(errpipe[1]);
    errpipe[1] = -1;
    for (int i = 0; i < 2; i++)
        if (st[i].child_fd >= 0)
            close(st[i].child_fd);
    if (pid < 0)
        snprintf(err, errsize, "cannot start %s: %s", spec->argv[0], strerror(saved_errno));
    else
        rc = follow_job(spec, pid, errpipe[0], st, &lg, buf, start, res, err, errsize);
    /* the streams are open and the signals caught */
    for (int i = 0; i < 2; i++)
        if (st[i].fd >= 0)
            close(st[i].fd);
    restore_signals(&old);
done:
    for (int i = 0; i < 2; i++)
        if (errpipe[i] >= 0)
            close(errpipe[i]);
    for (int i = 0; i < 2; i++)
        if (self_pipe[i] >= 0)
            close(self_pipe[i]);
    self_pipe[0] = self_pipe[1] = -1;
    log_close(&lg, res);
    free(buf);
    return rc;
}
