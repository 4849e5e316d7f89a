#define PCRE2_CODE_UNIT_WIDTH 8
#include "regex.h"

#include <pcre2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Bounds that keep a hostile pattern from hanging the scan. */
enum { RX_MATCH_LIMIT = 1000000, RX_DEPTH_LIMIT = 10000, RX_MAX_GROUPS = 256 };

struct rx {
    pcre2_code *code;
    int jit, jit_tried;
    uint32_t name_count, name_entry;
    PCRE2_SPTR name_table;
    unsigned char *own_table; /* the name table without hidden groups, or NULL */
};

struct rx_matcher {
    pcre2_match_data *md;
    pcre2_match_context *mctx;
    pcre2_jit_stack *jit_stack;
};

/* An rx around CODE (taken over); NULL, with CODE freed, when out of memory. */
static struct rx *rx_wrap(pcre2_code *code)
{
    struct rx *rx = calloc(1, sizeof *rx);
    if (rx == NULL) {
        pcre2_code_free(code);
        return NULL;
    }
    rx->code = code;
    pcre2_pattern_info(code, PCRE2_INFO_NAMECOUNT, &rx->name_count);
    pcre2_pattern_info(code, PCRE2_INFO_NAMEENTRYSIZE, &rx->name_entry);
    pcre2_pattern_info(code, PCRE2_INFO_NAMETABLE, &rx->name_table);
    return rx;
}

struct rx *rx_compile(const char *pattern, int caseless, char *err, size_t errsize, size_t *err_off)
{
    return rx_compile_hiding(pattern, 0, caseless, err, errsize, err_off);
}

/* Drops the entries of groups 1..HIDDEN from RX's name table. 0 or -1. */
static int hide_groups(struct rx *rx, unsigned hidden)
{
    size_t keep = 0;
    if (hidden == 0)
        return 0;
    rx->own_table = malloc((size_t)rx->name_count * rx->name_entry + 1);
    if (rx->own_table == NULL)
        return -1;
    for (uint32_t i = 0; i < rx->name_count; i++) {
        PCRE2_SPTR entry = rx->name_table + (size_t)i * rx->name_entry;
        if ((((unsigned)entry[0] << 8) | entry[1]) > hidden)
            memcpy(rx->own_table + keep++ * rx->name_entry, entry, rx->name_entry);
    }
    rx->name_table = rx->own_table;
    rx->name_count = (uint32_t)keep;
    return 0;
}

struct rx *rx_compile_hiding(const char *pattern, unsigned hidden, int caseless, char *err, size_t errsize,
                             size_t *err_off)
{
    int errcode = 0;
    PCRE2_SIZE off = 0;
    uint32_t opts = caseless ? PCRE2_CASELESS : 0;
    pcre2_code *code = pcre2_compile((PCRE2_SPTR)pattern, PCRE2_ZERO_TERMINATED, opts, &errcode, &off, NULL);
    if (code == NULL) {
        PCRE2_UCHAR buf[256];
        pcre2_get_error_message(errcode, buf, sizeof buf);
        snprintf(err, errsize, "%s (PCRE2 error %d)", (const char *)buf, errcode);
        *err_off = off;
        return NULL;
    }
    uint32_t groups = 0;
    pcre2_pattern_info(code, PCRE2_INFO_CAPTURECOUNT, &groups);
    if (groups >= RX_MAX_GROUPS) {
        pcre2_code_free(code);
        snprintf(err, errsize, "too many capture groups (%u, at most %d)", groups, RX_MAX_GROUPS - 1);
        *err_off = 0;
        return NULL;
    }
    struct rx *rx = rx_wrap(code);
    if (rx == NULL || hide_groups(rx, hidden) != 0) {
        rx_free(rx);
        snprintf(err, errsize, "out of memory");
        *err_off = 0;
        return NULL;
    }
    return rx;
}

unsigned char *rx_serialize(const struct rx *rx, size_t *len)
{
    const pcre2_code *codes[1] = {rx->code};
    uint8_t *bytes = NULL;
    PCRE2_SIZE size = 0;
    if (pcre2_serialize_encode(codes, 1, &bytes, &size, NULL) != 1)
        return NULL;
    unsigned char *copy = malloc(size ? size : 1);
    if (copy != NULL)
        memcpy(copy, bytes, size);
    pcre2_serialize_free(bytes);
    *len = size;
    return copy;
}

struct rx *rx_deserialize(const unsigned char *bytes, size_t len, unsigned hidden)
{
    pcre2_code *code = NULL;
    /* PCRE2 checks the magic number, its version and the code unit width
     * itself, but takes no length: BYTES must be trusted (the build's own
     * image), LEN only guards the header. */
    if (bytes == NULL || len < 16 || pcre2_serialize_get_number_of_codes(bytes) != 1 ||
        pcre2_serialize_decode(&code, 1, bytes, NULL) != 1)
        return NULL;
    struct rx *rx = rx_wrap(code);
    if (rx != NULL && hide_groups(rx, hidden) != 0) {
        rx_free(rx);
        return NULL;
    }
    return rx;
}

void rx_jit(struct rx *rx)
{
    if (!rx->jit && !rx->jit_tried) {
        rx->jit_tried = 1;
        rx->jit = pcre2_jit_compile(rx->code, PCRE2_JIT_COMPLETE) == 0;
    }
}

void rx_free(struct rx *rx)
{
    if (rx == NULL)
        return;
    pcre2_code_free(rx->code);
    free(rx->own_table);
    free(rx);
}

struct rx_matcher *rx_matcher_create(void)
{
    struct rx_matcher *m = calloc(1, sizeof *m);
    if (m == NULL)
        return NULL;
    m->md = pcre2_match_data_create(RX_MAX_GROUPS, NULL);
    m->mctx = pcre2_match_context_create(NULL);
    m->jit_stack = pcre2_jit_stack_create(32 * 1024, 512 * 1024, NULL);
    if (m->md == NULL || m->mctx == NULL) {
        rx_matcher_free(m);
        return NULL;
    }
    pcre2_set_match_limit(m->mctx, RX_MATCH_LIMIT);
    pcre2_set_depth_limit(m->mctx, RX_DEPTH_LIMIT);
    if (m->jit_stack != NULL)
        pcre2_jit_stack_assign(m->mctx, NULL, m->jit_stack);
    return m;
}

void rx_matcher_free(struct rx_matcher *m)
{
    if (m == NULL)
        return;
    pcre2_match_data_free(m->md);
    pcre2_match_context_free(m->mctx);
    pcre2_jit_stack_free(m->jit_stack);
    free(m);
}

enum rx_result rx_match(const struct rx *rx, struct rx_matcher *m, const char *subject, size_t len)
{
    int rc;
    if (rx->jit)
        rc = pcre2_jit_match(rx->code, (PCRE2_SPTR)subject, len, 0, 0, m->md, m->mctx);
    else
        rc = pcre2_match(rx->code, (PCRE2_SPTR)subject, len, 0, 0, m->md, m->mctx);
    if (rc >= 0)
        return RX_MATCH;
    if (rc == PCRE2_ERROR_NOMATCH)
        return RX_NOMATCH;
    if (rc == PCRE2_ERROR_MATCHLIMIT || rc == PCRE2_ERROR_DEPTHLIMIT || rc == PCRE2_ERROR_HEAPLIMIT ||
        rc == PCRE2_ERROR_JIT_STACKLIMIT)
        return RX_LIMIT;
    return RX_ERROR;
}

int rx_each_capture(const struct rx *rx, const struct rx_matcher *m, const char *subject, rx_capture_fn fn, void *ctx)
{
    PCRE2_SIZE *ov = pcre2_get_ovector_pointer(m->md);
    uint32_t pairs = pcre2_get_ovector_count(m->md);
    for (uint32_t i = 0; i < rx->name_count; i++) {
        PCRE2_SPTR entry = rx->name_table + (size_t)i * rx->name_entry;
        uint32_t group = ((uint32_t)entry[0] << 8) | entry[1];
        if (group >= pairs || ov[2 * group] == PCRE2_UNSET)
            continue;
        int rc = fn(ctx, (const char *)entry + 2, subject + ov[2 * group], ov[2 * group + 1] - ov[2 * group]);
        if (rc != 0)
            return rc;
    }
    return 0;
}

void rx_match_span(const struct rx_matcher *m, size_t *start, size_t *end)
{
    PCRE2_SIZE *ov = pcre2_get_ovector_pointer(m->md);
    *start = ov[0];
    *end = ov[1] >= ov[0] ? ov[1] : ov[0]; /* \K can put the start after the end */
}

unsigned rx_name_count(const struct rx *rx)
{
    return rx->name_count;
}

const char *rx_name(const struct rx *rx, unsigned i)
{
    return (const char *)rx->name_table + (size_t)i * rx->name_entry + 2;
}
