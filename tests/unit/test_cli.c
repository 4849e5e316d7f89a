/* The command line: cli_parse on argv arrays, usage errors, colour policy. */
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "cli.h"

/* One parse: its options, its return value and what it wrote on ERR. */
struct parsed {
    struct cli_opts o;
    int rc;
    char *err;
    size_t err_len;
};

static struct parsed parsed;

static int teardown(void **state)
{
    (void)state;
    cli_free(&parsed.o);
    free(parsed.err);
    memset(&parsed, 0, sizeof parsed);
    return 0;
}

/* Parses "oomdiag" followed by ARGS (NULL-terminated). */
static int parse_args(const char *const *args)
{
    char *argv[32];
    int argc = 0;
    argv[argc++] = (char *)"oomdiag";
    for (size_t i = 0; args[i] != NULL; i++)
        argv[argc++] = (char *)args[i];
    argv[argc] = NULL;
    cli_free(&parsed.o);
    free(parsed.err);
    parsed.err = NULL;
    FILE *err = open_memstream(&parsed.err, &parsed.err_len);
    assert_non_null(err);
    parsed.rc = cli_parse(argc, argv, &parsed.o, err);
    fclose(err);
    return parsed.rc;
}

#define PARSE(...) parse_args((const char *const[]){__VA_ARGS__, NULL})

/* The parse failed with exactly this usage message. */
static void usage_error(const char *message)
{
    char expect[512];
    assert_int_equal(parsed.rc, -1);
    snprintf(expect, sizeof expect, "oomdiag: %s\nTry 'oomdiag --help' for more information.\n", message);
    assert_string_equal(parsed.err, expect);
}

static void ok(void)
{
    if (parsed.rc != 0)
        print_error("unexpected usage error: %s", parsed.err);
    assert_int_equal(parsed.rc, 0);
    assert_string_equal(parsed.err, "");
}

static void test_defaults(void **state)
{
    (void)state;
    parse_args((const char *const[]){NULL});
    ok();
    assert_int_equal(parsed.o.mode, CLI_DIAGNOSE);
    assert_int_equal(parsed.o.format, OD_FMT_TEXT);
    assert_int_equal(parsed.o.color, CLI_COLOR_AUTO);
    assert_int_equal(parsed.o.max_evidence, 5);
    assert_int_equal(parsed.o.path_count, 0);
    assert_int_equal(parsed.o.rule_path_count, 0);
    assert_int_equal(parsed.o.quiet, 0);
    assert_int_equal(parsed.o.no_messages, 0);
    assert_null(parsed.o.fail_on);
}

static void test_format_forms(void **state)
{
    (void)state;
    PARSE("--format=json");
    ok();
    assert_int_equal(parsed.o.format, OD_FMT_JSON);
    PARSE("-f", "json");
    ok();
    assert_int_equal(parsed.o.format, OD_FMT_JSON);
    PARSE("-fndjson");
    ok();
    assert_int_equal(parsed.o.format, OD_FMT_NDJSON);
    PARSE("--format", "junit", "x.log");
    ok();
    assert_int_equal(parsed.o.format, OD_FMT_JUNIT);
    assert_int_equal(parsed.o.path_count, 1);
    assert_string_equal(parsed.o.paths[0], "x.log");
    PARSE("--format=json", "--format=text"); /* the last one wins */
    ok();
    assert_int_equal(parsed.o.format, OD_FMT_TEXT);
}

static void test_format_invalid(void **state)
{
    (void)state;
    PARSE("--format", "bad");
    usage_error("invalid --format 'bad' (use text, json, ndjson, github, markdown or junit)");
    assert_non_null(strstr(parsed.err, "invalid --format"));
    PARSE("--format=JSON");
    usage_error("invalid --format 'JSON' (use text, json, ndjson, github, markdown or junit)");
    PARSE("-f", "");
    usage_error("invalid --format '' (use text, json, ndjson, github, markdown or junit)");
}

static void test_rules_repeated(void **state)
{
    (void)state;
    PARSE("--rules", "a.json", "--rules=dir/", "-r", "c.json", "-rd.json", "log.txt");
    ok();
    assert_int_equal(parsed.o.rule_path_count, 4);
    assert_string_equal(parsed.o.rule_paths[0], "a.json");
    assert_string_equal(parsed.o.rule_paths[1], "dir/");
    assert_string_equal(parsed.o.rule_paths[2], "c.json");
    assert_string_equal(parsed.o.rule_paths[3], "d.json");
    assert_int_equal(parsed.o.path_count, 1);
    assert_string_equal(parsed.o.paths[0], "log.txt");
}

static void test_stacked_short_options(void **state)
{
    (void)state;
    PARSE("-qs");
    ok();
    assert_int_equal(parsed.o.quiet, 1);
    assert_int_equal(parsed.o.no_messages, 1);
    assert_int_equal(parsed.o.binary_as_text, 0);
    PARSE("-sqa");
    ok();
    assert_int_equal(parsed.o.quiet, 1);
    assert_int_equal(parsed.o.no_messages, 1);
    assert_int_equal(parsed.o.binary_as_text, 1);
    /* A short option with a value ends the cluster: the rest is its value. */
    PARSE("-qfjson");
    ok();
    assert_int_equal(parsed.o.quiet, 1);
    assert_int_equal(parsed.o.format, OD_FMT_JSON);
    PARSE("-qf", "ndjson", "-s");
    ok();
    assert_int_equal(parsed.o.format, OD_FMT_NDJSON);
    assert_int_equal(parsed.o.no_messages, 1);
    assert_int_equal(parsed.o.path_count, 0);
    PARSE("-qx");
    usage_error("unknown option '-x'");
}

static void test_color_options(void **state)
{
    (void)state;
    PARSE("--color");
    ok();
    assert_int_equal(parsed.o.color, CLI_COLOR_AUTO); /* as grep: --color alone means auto */
    PARSE("--color=always");
    ok();
    assert_int_equal(parsed.o.color, CLI_COLOR_ALWAYS);
    PARSE("--colour=always");
    ok();
    assert_int_equal(parsed.o.color, CLI_COLOR_ALWAYS);
    PARSE("--color=never");
    ok();
    assert_int_equal(parsed.o.color, CLI_COLOR_NEVER);
    PARSE("--color=always", "--no-color");
    ok();
    assert_int_equal(parsed.o.color, CLI_COLOR_NEVER);
    PARSE("--no-color", "--color=auto");
    ok();
    assert_int_equal(parsed.o.color, CLI_COLOR_AUTO);
    /* The value is optional, so it must be attached: a separate word is a path. */
    PARSE("--color", "always");
    ok();
    assert_int_equal(parsed.o.color, CLI_COLOR_AUTO);
    assert_int_equal(parsed.o.path_count, 1);
    assert_string_equal(parsed.o.paths[0], "always");
    PARSE("--color=sometimes");
    usage_error("invalid --color value 'sometimes' (use auto, always or never)");
    PARSE("--no-color=yes");
    usage_error("option '--no-color' takes no value");
}

static void test_max_evidence(void **state)
{
    (void)state;
    PARSE("--max-evidence", "7");
    ok();
    assert_int_equal(parsed.o.max_evidence, 7);
    PARSE("--max-evidence=1000");
    ok();
    assert_int_equal(parsed.o.max_evidence, 1000);
    PARSE("--max-evidence", "0");
    usage_error("invalid --max-evidence '0' (a number from 1 to 1000)");
    PARSE("--max-evidence=1001");
    usage_error("invalid --max-evidence '1001' (a number from 1 to 1000)");
    PARSE("--max-evidence=-3");
    usage_error("invalid --max-evidence '-3' (a number from 1 to 1000)");
    PARSE("--max-evidence=3x");
    usage_error("invalid --max-evidence '3x' (a number from 1 to 1000)");
    PARSE("--max-evidence=");
    usage_error("invalid --max-evidence '' (a number from 1 to 1000)");
}

static void test_double_dash_then_paths(void **state)
{
    (void)state;
    PARSE("a.log", "--", "-q", "--format=json", "-", "--");
    ok();
    assert_int_equal(parsed.o.quiet, 0);
    assert_int_equal(parsed.o.format, OD_FMT_TEXT);
    assert_int_equal(parsed.o.path_count, 5);
    assert_string_equal(parsed.o.paths[0], "a.log");
    assert_string_equal(parsed.o.paths[1], "-q");
    assert_string_equal(parsed.o.paths[2], "--format=json");
    assert_string_equal(parsed.o.paths[3], "-");
    assert_string_equal(parsed.o.paths[4], "--");
    /* "-" alone is standard input, a path, wherever it is. */
    PARSE("-", "-q", "b.log");
    ok();
    assert_int_equal(parsed.o.quiet, 1);
    assert_int_equal(parsed.o.path_count, 2);
    assert_string_equal(parsed.o.paths[0], "-");
    assert_string_equal(parsed.o.paths[1], "b.log");
}

static void test_run_subcommand(void **state)
{
    (void)state;
    PARSE("run", "--always", "--log", "job.log.gz", "-f", "json", "--", "python", "train.py", "-q", "--lr=3");
    ok();
    assert_int_equal(parsed.o.mode, CLI_RUN);
    assert_int_equal(parsed.o.always, 1);
    assert_string_equal(parsed.o.log, "job.log.gz");
    assert_int_equal(parsed.o.format, OD_FMT_JSON);
    assert_int_equal(parsed.o.quiet, 0); /* the command's -q is the command's */
    assert_string_equal(parsed.o.command[0], "python");
    assert_string_equal(parsed.o.command[3], "--lr=3");
    assert_null(parsed.o.command[4]);
    assert_int_equal(parsed.o.path_count, 0);
    /* the first word that is not an option starts the command, as env(1) */
    PARSE("run", "-q", "sh", "-c", "exit 3");
    ok();
    assert_int_equal(parsed.o.quiet, 1);
    assert_string_equal(parsed.o.command[0], "sh");
    assert_string_equal(parsed.o.command[2], "exit 3");
    PARSE("run", "--report=r.json");
    usage_error("run: no command given (oomdiag run [OPTION]... -- CMD [ARG]...)");
    PARSE("run", "--");
    usage_error("run: no command given (oomdiag run [OPTION]... -- CMD [ARG]...)");
    PARSE("run", "--tee", "--", "true");
    usage_error("--tee is not for 'oomdiag run'");
    /* "run" is the subcommand only as the first word */
    PARSE("a.log", "run");
    ok();
    assert_int_equal(parsed.o.mode, CLI_DIAGNOSE);
    assert_int_equal(parsed.o.path_count, 2);
}

static void test_live_options(void **state)
{
    (void)state;
    PARSE("--follow", "train.log", "--format=ndjson", "--no-progress");
    ok();
    assert_string_equal(parsed.o.follow, "train.log");
    assert_int_equal(parsed.o.progress, CLI_PROGRESS_NEVER);
    PARSE("--tee", "--progress");
    ok();
    assert_int_equal(parsed.o.tee, 1);
    assert_int_equal(parsed.o.progress, CLI_PROGRESS_ALWAYS);
    PARSE("--tee", "a.log");
    usage_error("--tee reads standard input: no PATH");
    PARSE("--tee", "--follow=x.log");
    usage_error("--tee and --follow do not go together");
    PARSE("--always", "a.log");
    usage_error("--always is for 'oomdiag run'");
    PARSE("--facts", "f.txt", "a.log");
    usage_error("--facts is for 'oomdiag run'");
}

static void test_unknown_option(void **state)
{
    (void)state;
    PARSE("--bogus");
    usage_error("unknown option '--bogus'");
    PARSE("--bogus=1");
    usage_error("unknown option '--bogus=1'");
    PARSE("-z");
    usage_error("unknown option '-z'");
    PARSE("--form=json"); /* no abbreviations */
    usage_error("unknown option '--form=json'");
    PARSE("--quiet=yes");
    usage_error("option '--quiet' takes no value");
}

static void test_missing_value(void **state)
{
    (void)state;
    PARSE("--rules");
    usage_error("option '--rules' needs a value");
    PARSE("x.log", "--format");
    usage_error("option '--format' needs a value");
    PARSE("-f");
    usage_error("option '-f' needs a value");
    PARSE("-qr");
    usage_error("option '-r' needs a value");
}

static void test_modes_and_values(void **state)
{
    (void)state;
    PARSE("--help");
    ok();
    assert_int_equal(parsed.o.mode, CLI_HELP);
    PARSE("-V");
    ok();
    assert_int_equal(parsed.o.mode, CLI_VERSION);
    PARSE("--check-rules", "rules/");
    ok();
    assert_int_equal(parsed.o.mode, CLI_CHECK_RULES);
    assert_int_equal(parsed.o.path_count, 1);
    PARSE("--explain", "gpu-oom");
    ok();
    assert_int_equal(parsed.o.mode, CLI_EXPLAIN);
    assert_string_equal(parsed.o.explain, "gpu-oom");
    PARSE("--fail-on=gpu-oom,high", "--one-job", "--trace", "--no-builtin-rules");
    ok();
    assert_string_equal(parsed.o.fail_on, "gpu-oom,high");
    assert_int_equal(parsed.o.one_job, 1);
    assert_int_equal(parsed.o.trace, 1);
    assert_int_equal(parsed.o.no_builtin_rules, 1);
    PARSE("--binary-files=text");
    ok();
    assert_int_equal(parsed.o.binary_as_text, 1);
    PARSE("-a", "--binary-files", "binary");
    ok();
    assert_int_equal(parsed.o.binary_as_text, 0);
    PARSE("--binary-files=maybe");
    usage_error("invalid --binary-files type 'maybe' (use binary or text)");
}

/* ---- cli_use_color ---------------------------------------------------------- */

static int tty_fd = -1, pty_master = -1;

static int color_setup(void **state)
{
    (void)state;
    /* A pseudo-terminal stands in for a terminal on stdout. */
    pty_master = posix_openpt(O_RDWR | O_NOCTTY);
    if (pty_master >= 0 && grantpt(pty_master) == 0 && unlockpt(pty_master) == 0)
        tty_fd = open(ptsname(pty_master), O_RDWR | O_NOCTTY);
    unsetenv("NO_COLOR");
    setenv("TERM", "xterm-256color", 1);
    return 0;
}

static int color_teardown(void **state)
{
    (void)state;
    if (tty_fd >= 0)
        close(tty_fd);
    if (pty_master >= 0)
        close(pty_master);
    tty_fd = pty_master = -1;
    unsetenv("NO_COLOR");
    return teardown(state);
}

static void test_use_color_no_color_env(void **state)
{
    (void)state;
    int p[2];
    assert_int_equal(pipe(p), 0);

    PARSE("x.log");
    ok();
    assert_int_equal(cli_use_color(&parsed.o, p[1]), 0); /* not a terminal */
    if (tty_fd < 0) {
        close(p[0]);
        close(p[1]);
        skip(); /* no pseudo-terminals here */
    }
    assert_true(isatty(tty_fd));
    assert_int_equal(cli_use_color(&parsed.o, tty_fd), 1);
    setenv("NO_COLOR", "1", 1);
    assert_int_equal(cli_use_color(&parsed.o, tty_fd), 0);
    setenv("NO_COLOR", "", 1); /* set but empty: ignored, as no-color.org says */
    assert_int_equal(cli_use_color(&parsed.o, tty_fd), 1);
    unsetenv("NO_COLOR");
    setenv("TERM", "dumb", 1);
    assert_int_equal(cli_use_color(&parsed.o, tty_fd), 0);
    setenv("TERM", "xterm-256color", 1);

    /* --color=always wins over NO_COLOR, TERM and a pipe. */
    setenv("NO_COLOR", "1", 1);
    setenv("TERM", "dumb", 1);
    PARSE("--color=always");
    ok();
    assert_int_equal(cli_use_color(&parsed.o, p[1]), 1);
    assert_int_equal(cli_use_color(&parsed.o, tty_fd), 1);
    PARSE("--color=never");
    ok();
    unsetenv("NO_COLOR");
    setenv("TERM", "xterm-256color", 1);
    assert_int_equal(cli_use_color(&parsed.o, tty_fd), 0);
    close(p[0]);
    close(p[1]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(test_defaults, teardown),
        cmocka_unit_test_teardown(test_format_forms, teardown),
        cmocka_unit_test_teardown(test_format_invalid, teardown),
        cmocka_unit_test_teardown(test_rules_repeated, teardown),
        cmocka_unit_test_teardown(test_stacked_short_options, teardown),
        cmocka_unit_test_teardown(test_color_options, teardown),
        cmocka_unit_test_teardown(test_max_evidence, teardown),
        cmocka_unit_test_teardown(test_double_dash_then_paths, teardown),
        cmocka_unit_test_teardown(test_run_subcommand, teardown),
        cmocka_unit_test_teardown(test_live_options, teardown),
        cmocka_unit_test_teardown(test_unknown_option, teardown),
        cmocka_unit_test_teardown(test_missing_value, teardown),
        cmocka_unit_test_teardown(test_modes_and_values, teardown),
        cmocka_unit_test_setup_teardown(test_use_color_no_color_env, color_setup, color_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
