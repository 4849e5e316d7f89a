/* The literal prefilter, by its behaviour only: over generated rules and
 * lines, prefilter_find must give exactly the signatures one of whose
 * literals occurs in the line (case-insensitively for a caseless
 * signature), each once.  A naive strstr over every literal is the
 * reference, so the search's internals (tables, windows, strides) can
 * change freely. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "helpers.h"
#include "prefilter.h"
#include "ruleset.h"

enum { SIGS = 80, LITS_MAX = 3, LIT_MAX = 24 };

struct gen {
    char lits[SIGS][LITS_MAX][LIT_MAX + 1];
    int nlits[SIGS], caseless[SIGS];
};

static uint32_t rnd(uint32_t *s)
{
    *s = *s * 1103515245u + 12345u;
    return *s >> 8;
}

/* A small alphabet, so that literals overlap and near-miss often. */
static const char alphabet[] = "abcAB-: xyz";

static void gen_rules(struct gen *g, uint32_t seed, char *json, size_t size)
{
    size_t o = (size_t)snprintf(json, size,
                                "{\"oomdiag_rules\": 1, \"causes\": [{\"id\": \"c\", \"title\": \"T\", "
                                "\"explanation\": \"E\", \"remediation\": [{\"id\": \"s\", \"action\": \"A\"}]}], "
                                "\"signatures\": [");
    for (int i = 0; i < SIGS; i++) {
        g->caseless[i] = rnd(&seed) % 3 == 0;
        g->nlits[i] = 1 + (int)(rnd(&seed) % LITS_MAX);
        o += (size_t)snprintf(json + o, size - o,
                              "%s{\"id\": \"s%d\", \"cause\": \"c\", \"caseless\": %s, \"literal\": [", i ? ", " : "",
                              i, g->caseless[i] ? "true" : "false");
        for (int k = 0; k < g->nlits[i]; k++) {
            /* lengths 2 to 24, most of them short or around the long cut */
            int len = 2 + (int)(rnd(&seed) % (i % 2 ? 6 : LIT_MAX - 1));
            for (int c = 0; c < len; c++)
                g->lits[i][k][c] = alphabet[rnd(&seed) % (sizeof alphabet - 1)];
            g->lits[i][k][len] = '\0';
            o += (size_t)snprintf(json + o, size - o, "%s\"%s\"", k ? ", " : "", g->lits[i][k]);
        }
        o += (size_t)snprintf(json + o, size - o, "], \"pattern\": \"x\", \"samples\": {\"match\": [\"x\"]}}");
    }
    snprintf(json + o, size - o, "]}");
    assert_true(o + 3 < size);
}

static int occurs(const struct gen *g, int sig, const char *line)
{
    for (int k = 0; k < g->nlits[sig]; k++)
        if (g->caseless[sig] ? strcasestr(line, g->lits[sig][k]) != NULL : strstr(line, g->lits[sig][k]) != NULL)
            return 1;
    return 0;
}

static void check_lines(uint32_t seed)
{
    static struct gen g;
    static char json[64 * 1024];
    gen_rules(&g, seed, json, sizeof json);
    struct msgs ms = {0};
    struct od_ruleset *rs = od_ruleset_create(collect_msg, &ms);
    assert_non_null(rs);
    if (od_ruleset_add_buffer(rs, "gen.json", json, strlen(json)) != 0 || od_ruleset_finish(rs) != 0)
        dump_msgs(&ms);
    assert_int_equal(ms.count, 0);
    assert_int_equal(rs->sig_count, SIGS);
    int sig_of[SIGS]; /* prefilter index -> generated signature */
    for (size_t i = 0; i < rs->sig_count; i++)
        sig_of[rs->sigs[i]->index] = atoi(rs->sigs[i]->id + 1);

    struct prefilter *pf = prefilter_build(rs);
    assert_non_null(pf);
    struct prefilter_state st;
    assert_int_equal(prefilter_state_init(&st, pf), 0);
    uint32_t out[SIGS];
    char line[512];
    for (int n = 0; n < 3000; n++) {
        size_t len = rnd(&seed) % 300, o = 0;
        while (o < len) {
            if (rnd(&seed) % 8 == 0) { /* a literal, perhaps with its case flipped, perhaps cut */
                const char *lit = g.lits[rnd(&seed) % SIGS][0];
                size_t l = strlen(lit), keep = rnd(&seed) % 4 == 0 ? l - 1 : l;
                int flip = rnd(&seed) % 2;
                for (size_t c = 0; c < keep && o < len; c++) {
                    char ch = lit[c];
                    line[o++] = flip && ch >= 'a' && ch <= 'z'   ? (char)(ch - 32)
                                : flip && ch >= 'A' && ch <= 'Z' ? (char)(ch + 32)
                                                                 : ch;
                }
            } else {
                line[o++] = alphabet[rnd(&seed) % (sizeof alphabet - 1)];
            }
        }
        line[len] = '\0';
        int got[SIGS] = {0};
        size_t k = prefilter_find(pf, &st, line, len, out);
        assert_true(k <= SIGS);
        for (size_t i = 0; i < k; i++) {
            assert_true(out[i] < SIGS);
            int s = sig_of[out[i]];
            assert_int_equal(got[s], 0); /* each once */
            got[s] = 1;
        }
        for (int s = 0; s < SIGS; s++)
            if (got[s] != occurs(&g, s, line)) {
                print_error("line \"%s\": signature s%d (caseless %d, first literal \"%s\") %s\n", line, s,
                            g.caseless[s], g.lits[s][0], got[s] ? "reported, but no literal occurs" : "missed");
                fail();
            }
    }
    prefilter_state_free(&st);
    prefilter_free(pf);
    od_ruleset_free(rs);
}

static void test_against_strstr(void **state)
{
    (void)state;
    for (uint32_t seed = 1; seed <= 6; seed++)
        check_lines(seed * 7919u);
}

/* The edges of a line: a literal as the whole line, at its start, at its
 * end, a line shorter than any window, the empty line; and a line whose
 * length is not a multiple of anything, read without running past it. */
static void test_edges(void **state)
{
    (void)state;
    static const char json[] =
        "{\"oomdiag_rules\": 1, \"causes\": [{\"id\": \"c\", \"title\": \"T\", \"explanation\": \"E\", "
        "\"remediation\": [{\"id\": \"s\", \"action\": \"A\"}]}], \"signatures\": ["
        "{\"id\": \"two\", \"cause\": \"c\", \"literal\": \"ok\", \"pattern\": \"x\", \"samples\": {\"match\": "
        "[\"x\"]}},"
        "{\"id\": \"long\", \"cause\": \"c\", \"literal\": \"Tried to allocate\", \"pattern\": \"x\", \"samples\": "
        "{\"match\": [\"x\"]}},"
        "{\"id\": \"ci\", \"cause\": \"c\", \"caseless\": true, \"literal\": \"NCCL error\", \"pattern\": \"x\", "
        "\"samples\": {\"match\": [\"x\"]}}]}";
    struct msgs ms = {0};
    struct od_ruleset *rs = od_ruleset_create(collect_msg, &ms);
    assert_int_equal(od_ruleset_add_buffer(rs, "e.json", json, strlen(json)), 0);
    assert_int_equal(od_ruleset_finish(rs), 0);
    struct prefilter *pf = prefilter_build(rs);
    struct prefilter_state st;
    assert_int_equal(prefilter_state_init(&st, pf), 0);
    uint32_t out[3];
    static const struct {
        const char *line;
        size_t want;
    } cases[] = {
        {"", 0},
        {"o", 0},
        {"ok", 1},
        {"Ok", 0},
        {"Tried to allocate", 1},
        {"Tried to allocat", 0},
        {"xTried to allocate", 1},
        {"ried to allocate 20 MiB", 0},
        {"nccl ERROR 2", 1},
        {"NCCL erro", 0},
        {"ok then Tried to allocate; nccl error", 3},
        {"okokokokokok", 1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        /* A copy in a buffer of exactly its length, so that ASan sees a read past it. */
        size_t len = strlen(cases[i].line);
        char *copy = malloc(len + 1);
        memcpy(copy, cases[i].line, len + 1);
        size_t k = prefilter_find(pf, &st, copy, len, out);
        if (k != cases[i].want)
            print_error("\"%s\": %zu found, %zu wanted\n", cases[i].line, k, cases[i].want);
        assert_int_equal(k, cases[i].want);
        free(copy);
    }
    prefilter_state_free(&st);
    prefilter_free(pf);
    od_ruleset_free(rs);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_against_strstr),
        cmocka_unit_test(test_edges),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
