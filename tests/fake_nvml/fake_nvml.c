/* A stand-in for libnvidia-ml.so.1 in tests: the few entry points oomdiag
 * resolves, answering from the environment, so that GPU sampling is tested
 * on machines without a GPU (LD_LIBRARY_PATH names this library's folder).
 *   FAKE_NVML_FAIL_INIT=1     nvmlInit fails (NVML_ERROR_DRIVER_NOT_LOADED)
 *   FAKE_NVML_TOTAL=B         each GPU's memory (default 80 GiB)
 *   FAKE_NVML_UNACCOUNTED=B   memory in use that no process accounts for
 *   FAKE_NVML_UTIL=P          utilisation in percent (default 0)
 *   FAKE_NVML_OTHERS=PID:B,.. other processes and their memory
 *   FAKE_NVML_JOB_BYTES=B     memory of each child of the calling process
 *   FAKE_NVML_XID=N           one Xid event N on GPU 0, at the first wait
 * Types follow NVIDIA's documented ABI (nvml.h), declared here. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

typedef int ret_t;
typedef struct fake_dev *dev_t_;
struct memory {
    unsigned long long total, free, used;
};
struct util {
    unsigned int gpu, memory;
};
struct process {
    unsigned int pid;
    unsigned long long used;
    unsigned int gi, ci;
};
struct pci {
    char legacy[16];
    unsigned int domain, bus, device, id, subsys;
    char bus_id[32];
};
struct event {
    dev_t_ device;
    unsigned long long type, data;
    unsigned int gi, ci;
};

static struct fake_dev {
    int index;
} devs[1];
static int xid_sent;

static unsigned long long env_ull(const char *name, unsigned long long dflt)
{
    const char *v = getenv(name);
    return v && *v ? strtoull(v, NULL, 10) : dflt;
}

ret_t nvmlInit_v2(void)
{
    return env_ull("FAKE_NVML_FAIL_INIT", 0) ? 9 : 0;
}

ret_t nvmlShutdown(void)
{
    return 0;
}

ret_t nvmlSystemGetDriverVersion(char *v, unsigned int n)
{
    snprintf(v, n, "999.99-fake");
    return 0;
}

ret_t nvmlDeviceGetCount_v2(unsigned int *c)
{
    *c = 1;
    return 0;
}

ret_t nvmlDeviceGetHandleByIndex_v2(unsigned int i, dev_t_ *d)
{
    if (i != 0)
        return 2;
    *d = &devs[0];
    return 0;
}

ret_t nvmlDeviceGetName(dev_t_ d, char *s, unsigned int n)
{
    (void)d;
    snprintf(s, n, "Fake GPU 80GB");
    return 0;
}

ret_t nvmlDeviceGetUUID(dev_t_ d, char *s, unsigned int n)
{
    (void)d;
    snprintf(s, n, "GPU-00000000-fake-0000-0000-000000000000");
    return 0;
}

ret_t nvmlDeviceGetSerial(dev_t_ d, char *s, unsigned int n)
{
    (void)d;
    snprintf(s, n, "1650000000001");
    return 0;
}

ret_t nvmlDeviceGetPciInfo_v3(dev_t_ d, struct pci *p)
{
    (void)d;
    memset(p, 0, sizeof *p);
    snprintf(p->bus_id, sizeof p->bus_id, "00000000:3B:00.0");
    return 0;
}

/* The children of the calling process (oomdiag run's job). */
static size_t children(unsigned int *pids, size_t max)
{
    DIR *d = opendir("/proc");
    struct dirent *e;
    size_t n = 0;
    while (d && n < max && (e = readdir(d)) != NULL) {
        char path[300], buf[512];
        snprintf(path, sizeof path, "/proc/%s/stat", e->d_name);
        FILE *f = fopen(path, "r");
        if (f == NULL)
            continue;
        size_t k = fread(buf, 1, sizeof buf - 1, f);
        fclose(f);
        buf[k] = '\0';
        char *c = strrchr(buf, ')'), state;
        int ppid;
        if (c && sscanf(c + 1, " %c %d", &state, &ppid) == 2 && ppid == getpid() && state != 'Z')
            pids[n++] = (unsigned int)atoi(e->d_name);
    }
    if (d)
        closedir(d);
    return n;
}

static size_t listing(struct process *p, size_t max)
{
    size_t n = 0;
    const char *o = getenv("FAKE_NVML_OTHERS");
    while (o && *o && n < max) {
        unsigned int pid;
        unsigned long long b;
        if (sscanf(o, "%u:%llu", &pid, &b) != 2)
            break;
        p[n++] = (struct process){pid, b, 0, 0};
        o = strchr(o, ',');
        o = o ? o + 1 : NULL;
    }
    unsigned long long job = env_ull("FAKE_NVML_JOB_BYTES", 0);
    unsigned int kids[16];
    size_t k = job ? children(kids, 16) : 0;
    for (size_t i = 0; i < k && n < max; i++)
        p[n++] = (struct process){kids[i], job, 0, 0};
    return n;
}

ret_t nvmlDeviceGetMemoryInfo(dev_t_ d, struct memory *m)
{
    (void)d;
    struct process p[64];
    size_t n = listing(p, 64);
    m->total = env_ull("FAKE_NVML_TOTAL", 80ULL << 30);
    m->used = env_ull("FAKE_NVML_UNACCOUNTED", 0);
    for (size_t i = 0; i < n; i++)
        m->used += p[i].used;
    m->free = m->used < m->total ? m->total - m->used : 0;
    return 0;
}

ret_t nvmlDeviceGetUtilizationRates(dev_t_ d, struct util *u)
{
    (void)d;
    u->gpu = (unsigned int)env_ull("FAKE_NVML_UTIL", 0);
    u->memory = 0;
    return 0;
}

ret_t nvmlDeviceGetComputeRunningProcesses_v3(dev_t_ d, unsigned int *count, struct process *p)
{
    (void)d;
    struct process all[64];
    size_t n = listing(all, 64);
    if (n > *count) {
        *count = (unsigned int)n;
        return 7; /* NVML_ERROR_INSUFFICIENT_SIZE */
    }
    memcpy(p, all, n * sizeof *p);
    *count = (unsigned int)n;
    return 0;
}

ret_t nvmlSystemGetProcessName(unsigned int pid, char *name, unsigned int n)
{
    snprintf(name, n, "fake-holder-%u", pid);
    return 0;
}

ret_t nvmlEventSetCreate(void **set)
{
    static int token;
    *set = &token;
    return 0;
}

ret_t nvmlDeviceGetSupportedEventTypes(dev_t_ d, unsigned long long *types)
{
    (void)d;
    *types = 0x8ULL;
    return 0;
}

ret_t nvmlDeviceRegisterEvents(dev_t_ d, unsigned long long types, void *set)
{
    (void)d, (void)types, (void)set;
    return 0;
}

ret_t nvmlEventSetWait_v2(void *set, struct event *e, unsigned int ms)
{
    (void)set;
    unsigned long long xid = env_ull("FAKE_NVML_XID", 0);
    if (xid && !xid_sent) {
        xid_sent = 1;
        *e = (struct event){&devs[0], 0x8ULL, xid, 0, 0};
        return 0;
    }
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
    return 10; /* NVML_ERROR_TIMEOUT */
}
