/* The embedded rules as static data (image.c): a run's rules from the
 * build's image hold what the loader makes of the lean JSON, patterns come
 * and rank patterns come precompiled (and are compiled after all when
 * PCRE2 rejects the bytes),
 * causes copy their texts before a translation rewrites one, the image
 * fills only an empty rule set, and its prefilter, built at build time,
 * is the one a run would build (and serves only the image's own rules). */
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
#include "image.h"
#include "load.h"
#include "prefilter.h"
#include "regex.h"
#include "rulefile.h"
#include "ruleset.h"
#include "ruleset_fixture.h"
#include "translate.h"

/* ---- the builtin image -------------------------------------------------------- */

static void same_str(const char *a, const char *b)
{
    if (a == NULL || b == NULL)
        assert_ptr_equal(a, b);
    else
        assert_string_equal(a, b);
}

static void same_expr(const struct expr *a, const struct expr *b)
{
    if (a == NULL || b == NULL) {
        assert_ptr_equal(a, b);
        return;
    }
    assert_int_equal(a->kind, b->kind);
    assert_string_equal(a->op, b->op);
    assert_memory_equal(&a->num, &b->num, sizeof a->num);
    same_str(a->text, b->text);
    same_expr(a->a, b->a);
    same_expr(a->b, b->b);
}

static void same_origin(const struct origin *a, const struct origin *b)
{
    assert_string_equal(a->file, b->file);
    assert_ptr_equal(a->text, b->text);
    assert_int_equal(a->len, b->len);
    same_str(a->path, b->path);
}

static void same_summaries(const struct summary *a, size_t na, const struct summary *b, size_t nb)
{
    assert_int_equal(na, nb);
    for (size_t i = 0; i < na; i++) {
        same_str(a[i].text, b[i].text);
        same_str(a[i].when_text, b[i].when_text);
        same_expr(a[i].when, b[i].when);
        same_origin(&a[i].at, &b[i].at);
    }
}

static void same_cause(const struct cause *a, const struct cause *b)
{
    same_str(a->id, b->id);
    assert_int_equal(a->builtin, b->builtin);
    same_str(a->title, b->title);
    same_str(a->explanation, b->explanation);
    same_origin(&a->at, &b->at);
    same_summaries(a->summaries, a->summary_count, b->summaries, b->summary_count);
    assert_int_equal(a->step_count, b->step_count);
    for (size_t i = 0; i < a->step_count; i++) {
        const struct step *x = &a->steps[i], *y = &b->steps[i];
        same_str(x->id, y->id);
        same_str(x->action, y->action);
        same_str(x->detail, y->detail);
        same_str(x->when_text, y->when_text);
        same_str(x->first_when_text, y->first_when_text);
        same_expr(x->when, y->when);
        same_expr(x->first_when, y->first_when);
    }
    assert_int_equal(a->variant_count, b->variant_count);
    for (size_t i = 0; i < a->variant_count; i++) {
        const struct variant *x = &a->variants[i], *y = &b->variants[i];
        same_str(x->id, y->id);
        assert_int_equal(x->confidence, y->confidence);
        same_str(x->title, y->title);
        same_str(x->when_text, y->when_text);
        same_expr(x->when, y->when);
        assert_int_equal(x->first_count, y->first_count);
        for (size_t k = 0; k < x->first_count; k++)
            same_str(x->first[k], y->first[k]);
        same_summaries(x->summaries, x->summary_count, y->summaries, y->summary_count);
    }
}

static void same_sig(const struct sig *a, const struct sig *b)
{
    same_str(a->id, b->id);
    same_str(a->cause_id, b->cause_id);
    same_str(a->framework, b->framework);
    assert_int_equal(a->role, b->role);
    assert_int_equal(a->confidence, b->confidence);
    assert_int_equal(a->literal_count, b->literal_count);
    for (size_t k = 0; k < a->literal_count; k++)
        same_str(a->literals[k], b->literals[k]);
    same_str(a->pattern, b->pattern);
    assert_int_equal(sig_flag_bits(a), sig_flag_bits(b)); /* every flag of SIG_KEYS */
    assert_int_equal(a->literal_derived, b->literal_derived);
    same_origin(&a->at, &b->at);
    same_origin(&a->pattern_at, &b->pattern_at);
    assert_int_equal(a->index, b->index);
    assert_int_equal(a->builtin, b->builtin);
    assert_int_equal(a->check.sample_count + a->check.no_match_count + b->check.sample_count + b->check.no_match_count,
                     0);
    assert_true(a->cause == NULL || b->cause == NULL ? a->cause == b->cause : strcmp(a->cause->id, b->cause->id) == 0);
}

/* The lean embedded copies loaded from their JSON, finished (messages
 * into *M). */
static struct od_ruleset *lean_load(struct msgs *m)
{
    static const struct rulefile_opts lean = {.builtin = 1};
    memset(m, 0, sizeof *m);
    struct od_ruleset *json = od_ruleset_create(collect_msg, m);
    assert_non_null(json);
    for (size_t i = 0; i < builtin_rule_count; i++)
        assert_int_equal(rulefile_load(json, &lean, builtin_rules[i].name, (const char *)builtin_rules[i].lean,
                                       builtin_rules[i].lean_len),
                         0);
    assert_int_equal(od_ruleset_finish(json), 0);
    return json;
}

static void test_image_is_the_lean_load(void **state)
{
    (void)state;
    /* A run's rules from the build's image hold exactly what the loader
     * makes of the lean embedded copies. */
    od_ruleset_keep_samples(rs, 0);
    assert_int_equal(od_ruleset_add_builtin(rs), 0);
    assert_int_equal(od_ruleset_finish(rs), 0);
    assert_true(rs->sig_count > 0);
    assert_true(rs->sigs[0]->image); /* the image served, not the JSON */
    struct msgs other_msgs;
    struct od_ruleset *json = lean_load(&other_msgs);
    assert_int_equal(msgs.count + other_msgs.count, 0);
    assert_false(json->sigs[0]->image);

    assert_int_equal(rs->file_count, json->file_count);
    for (size_t i = 0; i < rs->file_count; i++)
        assert_string_equal(rs->files[i], json->files[i]);
    assert_string_equal(od_ruleset_version(rs), od_ruleset_version(json));
    assert_int_equal(rs->dtype_count, json->dtype_count);
    for (size_t i = 0; i < rs->dtype_count; i++) {
        assert_string_equal(rs->dtypes[i].name, json->dtypes[i].name);
        assert_int_equal(rs->dtypes[i].size, json->dtypes[i].size);
    }
    assert_int_equal(rs->cause_count, json->cause_count);
    for (size_t i = 0; i < rs->cause_count; i++)
        same_cause(rs->causes[i], json->causes[i]);
    assert_int_equal(rs->sig_count, json->sig_count);
    for (size_t i = 0; i < rs->sig_count; i++)
        same_sig(rs->sigs[i], json->sigs[i]);
    /* The lexicon, for -r files after the image. */
    assert_non_null(rs->lexicon);
    assert_non_null(json->lexicon);
    assert_int_equal(rs->lexicon->n, json->lexicon->n);
    for (size_t i = 0; i < rs->lexicon->n; i++) {
        assert_string_equal(rs->lexicon->v[i].name, json->lexicon->v[i].name);
        assert_string_equal(rs->lexicon->v[i].text, json->lexicon->v[i].text);
    }
    assert_int_equal(rs->rank_count, json->rank_count);
    for (size_t i = 0; i < rs->rank_count; i++) {
        const struct rank_source *a = rs->ranks[i], *b = json->ranks[i];
        same_str(a->id, b->id);
        same_str(a->pattern, b->pattern);
        assert_int_equal(a->from_path, b->from_path);
        assert_int_equal(a->rx != NULL, b->rx != NULL);
        same_origin(&a->at, &b->at);
    }
    assert_int_equal(rs->prefix_count, json->prefix_count);
    assert_true(rs->prefix_count > 0);
    for (size_t i = 0; i < rs->prefix_count; i++) {
        const struct line_prefix *a = rs->prefixes[i], *b = json->prefixes[i];
        same_str(a->id, b->id);
        same_str(a->pattern, b->pattern);
        assert_non_null(a->rx);
        assert_non_null(b->rx);
        same_origin(&a->at, &b->at);
    }
    od_ruleset_free(json);
}

static void test_image_cause_untouched_by_translation(void **state)
{
    (void)state;
    /* Image causes borrow their strings for good: a translation is an
     * overlay beside the rules (words_text), not a rewrite of them. */
    od_ruleset_keep_samples(rs, 0);
    assert_int_equal(od_ruleset_add_builtin(rs), 0);
    assert_int_equal(od_ruleset_finish(rs), 0);
    const struct cause *c = rs->causes[0];
    assert_true(c->image && c->borrowed);
    const char *title = c->title;
    struct od_words *w = NULL;
    assert_int_equal(translate_apply(rs, "zh-Hans", &w), 0);
    assert_non_null(w);
    assert_true(c->borrowed);
    assert_ptr_equal(c->title, title);
    assert_string_not_equal(words_text(w, &c->title), title);
    assert_ptr_equal(words_text(NULL, &c->title), title);
    words_free(w);
}

static void test_image_patterns_precompiled(void **state)
{
    (void)state;
    /* Every image signature's pattern comes precompiled, and matches each
     * sample line of the whole file as the pattern compiled now does. */
    od_ruleset_keep_samples(rs, 0);
    assert_int_equal(od_ruleset_add_builtin(rs), 0);
    struct msgs whole_msgs;
    memset(&whole_msgs, 0, sizeof whole_msgs);
    struct od_ruleset *whole = od_ruleset_create(collect_msg, &whole_msgs);
    assert_non_null(whole);
    assert_int_equal(od_ruleset_add_builtin(whole), 0); /* with samples */
    assert_int_equal(whole->sig_count, rs->sig_count);
    struct msg_sink sink = {collect_msg, &msgs, 0, 0};
    struct rx_matcher *m = rx_matcher_create();
    assert_non_null(m);
    size_t lines = 0;
    for (size_t i = 0; i < rs->sig_count; i++) {
        struct sig *s = rs->sigs[i], *w = whole->sigs[i];
        assert_non_null(s->image_code);
        struct rx *direct = rx_deserialize(s->image_code, s->image_code_len, s->expanded.hidden);
        assert_non_null(direct); /* this PCRE2 wrote it */
        rx_free(direct);
        struct rx *srx = sig_compile(s, &sink), *wrx = sig_compile(w, &sink);
        assert_non_null(srx);
        assert_non_null(wrx);
        assert_int_equal(rx_name_count(srx), rx_name_count(wrx));
        for (size_t k = 0; k < w->check.sample_count; k++, lines++) {
            const char *line = w->check.samples[k].line;
            assert_int_equal(rx_match(srx, m, line, strlen(line)), rx_match(wrx, m, line, strlen(line)));
        }
        for (size_t k = 0; k < w->check.no_match_count; k++, lines++) {
            const char *line = w->check.no_match[k].line;
            assert_int_equal(rx_match(srx, m, line, strlen(line)), rx_match(wrx, m, line, strlen(line)));
        }
        rx_free(srx);
        rx_free(wrx);
    }
    assert_true(lines >= rs->sig_count);
    assert_int_equal(msgs.count, 0);
    /* ... and every rank source's, with the same capture names. */
    assert_int_equal(builtin_image.rank_count, rs->rank_count);
    for (size_t i = 0; i < rs->rank_count; i++) {
        const struct image_rank *ir = &builtin_image.ranks[i];
        assert_non_null(ir->code);
        struct rx *direct = rx_deserialize(ir->code, ir->code_len, 0);
        assert_non_null(direct);
        assert_non_null(rs->ranks[i]->rx);
        assert_int_equal(rx_name_count(direct), rx_name_count(whole->ranks[i]->rx));
        rx_free(direct);
    }
    /* ... and every line prefix's. */
    assert_int_equal(builtin_image.prefix_count, rs->prefix_count);
    for (size_t i = 0; i < rs->prefix_count; i++) {
        const struct image_prefix *ip = &builtin_image.prefixes[i];
        assert_non_null(ip->code);
        struct rx *direct = rx_deserialize(ip->code, ip->code_len, 0);
        assert_non_null(direct);
        for (size_t k = 0; k < whole->prefixes[i]->sample_count; k++) {
            const char *line = whole->prefixes[i]->samples[k].line;
            assert_int_equal(rx_match(direct, m, line, strlen(line)),
                             rx_match(whole->prefixes[i]->rx, m, line, strlen(line)));
        }
        rx_free(direct);
    }
    rx_matcher_free(m);
    od_ruleset_free(whole);
}

static void test_foreign_precompiled_pattern_is_compiled(void **state)
{
    (void)state;
    /* Bytes another PCRE2 wrote (or none that PCRE2 wrote) are refused,
     * and the signature compiles its pattern instead. */
    static const unsigned char junk[64] = "not a serialized pattern";
    assert_null(rx_deserialize(junk, sizeof junk, 0));
    assert_null(rx_deserialize(NULL, 0, 0));
    od_ruleset_keep_samples(rs, 0);
    assert_int_equal(od_ruleset_add_builtin(rs), 0);
    struct sig *s = rs->sigs[0];
    s->image_code = junk;
    s->image_code_len = sizeof junk;
    struct msg_sink sink = {collect_msg, &msgs, 0, 0};
    struct rx *rx = sig_compile(s, &sink);
    assert_non_null(rx);
    rx_free(rx);
    assert_int_equal(msgs.count, 0);
}

static void test_builtin_after_other_rules_checks_duplicates(void **state)
{
    (void)state;
    /* Embedded rules added after others go through the loader, which
     * reports an id defined twice; the image only fills an empty ruleset. */
    char text[2048], sig[128], cause[128];
    od_ruleset_keep_samples(rs, 0);
    assert_int_equal(od_ruleset_add_builtin(rs), 0);
    snprintf(sig, sizeof sig, "%s", rs->sigs[0]->id);
    snprintf(cause, sizeof cause, "%s-mine", rs->sigs[0]->cause_id);
    teardown(state);
    setup(state);
    od_ruleset_keep_samples(rs, 0);
    rule_text(text, sizeof text, cause, sig);
    assert_int_equal(od_ruleset_add_buffer(rs, "mine.json", text, strlen(text)), 0);
    assert_int_equal(od_ruleset_add_builtin(rs), -1);
    assert_int_equal(msgs.count, 1);
    assert_non_null(strstr(msgs.items[0].text, "duplicate signature id"));
    assert_false(rs->sigs[1]->image);
}

/* A and B hold the same tables (B may be static data, A built now). */
static void same_prefilter(const struct prefilter_data *a, const struct prefilter_data *b)
{
    assert_int_equal(a->sig_count, b->sig_count);
    assert_int_equal(a->byte_order, b->byte_order);
    assert_int_equal(a->texts_len, b->texts_len);
    assert_memory_equal(a->texts, b->texts, a->texts_len);
    for (int i = 0; i < 2; i++) {
        const struct prefilter_table *x = &a->tables[i], *y = &b->tables[i];
        assert_int_equal(x->count, y->count);
        assert_int_equal(x->window, y->window);
        assert_int_equal(x->stride, y->stride);
        assert_int_equal(x->mask, y->mask);
        assert_int_equal(x->teddy, y->teddy);
        assert_memory_equal(x->bits, y->bits, (1u << PREFILTER_HASH_BITS) / 8);
        assert_memory_equal(x->bucket, y->bucket, ((1u << PREFILTER_BUCKET_BITS) + 1) * sizeof *x->bucket);
        if (x->count > 0)
            assert_memory_equal(x->entries, y->entries, x->count * sizeof *x->entries);
        assert_memory_equal(x->teddy_lo, y->teddy_lo, sizeof x->teddy_lo);
        assert_memory_equal(x->teddy_hi, y->teddy_hi, sizeof x->teddy_hi);
    }
}

static void test_image_prefilter_is_the_run_time_one(void **state)
{
    (void)state;
    /* The image's prefilter serves a run of the image's rules, and equals
     * the one built from the lean JSON at run time. */
    od_ruleset_keep_samples(rs, 0);
    assert_int_equal(od_ruleset_add_builtin(rs), 0);
    assert_int_equal(od_ruleset_finish(rs), 0);
    assert_non_null(builtin_image.prefilter);
    const struct prefilter_data *served = prefilter_data(rs->prefilter);
    assert_ptr_equal(served->tables[0].bits, builtin_image.prefilter->tables[0].bits);
    assert_ptr_equal(served->texts, builtin_image.prefilter->texts);
    struct msgs other_msgs;
    struct od_ruleset *json = lean_load(&other_msgs);
    const struct prefilter_data *built = prefilter_data(json->prefilter);
    assert_ptr_not_equal(built->tables[0].bits, builtin_image.prefilter->tables[0].bits);
    same_prefilter(built, builtin_image.prefilter);
    od_ruleset_free(json);
}

static void test_image_prefilter_not_for_more_rules(void **state)
{
    (void)state;
    /* A rule file after the image (-r): the prefilter is built at run time,
     * and finds that file's literal too. */
    char text[2048];
    od_ruleset_keep_samples(rs, 0);
    assert_int_equal(od_ruleset_add_builtin(rs), 0);
    rule_text(text, sizeof text, "mine-cause", "mine-sig");
    assert_int_equal(od_ruleset_add_buffer(rs, "mine.json", text, strlen(text)), 0);
    assert_int_equal(od_ruleset_finish(rs), 0);
    const struct prefilter_data *d = prefilter_data(rs->prefilter);
    assert_ptr_not_equal(d->tables[0].bits, builtin_image.prefilter->tables[0].bits);
    assert_ptr_not_equal(d->texts, builtin_image.prefilter->texts);
    assert_int_equal(d->sig_count, rs->sig_count);
    struct prefilter_state st;
    uint32_t out[1024];
    assert_true(rs->sig_count <= 1024);
    assert_int_equal(prefilter_state_init(&st, rs->prefilter), 0);
    const char line[] = "it went boom here";
    size_t n = prefilter_find(rs->prefilter, &st, line, strlen(line), out), hit = 0;
    for (size_t i = 0; i < n; i++)
        hit += out[i] == rs->sig_count - 1;
    assert_int_equal(hit, 1);
    prefilter_state_free(&st);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_image_is_the_lean_load, setup, teardown),
        cmocka_unit_test_setup_teardown(test_image_cause_untouched_by_translation, setup, teardown),
        cmocka_unit_test_setup_teardown(test_image_patterns_precompiled, setup, teardown),
        cmocka_unit_test_setup_teardown(test_foreign_precompiled_pattern_is_compiled, setup, teardown),
        cmocka_unit_test_setup_teardown(test_builtin_after_other_rules_checks_duplicates, setup, teardown),
        cmocka_unit_test_setup_teardown(test_image_prefilter_is_the_run_time_one, setup, teardown),
        cmocka_unit_test_setup_teardown(test_image_prefilter_not_for_more_rules, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
