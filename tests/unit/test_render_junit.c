/* render_junit.c: JUnit XML that is well formed, with one testcase per
 * job, the suite's counts, a <failure> per root cause and an <error> per
 * input not read, and log text XML-escaped, its characters XML forbids
 * dropped. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "helpers.h"
#include "render_helpers.h"

/* A small XML 1.0 well-formedness check, enough for what the format
 * writes: one declaration, elements that nest and close by name, quoted
 * attributes, only the five entities and numeric references, no '<' or
 * '&' raw in text, no character XML 1.0 forbids, valid UTF-8.  Counts the
 * elements named NAME in *COUNT (NULL: none). */
static void assert_xml(const char *s, const char *name, size_t *count)
{
    static const char decl[] = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
    assert_memory_equal(s, decl, sizeof decl - 1);
    const char *p = s + sizeof decl - 1;
    char stack[16][32];
    size_t depth = 0, roots = 0;
    if (count)
        *count = 0;
    while (*p) {
        unsigned char c = (unsigned char)*p;
        if (c < 0x20 && c != '\n' && c != '\t' && c != '\r')
            fail_msg("control byte 0x%02x in XML at %zu", c, (size_t)(p - s));
        if (c == 0xef && (unsigned char)p[1] == 0xbf && ((unsigned char)p[2] == 0xbe || (unsigned char)p[2] == 0xbf))
            fail_msg("U+FFFE/U+FFFF in XML at %zu", (size_t)(p - s));
        if (c == 0xc2 && (unsigned char)p[1] >= 0x80 && (unsigned char)p[1] <= 0x9f)
            fail_msg("C1 control in XML at %zu", (size_t)(p - s));
        if (c == '&') {
            static const char *const ents[] = {"&amp;", "&lt;", "&gt;", "&quot;", "&apos;", "&#"};
            int ok = 0;
            for (size_t i = 0; i < 6; i++)
                ok |= strncmp(p, ents[i], strlen(ents[i])) == 0;
            if (!ok)
                fail_msg("bare '&' at %zu: %.20s", (size_t)(p - s), p);
            if (p[1] == '#') {
                size_t n = strspn(p + 2, "0123456789");
                assert_true(n > 0 && p[2 + n] == ';');
            }
            p++;
            continue;
        }
        if (c == '>' && depth == 0)
            fail_msg("'>' outside the root at %zu", (size_t)(p - s));
        if (c != '<') {
            if (depth == 0 && c != '\n' && c != ' ')
                fail_msg("text outside the root at %zu", (size_t)(p - s));
            p++;
            continue;
        }
        int closing = p[1] == '/';
        const char *n0 = p + 1 + closing;
        size_t nlen = strspn(n0, "abcdefghijklmnopqrstuvwxyz-");
        assert_true(nlen > 0 && nlen < sizeof stack[0]);
        const char *q = n0 + nlen;
        if (closing) {
            assert_true(depth > 0);
            depth--;
            if (strlen(stack[depth]) != nlen || memcmp(stack[depth], n0, nlen) != 0)
                fail_msg("</%.*s> closes <%s>", (int)nlen, n0, stack[depth]);
            assert_int_equal(*q, '>');
            p = q + 1;
            continue;
        }
        if (count && strlen(name) == nlen && memcmp(name, n0, nlen) == 0)
            ++*count;
        /* attributes: name="value" with no '<' or raw '"' in the value */
        for (;;) {
            q += strspn(q, " ");
            if (*q == '>' || (q[0] == '/' && q[1] == '>'))
                break;
            size_t an = strspn(q, "abcdefghijklmnopqrstuvwxyz_");
            assert_true(an > 0);
            q += an;
            assert_int_equal(q[0], '=');
            assert_int_equal(q[1], '"');
            const char *v = q + 2, *e = strchr(v, '"');
            assert_non_null(e);
            for (const char *k = v; k < e; k++) {
                if (*k == '<' || *k == '\n' || *k == '\t')
                    fail_msg("raw %#x in an attribute value at %zu", *k, (size_t)(k - s));
                if (*k == '&' && strncmp(k, "&amp;", 5) && strncmp(k, "&lt;", 4) && strncmp(k, "&gt;", 4) &&
                    strncmp(k, "&quot;", 6) && strncmp(k, "&apos;", 6) && strncmp(k, "&#", 2))
                    fail_msg("bare '&' in an attribute at %zu", (size_t)(k - s));
            }
            q = e + 1;
        }
        if (*q == '/') {
            if (depth == 0)
                roots++;
            p = q + 2;
            continue;
        }
        if (depth == 0)
            roots++;
        assert_true(depth < 16);
        memcpy(stack[depth], n0, nlen);
        stack[depth++][nlen] = '\0';
        p = q + 1;
    }
    assert_int_equal(depth, 0);
    assert_int_equal(roots, 1);
    assert_inert(s, strlen(s), 1);
}

/* The unsigned number in attribute ATTR of the first <testsuite. */
static unsigned long suite_attr(const char *attr)
{
    const char *t = strstr(out, "<testsuite ");
    assert_non_null(t);
    char key[64];
    snprintf(key, sizeof key, " %s=\"", attr);
    const char *a = strstr(t, key);
    assert_non_null(a);
    assert_true(a < strchr(t, '>'));
    return strtoul(a + strlen(key), NULL, 10);
}

static void test_junit_failure_per_root(void **state)
{
    (void)state;
    rep = scan(train_log, sizeof train_log - 1, "train.log");
    render_one(OD_FMT_JUNIT, 0, 0);
    size_t cases = 0;
    assert_xml(out, "testcase", &cases);
    assert_int_equal(cases, 1);
    assert_int_equal(suite_attr("tests"), 1);
    assert_int_equal(suite_attr("failures"), 1);
    assert_int_equal(suite_attr("errors"), 0);
    assert_non_null(strstr(out, "<testcase classname=\"oomdiag\" name=\"train.log\">\n"
                                "      <failure message=\"gpu-oom: Asked for 2.00 GiB with 1.06 GiB free of 79.15 "
                                "GiB.\" type=\"gpu-oom\">"));
    assert_int_equal(occurrences(out, "<failure "), 1);
    assert_non_null(strstr(out, "train.log:2: torch.OutOfMemoryError"));
    assert_non_null(strstr(out, "What to do:\n  1. Set PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True\n"));
}

static void test_junit_counts_over_jobs(void **state)
{
    (void)state;
    /* Three jobs: one failing, one clean (passes: an empty testcase), one
     * whose input is empty (an error of the test). */
    struct od_job *j1 = od_job_create(rs, NULL, collect_msg, &msgs), *j2 = od_job_create(rs, NULL, collect_msg, &msgs);
    assert_non_null(j1);
    assert_non_null(j2);
    struct od_report *reps[3];
    reps[0] = rep = scan(train_log, sizeof train_log - 1, "a.log");
    reps[1] = scan_own(j1, "all good\n", 9, "b.log");
    reps[2] = scan_own(j2, "", 0, "c.log");
    render(OD_FMT_JUNIT, 0, 0, reps, 3);
    size_t cases = 0, failures = 0, errors = 0;
    assert_xml(out, "testcase", &cases);
    assert_xml(out, "failure", &failures);
    assert_xml(out, "error", &errors);
    assert_int_equal(cases, 3);
    assert_int_equal(failures, 1);
    assert_int_equal(errors, 1);
    assert_int_equal(suite_attr("tests"), 3);
    assert_int_equal(suite_attr("failures"), 1);
    assert_int_equal(suite_attr("errors"), 1);
    assert_non_null(strstr(out, "<testcase classname=\"oomdiag\" name=\"b.log\"/>\n"));
    assert_non_null(strstr(out, "<testcase classname=\"oomdiag\" name=\"c.log\">\n"
                                "      <error message=\"c.log: "));
    od_report_free(reps[1]);
    od_report_free(reps[2]);
    od_job_free(j1);
    od_job_free(j2);

    /* No job: an empty, well-formed suite. */
    render(OD_FMT_JUNIT, 0, 0, NULL, 0);
    assert_xml(out, "testcase", &cases);
    assert_int_equal(cases, 0);
    assert_int_equal(suite_attr("tests"), 0);
}

static void test_junit_manual_report(void **state)
{
    (void)state;
    build_manual();
    render_manual(OD_FMT_JUNIT, 3);
    free_manual();
    size_t failures = 0, errors = 0;
    assert_xml(out, "failure", &failures);
    assert_xml(out, "error", &errors);
    assert_int_equal(failures, 1); /* the consequence is told inside its root's failure */
    assert_int_equal(errors, 1);   /* rank1.log was read in part */
    assert_non_null(strstr(out, "<error message=\"rank1.log: Input/output error\" type=\"unreadable\"/>"));
    assert_non_null(strstr(out, "\nConsequences:\n"));
    assert_non_null(strstr(out, "nccl-timeout"));
    assert_int_equal(suite_attr("failures"), 1);
    assert_int_equal(suite_attr("errors"), 1);
}

/* Text a library caller hands in raw: markup, quotes, every control
 * character, U+FFFE, a C1 control, and bytes that are not UTF-8. */
static void test_junit_escapes_hostile_text(void **state)
{
    (void)state;
    static const char nasty[] = "<b>&amp; \"q\" 'a' ]]> \x01\x08\x0b\x1b[31m\x7f \xc2\x85 \xef\xbf\xbe \xff tab\tcr\r\n"
                                "</failure></testcase>";
    struct one_report o;
    one_report_init(&o, nasty, nasty);
    one_report_unread(&o, "x.log", nasty, nasty);
    o.d.cause = nasty;
    o.step.detail = (char *)nasty;
    render(OD_FMT_JUNIT, 0, 0, o.reps, 1);
    size_t failures = 0, errors = 0;
    assert_xml(out, "failure", &failures);
    assert_xml(out, "error", &errors);
    assert_int_equal(failures, 1);
    assert_int_equal(errors, 1);
    /* In an attribute: quotes and markup as references, tab and CR too;
     * forbidden characters gone, a bad byte U+FFFD. */
    assert_non_null(
        strstr(out, "&lt;b&gt;&amp;amp; &quot;q&quot; &apos;a&apos; ]]&gt; [31m   \xef\xbf\xbd tab&#9;cr&#13;&#10;"
                    "&lt;/failure&gt;&lt;/testcase&gt;"));
    assert_null(strstr(out, "</failure></testcase>"));
    assert_null(strstr(out, "<b>"));
    fields_free(&o.fields);
}

/* A failure the program survived passes (told in <system-out>); a
 * consequence with no root cause in the job fails it by itself. */
static void test_junit_recovered_and_orphan_consequence(void **state)
{
    (void)state;
    struct one_report o;
    one_report_init(&o, "r.log", "retried");
    o.d.role = OD_ROLE_RECOVERED;
    render(OD_FMT_JUNIT, 0, 0, o.reps, 1);
    size_t failures = 0;
    assert_xml(out, "failure", &failures);
    assert_int_equal(failures, 0);
    assert_int_equal(suite_attr("failures"), 0);
    assert_non_null(strstr(out, "<system-out>Recovered (the program went on after it): c: retried"));
    o.d.role = OD_ROLE_CONSEQUENCE;
    render(OD_FMT_JUNIT, 0, 0, o.reps, 1);
    assert_xml(out, "failure", &failures);
    assert_int_equal(failures, 1);
    assert_int_equal(suite_attr("failures"), 1);
    assert_null(strstr(out, "<system-out>"));
    fields_free(&o.fields);
}

int main(void)
{
#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)
    const struct CMUnitTest tests[] = {
        T(test_junit_failure_per_root),
        T(test_junit_counts_over_jobs),
        T(test_junit_manual_report),
        T(test_junit_escapes_hostile_text),
        T(test_junit_recovered_and_orphan_consequence),
    };
#undef T
    return cmocka_run_group_tests(tests, NULL, NULL);
}
