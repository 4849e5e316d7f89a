/* libFuzzer: bytes -> a memfd -> the whole path the CLI takes for one log:
 * od_job_add_fd, od_classify, then rendering to memory in every format
 * (text, JSON, NDJSON, GitHub, Markdown, JUnit).  The rules are loaded
 * once: the built-in rules/ plus the small rule file below, which captures
 * free text into a string field, ranks, steps, shapes and dtypes so that
 * every part of the classifier has something to chew on whatever rules/
 * holds.  One job is reused with od_job_reset, as the CLI does.
 *
 * Besides crashes it checks what docs/hardening.md promises about output:
 * text output is valid UTF-8 without control characters other than "\n"
 * or C1 (no escape sequence from a log reaches a terminal); JSON output is
 * valid UTF-8 and parses; the CI formats are valid UTF-8 without control
 * characters but line ends and tabs. */
#include <cjson/cJSON.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "job.h"
#include "matcher.h"
#include "oomdiag/oomdiag.h"
#include "ruleset.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Its patterns avoid what made the harness time out on its own rule over
 * a 400 KB line of digits: overlapping neighbours ("[\d.]+ ?\w+", digits
 * being word characters too) and a lazy ".*?" before a digit run with no
 * \b (each start inside the run rescans it).  PCRE2's JIT does not count
 * that work against the match limit. */
static const char fuzz_rules[] =
    "{\"oomdiag_rules\": 1, \"ruleset_version\": \"fuzz-1\",\n"
    " \"dtypes\": {\"fuzz32\": 4, \"fuzz16\": 2},\n"
    " \"causes\": [\n"
    "  {\"id\": \"fuzz-oom\", \"title\": \"Fuzz OOM\", \"explanation\": \"x\",\n"
    "   \"summaries\": [\n"
    "    {\"when\": \"has(requested_bytes) && has(free_bytes)\",\n"
    "     \"text\": \"asked {requested_bytes} with {free_bytes} free on {ranks} at {path}:{line} ({msg})\"},\n"
    "    {\"when\": \"requested_bytes / 2 > 1 GiB || last_step >= 3\", \"text\": \"big {requested_bytes} step "
    "{last_step}\"},\n"
    "    {\"text\": \"{{plain}} rank {rank} of {rank_count}, {finding_count} findings\"}],\n"
    "   \"variants\": [\n"
    "    {\"id\": \"frag\", \"when\": \"reserved_unallocated_bytes >= requested_bytes\", \"first\": [\"expand\"],\n"
    "     \"summaries\": [{\"text\": \"fragmented: {reserved_unallocated_bytes} idle\"}]},\n"
    "    {\"id\": \"named\", \"when\": \"msg == \\\"boom\\\" || framework != \\\"x\\\" && !has(nothing)\"},\n"
    "    {\"id\": \"plain\"}],\n"
    "   \"remediation\": [\n"
    "    {\"id\": \"batch\", \"action\": \"halve the batch from {requested_bytes}\", \"first_when\": \"last_step <= "
    "1\"},\n"
    "    {\"id\": \"expand\", \"action\": \"expandable\", \"detail\": \"{reserved_unallocated_bytes} idle; {msg}\",\n"
    "     \"when\": \"has(reserved_unallocated_bytes)\"},\n"
    "    {\"id\": \"look\", \"action\": \"look at {path} line {line}, ranks {ranks}\"}]},\n"
    "  {\"id\": \"fuzz-timeout\", \"title\": \"Fuzz timeout\", \"explanation\": \"x\",\n"
    "   \"remediation\": [{\"id\": \"wait\", \"action\": \"wait on rank {rank}\"}]},\n"
    "  {\"id\": \"fuzz-error\", \"title\": \"Fuzz error\", \"explanation\": \"x\",\n"
    "   \"summaries\": [{\"when\": \"has(msg)\", \"text\": \"error: {msg} / {what}\"}, {\"text\": \"error {what}\"}],\n"
    "   \"remediation\": [{\"id\": \"read\", \"action\": \"read {msg}\", \"detail\": \"{what}\"}]}],\n"
    " \"signatures\": [\n"
    "  {\"id\": \"fuzz-oom\", \"cause\": \"fuzz-oom\", \"framework\": \"fuzz\", \"literal\": \"out of memory\",\n"
    "   \"pattern\": \"out of memory\\\\. Tried to allocate (?<requested_bytes>[\\\\d.,]++ ?[A-Za-z]++)"
    "(?:.*?\\\\b(?<free_bytes>[\\\\d.]++ ?[A-Za-z]++) free)?(?:.*?\\\\b(?<reserved_unallocated_bytes>[\\\\d.]++ "
    "?[A-Za-z]++) reserved)?"
    "(?:.*?msg=(?<msg>\\\\S+))?\",\n"
    "   \"samples\": {\"match\": [\"out of memory. Tried to allocate 2.00 GiB; 1 GiB free\"]}},\n"
    "  {\"id\": \"fuzz-tensor\", \"cause\": \"fuzz-oom\", \"role\": \"root\", \"confidence\": \"medium\",\n"
    "   \"literal\": [\"tensor with shape\", \"TENSOR SHAPE\"], \"caseless\": true,\n"
    "   \"pattern\": \"tensor (?:with )?shape(?<shape>[\\\\[(][\\\\d, x]*[\\\\])]) and type (?<dtype>\\\\w+)\",\n"
    "   \"samples\": {\"match\": [\"OOM when allocating tensor with shape[32,1024] and type fuzz32\"]}},\n"
    "  {\"id\": \"fuzz-timeout\", \"cause\": \"fuzz-timeout\", \"role\": \"consequence\",\n"
    "   \"pattern\": \"\\\\[Rank (?<rank>-?\\\\d+)\\\\] Watchdog timeout(?: after (?<timeout_ms>\\\\d+))?\",\n"
    "   \"literal\": \"Watchdog timeout\",\n"
    "   \"samples\": {\"match\": [\"[Rank 3] Watchdog timeout after 600000\"]}},\n"
    "  {\"id\": \"fuzz-err\", \"cause\": \"fuzz-error\", \"confidence\": \"low\",\n"
    "   \"pattern\": \"FUZZERR(?: rank (?<rank>-?\\\\d+))?: (?<msg>.*)\",\n"
    "   \"samples\": {\"match\": [\"FUZZERR rank 2: boom\"]}},\n"
    "  {\"id\": \"fuzz-cuda\", \"cause\": \"fuzz-error\", \"caseless\": true, \"literal\": \"cuda error\",\n"
    "   \"pattern\": \"cuda error: (?<what>.{0,80})(?<count_bytes>\\\\d+ ?[kmg]b)?\",\n"
    "   \"samples\": {\"match\": [\"CUDA error: an illegal memory access\"]}},\n"
    "  {\"id\": \"fuzz-killed\", \"cause\": \"fuzz-oom\", \"role\": \"confirmation\", \"literal\": \"Killed\",\n"
    "   \"pattern\": \"\\\\bKilled(?: process (?<pid>\\\\d+) \\\\((?<comm>[^)]*)\\\\))?\",\n"
    "   \"samples\": {\"match\": [\"Killed process 12 (python)\"]}},\n"
    "  {\"id\": \"fuzz-hint\", \"role\": \"hint\", \"literal\": \"hint:\",\n"
    "   \"pattern\": \"hint: (?<hint>\\\\S+)\", \"samples\": {\"match\": [\"hint: x\"]}},\n"
    "  {\"id\": \"fuzz-step\", \"role\": \"progress\", \"literal\": \"step \",\n"
    "   \"pattern\": \"^step (?<step>-?\\\\d+)\", \"samples\": {\"match\": [\"step 3\"]}}],\n"
    " \"ranks\": [\n"
    "  {\"id\": \"fuzz-line-rank\", \"pattern\": \"^\\\\[rank(?<rank>\\\\d+)\\\\]:\",\n"
    "   \"samples\": {\"match\": [\"[rank1]: x\"]}},\n"
    "  {\"id\": \"fuzz-path-rank\", \"from\": \"path\", \"pattern\": \"rank(?<rank>\\\\d+)\\\\.log$\"}]}\n";

static struct od_ruleset *rules;
static struct od_job *job; /* reused, as the CLI reuses its job for each PATH */

static void discard(void *ctx, const struct od_message *m)
{
    (void)ctx;
    volatile size_t n = strlen(m->text) + (m->file ? strlen(m->file) : 0) + (m->source ? strlen(m->source) : 0);
    (void)n;
}

static void print_to_stderr(void *ctx, const struct od_message *m)
{
    (void)ctx;
    fprintf(stderr, "fuzz_scan: rules: %s: %s\n", m->file ? m->file : "-", m->text);
}

static struct od_ruleset *load(int builtin)
{
    struct od_ruleset *rs = od_ruleset_create(print_to_stderr, NULL);
    if (rs == NULL)
        abort();
    if ((builtin && od_ruleset_add_builtin(rs) != 0) ||
        od_ruleset_add_buffer(rs, "fuzz-rules.json", fuzz_rules, sizeof fuzz_rules - 1) != 0 ||
        od_ruleset_finish(rs) != 0) {
        od_ruleset_free(rs);
        return NULL;
    }
    return rs;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    unsetenv("GITHUB_STEP_SUMMARY"); /* the GitHub format would append to it */
    rules = load(1);
    if (rules == NULL) {
        fprintf(stderr, "fuzz_scan: the built-in rules do not load (above); fuzzing with the harness's own\n");
        rules = load(0);
    }
    if (rules == NULL) {
        fprintf(stderr, "fuzz_scan: the harness's own rules do not load\n");
        abort();
    }
    rules->msgs.fn = discard;
    /* Scan NUL-holding inputs too (-a): more of the scanner to reach. */
    struct od_scan_opts so = {1, 0, 1};
    job = od_job_create(rules, &so, discard, NULL);
    if (job == NULL)
        abort();
    fprintf(stderr, "fuzz_scan: %zu signatures, %zu causes, %zu rank sources\n", rules->sig_count, rules->cause_count,
            rules->rank_count);
    return 0;
}

/* Length of the valid UTF-8 sequence at S, 0 if none. */
static size_t utf8_seq(const unsigned char *s, size_t len, unsigned *cp_out)
{
    size_t n;
    unsigned cp, min;
    if (s[0] < 0x80) {
        *cp_out = s[0];
        return 1;
    }
    if ((s[0] & 0xe0) == 0xc0)
        n = 2, cp = s[0] & 0x1f, min = 0x80;
    else if ((s[0] & 0xf0) == 0xe0)
        n = 3, cp = s[0] & 0x0f, min = 0x800;
    else if ((s[0] & 0xf8) == 0xf0)
        n = 4, cp = s[0] & 0x07, min = 0x10000;
    else
        return 0;
    if (n > len)
        return 0;
    for (size_t i = 1; i < n; i++) {
        if ((s[i] & 0xc0) != 0x80)
            return 0;
        cp = cp << 6 | (s[i] & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
        return 0;
    *cp_out = cp;
    return n;
}

static void fail(const char *fmt, const char *what, const char *out, size_t len, size_t at)
{
    fprintf(stderr, "fuzz_scan: %s output: ", what);
    fprintf(stderr, fmt, at);
    fprintf(stderr, "\n--- output (%zu bytes) ---\n", len);
    fwrite(out, 1, len, stderr);
    fputs("\n---\n", stderr);
    abort();
}

/* Control characters an output may hold: TEXT_OK none but "\n", and no
 * C1 either (a terminal reads them); LINES_OK also "\t" and "\r" (JUnit
 * XML, GitHub, Markdown); ANY_OK: JSON escapes its own. */
enum allowed { TEXT_OK, LINES_OK, ANY_OK };

static void check_utf8(const char *what, const char *out, size_t len, enum allowed allowed)
{
    const unsigned char *s = (const unsigned char *)out;
    for (size_t i = 0; i < len;) {
        unsigned cp = 0;
        size_t n = utf8_seq(s + i, len - i, &cp);
        if (n == 0)
            fail("invalid UTF-8 at byte %zu", what, out, len, i);
        int control = cp < 0x20 || cp == 0x7f;
        if (allowed == TEXT_OK && ((control && cp != '\n') || (cp >= 0x80 && cp <= 0x9f)))
            fail("a control character at byte %zu", what, out, len, i);
        if (allowed == LINES_OK && control && cp != '\n' && cp != '\t' && cp != '\r')
            fail("a control character at byte %zu", what, out, len, i);
        i += n;
    }
}

static const struct {
    enum od_format format;
    const char *name;
    enum allowed allowed;
} formats[] = {
    {OD_FMT_TEXT, "text", TEXT_OK},      {OD_FMT_JSON, "JSON", ANY_OK},           {OD_FMT_NDJSON, "NDJSON", ANY_OK},
    {OD_FMT_GITHUB, "GitHub", LINES_OK}, {OD_FMT_MARKDOWN, "Markdown", LINES_OK}, {OD_FMT_JUNIT, "JUnit", LINES_OK},
};

static void render(const struct od_report *rep, size_t f)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    if (out == NULL)
        abort();
    struct od_render_opts ro = {formats[f].format, 0, 1, 5, od_ruleset_version(rules), NULL, NULL, 0, NULL};
    struct od_renderer *r = od_renderer_create(out, &ro);
    if (r == NULL)
        abort();
    if (od_render_job(r, rep) != 0 || od_renderer_finish(r) != 0) {
        fprintf(stderr, "fuzz_scan: rendering %s to memory failed\n", formats[f].name);
        abort();
    }
    od_renderer_free(r);
    if (fclose(out) != 0)
        abort();
    check_utf8(formats[f].name, buf, len, formats[f].allowed);
    if (formats[f].format == OD_FMT_JSON || formats[f].format == OD_FMT_NDJSON) {
        cJSON *doc = cJSON_ParseWithLength(buf, len);
        if (doc == NULL)
            fail("does not parse (%zu)", formats[f].name, buf, len, 0);
        cJSON_Delete(doc);
    }
    free(buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    int fd = memfd_create("fuzz_scan", 0);
    if (fd < 0)
        abort();
    for (size_t off = 0; off < size;) {
        ssize_t n = write(fd, data + off, size - off);
        if (n <= 0)
            abort();
        off += (size_t)n;
    }
    if (lseek(fd, 0, SEEK_SET) != 0)
        abort();

    od_job_reset(job);
    od_job_add_fd(job, fd, "logs/rank3.log");
    close(fd);
    struct od_report *rep = od_classify(job);
    if (rep == NULL)
        abort();
    for (size_t f = 0; f < sizeof formats / sizeof formats[0]; f++)
        render(rep, f);
    od_report_free(rep);

    /* The matcher switches off a signature after repeated PCRE2 limit hits;
     * a new one makes every input meet the same rules. */
    matcher_free(job->matcher);
    job->matcher = matcher_create(rules, &job->msgs);
    if (job->matcher == NULL)
        abort();
    return 0;
}
