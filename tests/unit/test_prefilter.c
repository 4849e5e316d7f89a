/* The literal prefilter, built from a plain literal array (no rule set):
 * which signatures a line holds a literal of, each once, at any place in
 * the line, in either letter case for caseless literals, long and short
 * literals together; and a brute-force comparison over generated lines. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <cmocka.h>

#include "prefilter.h"

static const struct prefilter_literal lits[] = {
    {0, "out of memory", 1},
    {0, "OOM", 0},
    {1, "CUDA error: ", 0},
    {2, "step ", 0},
    {2, "it/s]", 0},
    {3, "Killed", 0},
    {4, "NCCL WARN", 0},
    {4, "ncclInternalError", 0},
    {5, "ab", 0},
    {7, "Segmentation", 0}, /* signature 6 has no literal */
};
enum { NLITS = sizeof lits / sizeof lits[0], NSIGS = 8 };

static struct prefilter *pf;
static struct prefilter_state st;

static int setup(void **state)
{
    (void)state;
    pf = prefilter_build(lits, NLITS, NSIGS);
    return pf == NULL || prefilter_state_init(&st, pf) != 0;
}

static int teardown(void **state)
{
    (void)state;
    prefilter_state_free(&st);
    prefilter_free(pf);
    return 0;
}

/* The signatures of LINE, sorted, as a bit set. */
static unsigned found(const char *line)
{
    uint32_t out[NSIGS];
    size_t n = prefilter_find(pf, &st, line, strlen(line), out);
    unsigned set = 0;
    for (size_t i = 0; i < n; i++) {
        assert_true(out[i] < NSIGS);
        assert_false(set & (1u << out[i])); /* each once */
        set |= 1u << out[i];
    }
    return set;
}

static void test_finds_each_once(void **state)
{
    (void)state;
    assert_int_equal(found(""), 0);
    assert_int_equal(found("nothing to see here, all fine"), 0);
    assert_int_equal(found("RuntimeError: CUDA error: out of memory"), (1u << 0) | (1u << 1));
    assert_int_equal(found("OOM OOM OOM out of memory OOM"), 1u << 0);
    assert_int_equal(found("step 5/10 | 3.2it/s]"), 1u << 2);
    assert_int_equal(found("Killed"), 1u << 3);              /* the whole line */
    assert_int_equal(found("x ncclInternalError"), 1u << 4); /* at the end */
    assert_int_equal(found("NCCL WARN x"), 1u << 4);         /* at the start */
    assert_int_equal(found("ab"), 1u << 5);                  /* shorter than a window */
    assert_int_equal(found("Segmentatio"), 0);               /* cut short */
    assert_int_equal(found("CUDA error:"), 0);               /* its space missing */
    assert_int_equal(found("Kill ed ste p it/s) Segmentat"), 0);
}

static void test_caseless(void **state)
{
    (void)state;
    assert_int_equal(found("OUT OF MEMORY"), 1u << 0);
    assert_int_equal(found("Out Of Memory"), 1u << 0);
    assert_int_equal(found("oom"), 0); /* that literal is case-sensitive */
    assert_int_equal(found("killed"), 0);
}

/* Every literal of LITS, pasted into generated lines at every offset, is
 * found, and nothing is found that a plain search would not find. */
static void against_brute_force(const struct prefilter_literal *set, size_t nset)
{
    struct prefilter *p = prefilter_build(set, nset, NSIGS);
    struct prefilter_state ps;
    assert_non_null(p);
    assert_int_equal(prefilter_state_init(&ps, p), 0);
    char line[96];
    unsigned seed = 12345;
    for (int round = 0; round < 4000; round++) {
        size_t len = (size_t)(seed % 90);
        for (size_t i = 0; i < len; i++) {
            seed = seed * 1103515245u + 12345u;
            line[i] = "abcdeKlmOo ste/p]i:NC"[(seed >> 16) % 21];
        }
        const char *lit = set[round % nset].text;
        size_t l = strlen(lit), at = len > 0 ? (seed >> 8) % len : 0;
        if (round % 3 != 0 && at + l < sizeof line - 1) { /* one line in three holds none on purpose */
            memcpy(line + at, lit, l);
            if (at + l > len)
                len = at + l;
        }
        unsigned want = 0;
        for (size_t k = 0; k < nset; k++) {
            size_t kl = strlen(set[k].text);
            for (size_t q = 0; q + kl <= len; q++)
                if (set[k].caseless ? strncasecmp(line + q, set[k].text, kl) == 0
                                    : memcmp(line + q, set[k].text, kl) == 0)
                    want |= 1u << set[k].sig;
        }
        uint32_t out[NSIGS];
        size_t n = prefilter_find(p, &ps, line, len, out);
        unsigned got = 0;
        for (size_t i = 0; i < n; i++)
            got |= 1u << out[i];
        assert_int_equal(got, want);
        seed = seed * 1103515245u + 12345u;
    }
    prefilter_state_free(&ps);
    prefilter_free(p);
}

static void test_against_brute_force(void **state)
{
    (void)state;
    against_brute_force(lits, NLITS);
    /* Without the literals under 5 bytes, the table of short literals
     * first filters whole lines (teddy_maybe, where the CPU has AVX2). */
    struct prefilter_literal five[NLITS];
    size_t n = 0;
    for (size_t i = 0; i < NLITS; i++)
        if (strlen(lits[i].text) >= 5)
            five[n++] = lits[i];
    against_brute_force(five, n);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_finds_each_once),
        cmocka_unit_test(test_caseless),
        cmocka_unit_test(test_against_brute_force),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
