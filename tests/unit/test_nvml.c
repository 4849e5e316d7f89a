/* NVML loaded at run time: against tests/fake_nvml (LD_LIBRARY_PATH set by
 * ctest) every call answers; with its init failing, nvml_open says why. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "nvml.h"

static void test_fake_gpu(void **state)
{
    (void)state;
    char why[256];
    setenv("FAKE_NVML_OTHERS", "4242:1073741824", 1);
    setenv("FAKE_NVML_UTIL", "37", 1);
    struct nvml *n = nvml_open(why, sizeof why);
    assert_non_null(n);
    assert_int_equal(nvml_count(n), 1);
    assert_string_equal(nvml_driver(n), "999.99-fake");
    const struct nvml_gpu_id *id = nvml_id(n, 0);
    assert_string_equal(id->serial, "1650000000001");
    assert_string_equal(id->pci_bus_id, "00000000:3B:00.0");
    assert_string_equal(id->name, "Fake GPU 80GB");
    struct nvml_reading r;
    nvml_read(n, 0, &r);
    assert_true(r.ok);
    assert_int_equal(r.total, 80ULL << 30);
    assert_int_equal(r.used, 1ULL << 30);
    assert_int_equal(r.util, 37);
    assert_int_equal(r.nprocs, 1);
    assert_int_equal(r.procs[0].pid, 4242);
    char name[64];
    nvml_process_name(n, 4242, name, sizeof name);
    assert_string_equal(name, "fake-holder-4242");
    size_t gpu = 9;
    unsigned long long xid = 0;
    setenv("FAKE_NVML_XID", "79", 1);
    assert_int_equal(nvml_wait_xid(n, 10, &gpu, &xid), 1);
    assert_int_equal(gpu, 0);
    assert_int_equal(xid, 79);
    assert_int_equal(nvml_wait_xid(n, 10, &gpu, &xid), 0);
    nvml_close(n);
    unsetenv("FAKE_NVML_OTHERS");
    unsetenv("FAKE_NVML_UTIL");
    unsetenv("FAKE_NVML_XID");
}

static void test_init_fails(void **state)
{
    (void)state;
    char why[256];
    setenv("FAKE_NVML_FAIL_INIT", "1", 1);
    assert_null(nvml_open(why, sizeof why));
    assert_non_null(strstr(why, "NVML did not initialise"));
    unsetenv("FAKE_NVML_FAIL_INIT");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fake_gpu),
        cmocka_unit_test(test_init_fails),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
