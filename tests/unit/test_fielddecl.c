/* Field declarations: kinds that agree with what the engine does with a
 * name, one meaning per name across files, and the names the engine knows
 * without a declaration. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "fielddecl.h"
#include "helpers.h"
#include "ruleset.h"

static char reported[8][256];
static int nreported;

static void keep_report(void *ctx, int warning, const char *path, const char *source, size_t caret, const char *msg)
{
    (void)ctx;
    (void)source;
    (void)caret;
    if (nreported < 8)
        snprintf(reported[nreported++], sizeof reported[0], "%s%s: %s", warning ? "warning " : "", path, msg);
}

/* Parses JSON as the "fields" of a file FILE whose text is {"fields": JSON}. */
static int parse(struct od_ruleset *rs, const char *file, const char *json)
{
    static char text[4][1024]; /* the origins of declarations point into it */
    static int next;
    char *t = text[next++ % 4];
    snprintf(t, sizeof text[0], "{\"fields\": %s}", json);
    cJSON *root = cJSON_Parse(t);
    assert_non_null(root);
    nreported = 0;
    int rc = fielddecl_parse(rs, cJSON_GetObjectItem(root, "fields"), file, t, strlen(t), 0, keep_report, NULL);
    cJSON_Delete(root);
    return rc;
}

static void test_engine_names(void **state)
{
    (void)state;
    assert_true(field_engine_known("requested_bytes"));
    assert_true(field_engine_known("rank"));
    assert_true(field_engine_known("step"));
    assert_true(field_engine_known("shape"));
    assert_true(field_engine_known("dtype"));
    assert_false(field_engine_known("_bytes")); /* a suffix needs a name before it */
    assert_false(field_engine_known("request_byte"));
    assert_false(field_engine_known("pid"));
}

static void test_declarations(void **state)
{
    (void)state;
    struct msgs ms = {0};
    struct od_ruleset *rs = od_ruleset_create(collect_msg, &ms);
    assert_int_equal(parse(rs, "a.json",
                           "{\"pid\": {\"kind\": \"integer\", \"description\": \"the process\"}, "
                           "\"asked_bytes\": {\"kind\": \"bytes\"}, \"shape\": {\"kind\": \"shape\"}}"),
                     0);
    assert_int_equal(nreported, 0);
    assert_int_equal(rs->field_decl_count, 3);
    assert_int_equal(fielddecl_find(rs, "pid")->kind, FIELD_KIND_INTEGER);
    assert_int_equal(fielddecl_find(rs, "asked_bytes")->kind, FIELD_KIND_BYTES);
    assert_null(fielddecl_find(rs, "tid"));
    /* the same again from another file is fine; another kind is not */
    assert_int_equal(parse(rs, "b.json", "{\"pid\": {\"kind\": \"integer\"}}"), 0);
    assert_int_equal(rs->field_decl_count, 3);
    assert_int_equal(parse(rs, "c.json", "{\"pid\": {\"kind\": \"string\"}}"), -1);
    assert_string_equal(reported[0], "/fields/pid: field \"pid\" is declared as integer at a.json:1:13");
    od_ruleset_free(rs);
}

static void parse_fails(const char *json, const char *want)
{
    struct msgs ms = {0};
    struct od_ruleset *rs = od_ruleset_create(collect_msg, &ms);
    assert_int_equal(parse(rs, "t.json", json), -1);
    assert_true(nreported >= 1);
    assert_string_equal(reported[0], want);
    assert_int_equal(rs->field_decl_count, 0);
    od_ruleset_free(rs);
}

static void test_bad_declarations(void **state)
{
    (void)state;
    parse_fails("{\"asked_bytes\": {\"kind\": \"integer\"}}",
                "/fields/asked_bytes/kind: the engine reads \"asked_bytes\" as a size: declare its kind as \"bytes\"");
    parse_fails(
        "{\"count\": {\"kind\": \"bytes\"}}",
        "/fields/count/kind: the engine does not read \"count\" as bytes (sizes are the names ending in _bytes; "
        "shape and dtype are names of their own): use \"integer\" or \"string\"");
    parse_fails("{\"dtype\": {\"kind\": \"string\"}}",
                "/fields/dtype/kind: the engine reads \"dtype\" as a data type: declare its kind as \"dtype\"");
    parse_fails("{\"n\": {\"kind\": \"number\"}}",
                "/fields/n/kind: \"kind\" must be one of: bytes, integer, string, shape, dtype");
    parse_fails("{\"n\": {\"description\": \"no kind\"}}",
                "/fields/n: missing required key \"kind\" (bytes, integer, string, shape or dtype)");
    parse_fails("{\"n\": \"integer\"}",
                "/fields/n: a field declaration must be an object: {\"kind\": ..., \"description\": ...}");
    parse_fails("{\"n\": {\"kind\": \"integer\", \"description\": 3}}",
                "/fields/n/description: \"description\" must be a string");
    parse_fails("[]", "/fields: \"fields\" must be an object of field declarations");
    /* an unknown key is a warning; the declaration still counts */
    struct msgs ms = {0};
    struct od_ruleset *rs = od_ruleset_create(collect_msg, &ms);
    assert_int_equal(parse(rs, "t.json", "{\"n\": {\"kind\": \"integer\", \"unit\": \"s\"}}"), 0);
    assert_string_equal(reported[0],
                        "warning /fields/n/unit: unknown key \"unit\" is ignored (allowed here: kind, description)");
    assert_int_equal(rs->field_decl_count, 1);
    od_ruleset_free(rs);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_engine_names),
        cmocka_unit_test(test_declarations),
        cmocka_unit_test(test_bad_declarations),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
