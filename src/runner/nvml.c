#include "nvml.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* NVIDIA's ABI, as nvml.h documents it (only what is used here). */
typedef int nvml_ret;
typedef struct nvml_device *nvml_dev;
typedef struct nvml_event_set *nvml_evset;
enum { NVML_OK = 0, NVML_TIMEOUT = 10 };
#define NVML_EVENT_XID 0x0000000000000008ULL /* nvmlEventTypeXidCriticalError */

struct nvml_memory_v1 { /* nvmlMemory_t */
    unsigned long long total, free, used;
};
struct nvml_memory_v2 { /* nvmlMemory_v2_t; used includes reserved */
    unsigned int version;
    unsigned long long total, reserved, free, used;
};
struct nvml_util { /* nvmlUtilization_t */
    unsigned int gpu, memory;
};
struct nvml_process { /* nvmlProcessInfo_t (v2 and v3 share this layout) */
    unsigned int pid;
    unsigned long long used_gpu_memory;
    unsigned int gpu_instance_id, compute_instance_id;
};
struct nvml_pci { /* nvmlPciInfo_t (v3) */
    char bus_id_legacy[16];
    unsigned int domain, bus, device, pci_device_id, pci_subsystem_id;
    char bus_id[32];
};
struct nvml_event { /* nvmlEventData_t */
    nvml_dev device;
    unsigned long long type, data;
    unsigned int gpu_instance_id, compute_instance_id;
};

struct nvml {
    void *lib;
    nvml_ret (*shutdown)(void);
    nvml_ret (*mem_v1)(nvml_dev, struct nvml_memory_v1 *);
    nvml_ret (*mem_v2)(nvml_dev, struct nvml_memory_v2 *);
    nvml_ret (*util)(nvml_dev, struct nvml_util *);
    nvml_ret (*procs)(nvml_dev, unsigned int *, struct nvml_process *);
    nvml_ret (*proc_name)(unsigned int, char *, unsigned int);
    nvml_ret (*ev_wait)(nvml_evset, struct nvml_event *, unsigned int);
    nvml_evset events; /* NULL: no Xid events */
    size_t count;
    nvml_dev dev[NVML_GPUS_MAX];
    struct nvml_gpu_id id[NVML_GPUS_MAX];
    char driver[80];
};

static void *sym(void *lib, const char *a, const char *b)
{
    void *p = dlsym(lib, a);
    return p != NULL || b == NULL ? p : dlsym(lib, b);
}

static void say(char *why, size_t size, const char *text, const char *detail)
{
    if (why != NULL && size > 0)
        snprintf(why, size, "%s%s%s", text, detail ? ": " : "", detail ? detail : "");
}

/* The calls sampling needs beyond the first three; any may be NULL. */
static void find_sampling(struct nvml *n, void *lib)
{
    n->shutdown = (nvml_ret(*)(void))sym(lib, "nvmlShutdown", NULL);
    n->mem_v1 = (nvml_ret(*)(nvml_dev, struct nvml_memory_v1 *))sym(lib, "nvmlDeviceGetMemoryInfo", NULL);
    n->mem_v2 = (nvml_ret(*)(nvml_dev, struct nvml_memory_v2 *))sym(lib, "nvmlDeviceGetMemoryInfo_v2", NULL);
    n->util = (nvml_ret(*)(nvml_dev, struct nvml_util *))sym(lib, "nvmlDeviceGetUtilizationRates", NULL);
    n->procs = (nvml_ret(*)(nvml_dev, unsigned int *, struct nvml_process *))sym(
        lib, "nvmlDeviceGetComputeRunningProcesses_v3", "nvmlDeviceGetComputeRunningProcesses_v2");
    n->proc_name = (nvml_ret(*)(unsigned int, char *, unsigned int))sym(lib, "nvmlSystemGetProcessName", NULL);
    n->ev_wait =
        (nvml_ret(*)(nvml_evset, struct nvml_event *, unsigned int))sym(lib, "nvmlEventSetWait_v2", "nvmlEventSetWait");
}

/* Names each of the C GPUs (name, UUID, serial, PCI bus id), keeps its
 * handle and registers it for Xid events where NVML allows.  Returns
 * whether any GPU was registered for events. */
static int identify_gpus(struct nvml *n, void *lib, unsigned int c, nvml_ret (*handle)(unsigned int, nvml_dev *))
{
    nvml_ret (*s_driver)(char *, unsigned int) =
        (nvml_ret(*)(char *, unsigned int))sym(lib, "nvmlSystemGetDriverVersion", NULL);
    nvml_ret (*d_name)(nvml_dev, char *, unsigned int) =
        (nvml_ret(*)(nvml_dev, char *, unsigned int))sym(lib, "nvmlDeviceGetName", NULL);
    nvml_ret (*d_uuid)(nvml_dev, char *, unsigned int) =
        (nvml_ret(*)(nvml_dev, char *, unsigned int))sym(lib, "nvmlDeviceGetUUID", NULL);
    nvml_ret (*d_serial)(nvml_dev, char *, unsigned int) =
        (nvml_ret(*)(nvml_dev, char *, unsigned int))sym(lib, "nvmlDeviceGetSerial", NULL);
    nvml_ret (*d_pci)(nvml_dev, struct nvml_pci *) =
        (nvml_ret(*)(nvml_dev, struct nvml_pci *))sym(lib, "nvmlDeviceGetPciInfo_v3", NULL);
    nvml_ret (*ev_create)(nvml_evset *) = (nvml_ret(*)(nvml_evset *))sym(lib, "nvmlEventSetCreate", NULL);
    nvml_ret (*ev_supported)(nvml_dev, unsigned long long *) =
        (nvml_ret(*)(nvml_dev, unsigned long long *))sym(lib, "nvmlDeviceGetSupportedEventTypes", NULL);
    nvml_ret (*ev_register)(nvml_dev, unsigned long long, nvml_evset) =
        (nvml_ret(*)(nvml_dev, unsigned long long, nvml_evset))sym(lib, "nvmlDeviceRegisterEvents", NULL);
    if (s_driver == NULL || s_driver(n->driver, sizeof n->driver) != NVML_OK)
        n->driver[0] = '\0';
    if (ev_create != NULL && ev_register != NULL && n->ev_wait != NULL && ev_create(&n->events) != NVML_OK)
        n->events = NULL;
    int registered = 0;
    for (unsigned int i = 0; i < c && n->count < NVML_GPUS_MAX; i++) {
        nvml_dev d;
        if (handle(i, &d) != NVML_OK)
            continue;
        struct nvml_gpu_id *id = &n->id[n->count];
        struct nvml_pci pci;
        if (d_name == NULL || d_name(d, id->name, sizeof id->name) != NVML_OK)
            id->name[0] = '\0';
        if (d_uuid == NULL || d_uuid(d, id->uuid, sizeof id->uuid) != NVML_OK)
            id->uuid[0] = '\0';
        if (d_serial == NULL || d_serial(d, id->serial, sizeof id->serial) != NVML_OK)
            id->serial[0] = '\0';
        memset(&pci, 0, sizeof pci);
        if (d_pci != NULL && d_pci(d, &pci) == NVML_OK)
            snprintf(id->pci_bus_id, sizeof id->pci_bus_id, "%.31s", pci.bus_id);
        unsigned long long types = 0;
        if (n->events != NULL && ev_supported != NULL && ev_supported(d, &types) == NVML_OK &&
            (types & NVML_EVENT_XID) && ev_register(d, NVML_EVENT_XID, n->events) == NVML_OK)
            registered = 1;
        n->dev[n->count++] = d;
    }
    return registered;
}

struct nvml *nvml_open(char *why, size_t whysize)
{
    say(why, whysize, "", NULL);
    void *lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (lib == NULL) {
        say(why, whysize, "NVML not loaded (no GPU memory sampling)", dlerror());
        return NULL;
    }
    nvml_ret (*init)(void) = (nvml_ret(*)(void))sym(lib, "nvmlInit_v2", "nvmlInit");
    nvml_ret (*count)(unsigned int *) =
        (nvml_ret(*)(unsigned int *))sym(lib, "nvmlDeviceGetCount_v2", "nvmlDeviceGetCount");
    nvml_ret (*handle)(unsigned int, nvml_dev *) =
        (nvml_ret(*)(unsigned int, nvml_dev *))sym(lib, "nvmlDeviceGetHandleByIndex_v2", "nvmlDeviceGetHandleByIndex");
    struct nvml *n = calloc(1, sizeof *n);
    if (n == NULL || init == NULL || count == NULL || handle == NULL) {
        say(why, whysize, n ? "NVML lacks nvmlInit, nvmlDeviceGetCount or nvmlDeviceGetHandleByIndex" : "out of memory",
            NULL);
        free(n);
        dlclose(lib);
        return NULL;
    }
    n->lib = lib;
    find_sampling(n, lib);
    unsigned int c = 0;
    nvml_ret r = init();
    if (r != NVML_OK || count(&c) != NVML_OK || c == 0) {
        char code[32];
        snprintf(code, sizeof code, "NVML error %d", r);
        say(why, whysize, r != NVML_OK ? "NVML did not initialise (no GPU memory sampling)" : "NVML found no GPU",
            r != NVML_OK ? code : NULL);
        if (r == NVML_OK && n->shutdown)
            n->shutdown();
        free(n);
        dlclose(lib);
        return NULL;
    }
    if (!identify_gpus(n, lib, c, handle))
        n->events = NULL; /* freed with the library at shutdown */
    if (n->count == 0) {
        say(why, whysize, "NVML gave no GPU handle", NULL);
        nvml_close(n);
        return NULL;
    }
    return n;
}

void nvml_close(struct nvml *n)
{
    if (n == NULL)
        return;
    if (n->shutdown != NULL)
        n->shutdown();
    dlclose(n->lib);
    free(n);
}

size_t nvml_count(const struct nvml *n)
{
    return n->count;
}

const char *nvml_driver(const struct nvml *n)
{
    return n->driver;
}

const struct nvml_gpu_id *nvml_id(const struct nvml *n, size_t gpu)
{
    return &n->id[gpu];
}

void nvml_read(struct nvml *n, size_t gpu, struct nvml_reading *r)
{
    nvml_dev d = n->dev[gpu];
    memset(r, 0, sizeof *r);
    r->util = -1;
    struct nvml_memory_v2 m2 = {(unsigned int)(sizeof m2 | (2u << 24)), 0, 0, 0, 0};
    struct nvml_memory_v1 m1;
    if (n->mem_v2 != NULL && n->mem_v2(d, &m2) == NVML_OK) {
        r->ok = 1;
        r->total = m2.total;
        r->used = m2.used;
        r->reserved = m2.reserved <= m2.used ? m2.reserved : 0;
    } else if (n->mem_v1 != NULL && n->mem_v1(d, &m1) == NVML_OK) {
        r->ok = 1;
        r->total = m1.total;
        r->used = m1.used;
    }
    struct nvml_util u;
    if (n->util != NULL && n->util(d, &u) == NVML_OK)
        r->util = (int)u.gpu;
    struct nvml_process p[NVML_PROCS_MAX];
    unsigned int np = NVML_PROCS_MAX;
    if (n->procs != NULL && n->procs(d, &np, p) == NVML_OK) {
        for (unsigned int i = 0; i < np && i < NVML_PROCS_MAX; i++) {
            r->procs[i].pid = p[i].pid;
            r->procs[i].bytes = p[i].used_gpu_memory;
        }
        r->nprocs = np < NVML_PROCS_MAX ? np : NVML_PROCS_MAX;
    }
}

void nvml_process_name(struct nvml *n, unsigned int pid, char *name, size_t size)
{
    name[0] = '\0';
    if (n->proc_name == NULL || n->proc_name(pid, name, (unsigned int)size) != NVML_OK)
        name[0] = '\0';
    name[size - 1] = '\0';
}

int nvml_wait_xid(struct nvml *n, unsigned int ms, size_t *gpu, unsigned long long *xid)
{
    if (n->events == NULL) {
        struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
        nanosleep(&ts, NULL);
        return 0;
    }
    struct nvml_event e;
    memset(&e, 0, sizeof e);
    nvml_ret r = n->ev_wait(n->events, &e, ms);
    if (r != NVML_OK && r != NVML_TIMEOUT) { /* no waiting happened: sleep instead */
        struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
        nanosleep(&ts, NULL);
    }
    if (r != NVML_OK || !(e.type & NVML_EVENT_XID))
        return 0;
    *gpu = 0;
    for (size_t i = 0; i < n->count; i++)
        if (n->dev[i] == e.device)
            *gpu = i;
    *xid = e.data;
    return 1;
}
