/* Where rules come from (load.c): the embedded files, lean or whole;
 * beside files being checked; -r files, pipes and directories; the size
 * limit; buffers copied and kept. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cmocka.h>

#include "builtin_rules.h"
#include "expr_node.h"
#include "helpers.h"
#include "load.h"
#include "regex.h"
#include "rulefile.h"
#include "ruleset.h"
#include "ruleset_fixture.h"

static void test_rule_file_names(void **state)
{
    (void)state;
    assert_true(load_is_rule_file_name("a.json"));
    assert_true(load_is_rule_file_name("cause-gpu-oom.json"));
    assert_false(load_is_rule_file_name(".json"));
    assert_false(load_is_rule_file_name("a.json~"));
    assert_false(load_is_rule_file_name("a.JSON"));
    assert_false(load_is_rule_file_name("json"));
}

static void test_builtin_lean_and_whole(void **state)
{
    /* What a diagnosis run loads (the lean copies, no samples) and what
     * --check-rules loads (the files as written) hold the same items. */
    od_ruleset_keep_samples(rs, 0);
    assert_int_equal(od_ruleset_add_builtin(rs), 0);
    assert_int_equal(od_ruleset_finish(rs), 0);
    assert_int_equal(msgs.count, 0);
    size_t sigs = rs->sig_count, causes = rs->cause_count, samples = 0;
    assert_true(sigs > 100);
    for (size_t i = 0; i < rs->sig_count; i++) {
        assert_true(rs->sigs[i]->builtin);
        samples += rs->sigs[i]->check.sample_count;
    }
    assert_int_equal(samples, 0);
    assert_int_equal(rs->file_count, builtin_rule_count);
    teardown(state);
    setup(state);
    assert_int_equal(od_ruleset_add_builtin(rs), 0); /* samples kept unless told otherwise */
    assert_int_equal(od_ruleset_finish(rs), 0);
    assert_int_equal(msgs.count, 0);
    assert_int_equal(rs->sig_count, sigs);
    assert_int_equal(rs->cause_count, causes);
    for (size_t i = 0; i < rs->sig_count; i++)
        samples += rs->sigs[i]->check.sample_count;
    assert_true(samples >= sigs);
}

static void test_builtin_context_yields(void **state)
{
    (void)state;
    /* A file being checked redefines an embedded cause and signature: as
     * context, the embedded ones step aside (no duplicate errors). */
    char text[2048];
    od_ruleset_keep_samples(rs, 0);
    assert_int_equal(od_ruleset_add_builtin(rs), 0);
    char sig[128], cause[128];
    assert_non_null(rs->sigs[0]->cause_id);
    snprintf(sig, sizeof sig, "%s", rs->sigs[0]->id);
    snprintf(cause, sizeof cause, "%s", rs->sigs[0]->cause_id);
    rule_text(text, sizeof text, cause, sig);
    size_t builtin_sigs = rs->sig_count;
    teardown(state);
    setup(state);
    od_ruleset_keep_samples(rs, 1);
    assert_int_equal(od_ruleset_add_buffer(rs, "mine.json", text, strlen(text)), 0);
    assert_int_equal(od_ruleset_add_builtin_context(rs), 0);
    assert_int_equal(msgs.count, 0);
    assert_int_equal(rs->sig_count, builtin_sigs);
    const struct sig *s = ruleset_sig(rs, sig);
    assert_non_null(s);
    assert_false(s->builtin);
    assert_string_equal(s->at.file, "mine.json");
    assert_int_equal(s->check.sample_count, 1); /* the checked file's samples */
    assert_true(rs->sigs[1]->builtin);
    assert_int_equal(rs->sigs[1]->check.sample_count, 0); /* context: not checked again */
}

static void test_builtin_context_skips_loaded_file(void **state)
{
    (void)state;
    /* --check-rules rules/: an embedded file identical to a checked one is
     * left out, not loaded a second time. */
    const struct builtin_rule *b = &builtin_rules[0];
    assert_int_equal(od_ruleset_add_buffer(rs, "copy.json", (const char *)b->data, b->len), 0);
    size_t sigs = rs->sig_count, files = rs->file_count;
    assert_int_equal(od_ruleset_add_builtin_context(rs), 0);
    assert_int_equal(msgs.count, 0);
    assert_int_equal(rs->file_count, files + builtin_rule_count - 1);
    for (size_t i = 0; i < rs->file_count; i++)
        assert_string_not_equal(rs->files[i], b->name);
    assert_true(rs->sig_count > sigs);
}

static void test_buffer_is_copied(void **state)
{
    (void)state;
    char text[2048];
    rule_text(text, sizeof text, "c1", "sig1");
    assert_int_equal(od_ruleset_add_buffer(rs, "buf.json", text, strlen(text)), 0);
    memset(text, 'x', strlen(text)); /* the caller's copy may go */
    assert_int_equal(od_ruleset_finish(rs), 0);
    const struct sig *s = ruleset_sig(rs, "sig1");
    assert_non_null(s);
    unsigned long line = 0, col = 0;
    origin_locate(&s->at, &line, &col);
    assert_int_equal(line, 4);
    assert_int_equal(col, 17);
}

static void test_directory_sorted_json_only(void **state)
{
    (void)state;
    char *dir = tmpdir_create(), a[2048], b[2048];
    rule_text(a, sizeof a, "ca", "sig-a");
    rule_text(b, sizeof b, "cb", "sig-b");
    write_file(dir, "b.json", b, strlen(b));
    write_file(dir, "a.json", a, strlen(a));
    write_file(dir, "c.txt", "not json", 8);
    write_file(dir, "d.json~", "not json", 8);
    assert_int_equal(od_ruleset_add_path(rs, dir), 0);
    assert_int_equal(msgs.count, 0);
    assert_int_equal(rs->sig_count, 2);
    assert_string_equal(rs->sigs[0]->id, "sig-a");
    assert_string_equal(rs->sigs[1]->id, "sig-b");
    char want[4096];
    snprintf(want, sizeof want, "%s/a.json", dir);
    assert_string_equal(rs->sigs[0]->at.file, want);
    tmpdir_remove(dir);
}

static void test_directory_without_rules_warns(void **state)
{
    (void)state;
    char *dir = tmpdir_create();
    write_file(dir, "notes.txt", "x", 1);
    assert_int_equal(od_ruleset_add_path(rs, dir), 0);
    assert_msg(&msgs, 0, OD_SEV_WARNING, dir, 0, 0, "no *.json rule files in this directory");
    assert_int_equal(msgs.count, 1);
    tmpdir_remove(dir);
}

static void test_missing_path(void **state)
{
    (void)state;
    assert_int_equal(od_ruleset_add_path(rs, "/nonexistent/rules.json"), -1);
    assert_msg(&msgs, 0, OD_SEV_ERROR, "/nonexistent/rules.json", 0, 0, "cannot read rules: No such file or directory");
    assert_int_equal(msgs.count, 1);
}

static void test_file_over_limit(void **state)
{
    (void)state;
    /* A sparse file one byte over the limit is refused before it is read. */
    char *dir = tmpdir_create(), path[4096];
    snprintf(path, sizeof path, "%s/big.json", dir);
    write_file(NULL, path, "{", 1);
    assert_int_equal(truncate(path, RULEFILE_MAX_BYTES + 1), 0);
    assert_int_equal(od_ruleset_add_path(rs, path), -1);
    assert_msg(&msgs, 0, OD_SEV_ERROR, path, 0, 0, "rule file is larger than 16 MiB");
    assert_int_equal(msgs.count, 1);
    /* At the limit it is read, and then fails as JSON. */
    assert_int_equal(truncate(path, RULEFILE_MAX_BYTES), 0);
    assert_int_equal(od_ruleset_add_path(rs, path), -1);
    assert_int_equal(msgs.count, 2);
    assert_string_equal(msgs.items[1].text, "NUL byte in rule file (not JSON text)");
    tmpdir_remove(dir);
}

static void test_pipe_is_read_to_its_end(void **state)
{
    (void)state;
    /* -r /dev/stdin, -r <(...): no size to trust; read until EOF.  User
     * files compile their regexes at load, so a bad pattern fails here. */
    char text[2048], path[64];
    rule_text(text, sizeof text, "c1", "sig1");
    int fd = pipe_with(text, strlen(text));
    snprintf(path, sizeof path, "/dev/fd/%d", fd);
    assert_int_equal(od_ruleset_add_path(rs, path), 0);
    close(fd);
    assert_int_equal(msgs.count, 0);
    assert_int_equal(rs->sig_count, 1);
    assert_non_null(rs->sigs[0]->rx);
    char *bad = strstr(text, "\"pattern\": \"boom\"");
    assert_non_null(bad);
    memcpy(bad, "\"pattern\": \"(oom\"", 17);
    memcpy(strstr(text, "sig1"), "sig2", 4);
    memcpy(strstr(text, "\"c1\""), "\"c2\"", 4);
    memcpy(strstr(text, "\"c1\""), "\"c2\"", 4);
    fd = pipe_with(text, strlen(text));
    snprintf(path, sizeof path, "/dev/fd/%d", fd);
    assert_int_equal(od_ruleset_add_path(rs, path), -1);
    close(fd);
    assert_int_equal(msgs.count, 1);
    assert_string_equal(msgs.items[0].text, "/signatures/0/pattern: missing closing parenthesis (PCRE2 error 114)");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rule_file_names),
        cmocka_unit_test_setup_teardown(test_builtin_lean_and_whole, setup, teardown),
        cmocka_unit_test_setup_teardown(test_builtin_context_yields, setup, teardown),
        cmocka_unit_test_setup_teardown(test_builtin_context_skips_loaded_file, setup, teardown),
        cmocka_unit_test_setup_teardown(test_buffer_is_copied, setup, teardown),
        cmocka_unit_test_setup_teardown(test_directory_sorted_json_only, setup, teardown),
        cmocka_unit_test_setup_teardown(test_directory_without_rules_warns, setup, teardown),
        cmocka_unit_test_setup_teardown(test_missing_path, setup, teardown),
        cmocka_unit_test_setup_teardown(test_file_over_limit, setup, teardown),
        cmocka_unit_test_setup_teardown(test_pipe_is_read_to_its_end, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
