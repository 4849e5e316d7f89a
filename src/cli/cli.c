#include "cli.h"

#include "live.h"
#include "stall.h"

#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

enum opt_id {
    OPT_ALWAYS,
    OPT_BINARY_FILES,
    OPT_CHECK_RULES,
    OPT_COLOR,
    OPT_COMPACT,
    OPT_EACH,
    OPT_EXIT_BY_DECISION,
    OPT_EXPLAIN,
    OPT_FACTS,
    OPT_FAIL_ON,
    OPT_FILES_FROM,
    OPT_FOLLOW,
    OPT_FORMAT,
    OPT_HELP,
    OPT_JOBS,
    OPT_LANG,
    OPT_LIST_RULES,
    OPT_LOG,
    OPT_MAX_EVIDENCE,
    OPT_NO_BUILTIN,
    OPT_NO_COLOR,
    OPT_NO_MESSAGES,
    OPT_NO_NVML,
    OPT_NO_PROGRESS,
    OPT_ONE_JOB,
    OPT_PROGRESS,
    OPT_QUIET,
    OPT_REPORT,
    OPT_RULES,
    OPT_SHOW_PATTERNS,
    OPT_STALL,
    OPT_STALL_SIGNAL,
    OPT_TEE,
    OPT_TEXT,
    OPT_TRACE,
    OPT_VERBOSE,
    OPT_VERSION
};
enum arg_kind { ARG_NONE, ARG_REQUIRED, ARG_OPTIONAL };

struct option_def {
    const char *name;
    char short_name;
    enum arg_kind arg;
    enum opt_id id;
};

/* Sorted by name. */
static const struct option_def options[] = {
    {"always", 0, ARG_NONE, OPT_ALWAYS},
    {"binary-files", 0, ARG_REQUIRED, OPT_BINARY_FILES},
    {"check-rules", 0, ARG_NONE, OPT_CHECK_RULES},
    {"color", 0, ARG_OPTIONAL, OPT_COLOR},
    {"colour", 0, ARG_OPTIONAL, OPT_COLOR},
    {"compact", 0, ARG_NONE, OPT_COMPACT},
    {"each", 0, ARG_NONE, OPT_EACH},
    {"exit-by-decision", 0, ARG_NONE, OPT_EXIT_BY_DECISION},
    {"explain", 0, ARG_REQUIRED, OPT_EXPLAIN},
    {"facts", 0, ARG_REQUIRED, OPT_FACTS},
    {"fail-on", 0, ARG_REQUIRED, OPT_FAIL_ON},
    {"files-from", 0, ARG_REQUIRED, OPT_FILES_FROM},
    {"follow", 0, ARG_REQUIRED, OPT_FOLLOW},
    {"format", 'f', ARG_REQUIRED, OPT_FORMAT},
    {"help", 'h', ARG_NONE, OPT_HELP},
    {"jobs", 'j', ARG_REQUIRED, OPT_JOBS},
    {"lang", 0, ARG_REQUIRED, OPT_LANG},
    {"list-rules", 0, ARG_NONE, OPT_LIST_RULES},
    {"log", 0, ARG_REQUIRED, OPT_LOG},
    {"max-evidence", 0, ARG_REQUIRED, OPT_MAX_EVIDENCE},
    {"no-builtin-rules", 0, ARG_NONE, OPT_NO_BUILTIN},
    {"no-color", 0, ARG_NONE, OPT_NO_COLOR},
    {"no-messages", 's', ARG_NONE, OPT_NO_MESSAGES},
    {"no-nvml", 0, ARG_NONE, OPT_NO_NVML},
    {"no-progress", 0, ARG_NONE, OPT_NO_PROGRESS},
    {"one-job", 0, ARG_NONE, OPT_ONE_JOB},
    {"progress", 0, ARG_NONE, OPT_PROGRESS},
    {"quiet", 'q', ARG_NONE, OPT_QUIET},
    {"report", 0, ARG_REQUIRED, OPT_REPORT},
    {"rules", 'r', ARG_REQUIRED, OPT_RULES},
    {"show-patterns", 0, ARG_REQUIRED, OPT_SHOW_PATTERNS},
    {"stall", 0, ARG_REQUIRED, OPT_STALL},
    {"stall-signal", 0, ARG_REQUIRED, OPT_STALL_SIGNAL},
    {"tee", 0, ARG_NONE, OPT_TEE},
    {"text", 'a', ARG_NONE, OPT_TEXT},
    {"trace", 0, ARG_NONE, OPT_TRACE},
    {"verbose", 'v', ARG_NONE, OPT_VERBOSE},
    {"version", 'V', ARG_NONE, OPT_VERSION},
};

/* Writes the formats' names, separated by SEP and the last two by LAST;
 * the first (the default) with FIRST after it. */
static void put_formats(FILE *out, const char *first, const char *sep, const char *last)
{
    for (size_t i = 0; od_format_name(i) != NULL; i++) {
        if (i > 0)
            fputs(od_format_name(i + 1) == NULL ? last : sep, out);
        fputs(od_format_name(i), out);
        if (i == 0)
            fputs(first, out);
    }
}

/* The help after the output format: the other options and the exit status. */
static void help_options(FILE *out)
{
    fputs("      --compact          JSON and NDJSON: compact records (3 evidence lines cut\n"
          "                         short, the first fix only; all: --explain CAUSE)\n"
          "      --trace            show which rule matched each line and why causes ranked so\n"
          "  -v, --verbose          the full text report on a terminal too (there it is\n"
          "                         concise by default: fits the width, three fixes)\n"
          "  -q, --quiet            print nothing; the exit status tells\n"
          "  -s, --no-messages      do not report unreadable inputs\n"
          "      --lang=LANG        language of the explanations: en, zh-Hans (zh_CN);\n"
          "                         default from LC_ALL, LC_MESSAGES, LANG, LANGUAGE\n"
          "\n"
          "Input:\n"
          "      --one-job          treat all PATHs as one job\n"
          "      --each             every file its own job, those under a DIRECTORY too\n"
          "  -j, --jobs=N           scan inputs in N worker processes; the reports come\n"
          "                         out in input order, as without -j\n"
          "      --files-from=FILE  read the PATHs from FILE (- for standard input), one\n"
          "                         per line or NUL-separated (find -print0)\n"
          "      --tee              copy standard input to stdout as it arrives; the\n"
          "                         diagnosis goes to stderr at the end\n"
          "      --follow=FILE      read FILE as it grows (as tail -F: across rotation and\n"
          "                         truncation), reporting each failure once complete;\n"
          "                         a DIRECTORY: every file under it, as one job\n"
          "      --progress         show the progress line at once (default: on a terminal,\n"
          "                         after half a second)\n"
          "      --no-progress      never show the progress line\n"
          "  -a, --text             scan binary files (mostly not text) as text\n"
          "      --binary-files=TYPE  'binary' (skip, the default) or 'text'\n"
          "\n"
          "Rules:\n"
          "  -r, --rules=PATH       add a rule file, or a directory of *.json (repeatable)\n"
          "      --no-builtin-rules leave the embedded rules out\n"
          "      --check-rules [PATH...]  load rules and check every sample line\n"
          "      --list-rules       list signatures: id, cause, role, framework\n"
          "      --explain=CAUSE    explain a cause and its remediation\n"
          "      --show-patterns=ID show the pattern of each signature ID (a glob) names,\n"
          "                         unescaped, with its fragments expanded\n"
          "      --fail-on=LIST     exit 0 only for diagnoses of these causes (ids as\n"
          "                         --list-rules shows) or of at least this confidence\n"
          "                         (low, medium, high), comma-separated\n"
          "\n"
          "  -h, --help             show this help\n"
          "  -V, --version          show the version and the rule set's version\n"
          "\n"
          "Exit status: 0 a failure was diagnosed, 1 none was, 2 trouble (bad usage,\n"
          "an unreadable input, invalid rules, a failed write); oomdiag run: CMD's.\n",
          out);
}

void cli_help(FILE *out)
{
    fputs("Usage: oomdiag run [OPTION]... -- CMD [ARG]...\n"
          "  or:  oomdiag [OPTION]... [PATH]...\n"
          "Diagnose why a GPU training or inference job crashed, from its logs.\n"
          "\n"
          "oomdiag run runs CMD (the recommended way to run a job): its output passes\n"
          "through unchanged, and when it fails the diagnosis goes to stderr, with what\n"
          "only the parent sees (exit status, signal, peak RSS, cgroup OOM kills).\n"
          "oomdiag run exits with CMD's status (128+N when signal N killed it).\n"
          "      --always           print the diagnosis even when CMD succeeded\n"
          "      --exit-by-decision when CMD failed, exit with the root cause's decision:\n"
          "                         75 retry, 76 retry-elsewhere, 77 change-and-retry,\n"
          "                         78 stop (CMD's status when nothing was diagnosed)\n"
          "      --report=FILE      write the diagnosis to FILE instead of stderr\n"
          "      --log=FILE         keep a copy of CMD's output (gzip if FILE ends in .gz)\n"
          "      --facts=FILE       write what oomdiag saw as the parent (exit, peak RSS,\n"
          "                         cgroup counters) to FILE, as lines a later run can read\n"
          "      --stall=DURATION   report a stall when CMD prints nothing (and its GPUs\n"
          "                         are idle) for DURATION (30s, 5m, 1h; also --follow)\n"
          "      --stall-signal=SIG send SIG (TERM, INT, KILL...) to CMD after a stall report\n"
          "      --no-nvml          do not sample GPU memory through NVML\n"
          "\n"
          "With no PATH, or PATH -, read standard input. Each FILE is one job; a\n"
          "DIRECTORY is one job made of every file under it (one log per rank).\n"
          "Files compressed with gzip, xz, bzip2 or zstd are read decompressed.\n"
          "\n"
          "Output:\n"
          "  -f, --format=FMT       ",
          out);
    put_formats(out, " (default)", ", ", ", ");
    fprintf(out,
            "\n"
            "      --color[=WHEN]     colour text output: auto (default), always, never\n"
            "      --no-color         same as --color=never\n"
            "      --max-evidence=N   evidence lines shown per diagnosis in text (default %d)\n",
            OD_MAX_EVIDENCE_DEFAULT);
    help_options(out);
}

static void usage_error(FILE *err, const char *fmt, const char *arg)
{
    fputs("oomdiag: ", err);
    fprintf(err, fmt, arg);
    fputs("\nTry 'oomdiag --help' for more information.\n", err);
}

static const struct option_def *find_long(const char *name, size_t len)
{
    size_t lo = 0, hi = sizeof options / sizeof options[0];
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        int c = strncmp(name, options[mid].name, len);
        if (c == 0 && options[mid].name[len] != '\0')
            c = -1;
        if (c == 0)
            return &options[mid];
        if (c < 0)
            hi = mid;
        else
            lo = mid + 1;
    }
    return NULL;
}

static const struct option_def *find_short(char c)
{
    for (size_t i = 0; i < sizeof options / sizeof options[0]; i++)
        if (options[i].short_name == c)
            return &options[i];
    return NULL;
}

static int push(const char ***list, size_t *count, const char *item)
{
    const char **p = realloc(*list, (*count + 1) * sizeof *p);
    if (p == NULL)
        return -1;
    p[(*count)++] = item;
    *list = p;
    return 0;
}

static int apply_binary_files(struct cli_opts *o, const char *arg, FILE *err)
{
    if (strcmp(arg, "text") == 0)
        o->binary_as_text = 1;
    else if (strcmp(arg, "binary") == 0 || strcmp(arg, "without-match") == 0)
        o->binary_as_text = 0;
    else {
        usage_error(err, "invalid --binary-files type '%s' (use binary or text)", arg);
        return -1;
    }
    return 0;
}

static int apply_color(struct cli_opts *o, const char *arg, FILE *err)
{
    if (arg == NULL || !strcmp(arg, "always") || !strcmp(arg, "yes") || !strcmp(arg, "force"))
        o->color = arg ? CLI_COLOR_ALWAYS : CLI_COLOR_AUTO;
    else if (!strcmp(arg, "never") || !strcmp(arg, "no") || !strcmp(arg, "none"))
        o->color = CLI_COLOR_NEVER;
    else if (!strcmp(arg, "auto") || !strcmp(arg, "tty") || !strcmp(arg, "if-tty"))
        o->color = CLI_COLOR_AUTO;
    else {
        usage_error(err, "invalid --color value '%s' (use auto, always or never)", arg);
        return -1;
    }
    return 0;
}

static int apply_format(struct cli_opts *o, const char *arg, FILE *err)
{
    if (od_format_named(arg, &o->format) == 0)
        return 0;
    char *names = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&names, &len);
    if (m != NULL) {
        fprintf(m, "invalid --format '%s' (use ", arg);
        put_formats(m, "", ", ", " or ");
        fputc(')', m);
    }
    if (m == NULL || fclose(m) != 0)
        usage_error(err, "invalid --format '%s'", arg);
    else
        usage_error(err, "%s", names);
    free(names);
    return -1;
}

/* ARG as a whole number from LO to HI into *OUT; else MESSAGE (with ARG). */
static int number(const char *arg, long lo, long hi, int *out, FILE *err, const char *message)
{
    char *end = NULL;
    long n = strtol(arg, &end, 10);
    if (end == arg || *end != '\0' || n < lo || n > hi) {
        usage_error(err, message, arg);
        return -1;
    }
    *out = (int)n;
    return 0;
}

static int apply(struct cli_opts *o, const struct option_def *def, const char *arg, FILE *err)
{
    switch (def->id) {
    case OPT_ALWAYS: o->always = 1; return 0;
    case OPT_EXIT_BY_DECISION: o->exit_by_decision = 1; return 0;
    case OPT_BINARY_FILES: return apply_binary_files(o, arg, err);
    case OPT_CHECK_RULES:
        if (o->mode != CLI_SHOW_PATTERNS) /* --check-rules --show-patterns ID shows */
            o->mode = CLI_CHECK_RULES;
        return 0;
    case OPT_COLOR: return apply_color(o, arg, err);
    case OPT_EXPLAIN:
        o->mode = CLI_EXPLAIN;
        o->explain = arg;
        return 0;
    case OPT_EACH: o->each = 1; return 0;
    case OPT_FACTS: o->facts = arg; return 0;
    case OPT_FAIL_ON: o->fail_on = arg; return 0;
    case OPT_FILES_FROM: o->files_from = arg; return 0;
    case OPT_FOLLOW: o->follow = arg; return 0;
    case OPT_STALL:
        if (stall_parse_duration(arg, &o->stall_s) != 0) {
            usage_error(err, "invalid --stall duration '%s' (use 30, 30s, 500ms, 5m or 1h)", arg);
            return -1;
        }
        return 0;
    case OPT_STALL_SIGNAL:
        if (stall_parse_signal(arg, &o->stall_signal) != 0) {
            usage_error(err, "invalid --stall-signal '%s' (use a name such as TERM or INT, or a number)", arg);
            return -1;
        }
        return 0;
    case OPT_NO_NVML: o->no_nvml = 1; return 0;
    case OPT_FORMAT: return apply_format(o, arg, err);
    case OPT_HELP: o->mode = CLI_HELP; return 0;
    case OPT_LANG: o->lang = arg; return 0;
    case OPT_JOBS: return number(arg, 1, 256, &o->jobs, err, "invalid -j '%s' (a number of workers from 1 to 256)");
    case OPT_LIST_RULES: o->mode = CLI_LIST_RULES; return 0;
    case OPT_LOG: o->log = arg; return 0;
    case OPT_MAX_EVIDENCE:
        return number(arg, 1, 1000, &o->max_evidence, err, "invalid --max-evidence '%s' (a number from 1 to 1000)");
    case OPT_NO_BUILTIN: o->no_builtin_rules = 1; return 0;
    case OPT_NO_COLOR: o->color = CLI_COLOR_NEVER; return 0;
    case OPT_NO_MESSAGES: o->no_messages = 1; return 0;
    case OPT_NO_PROGRESS: o->progress = CLI_PROGRESS_NEVER; return 0;
    case OPT_ONE_JOB: o->one_job = 1; return 0;
    case OPT_PROGRESS: o->progress = CLI_PROGRESS_ALWAYS; return 0;
    case OPT_QUIET: o->quiet = 1; return 0;
    case OPT_REPORT: o->report = arg; return 0;
    case OPT_RULES: return push(&o->rule_paths, &o->rule_path_count, arg);
    case OPT_SHOW_PATTERNS:
        o->mode = CLI_SHOW_PATTERNS;
        o->show_patterns = arg;
        return 0;
    case OPT_TEE: o->tee = 1; return 0;
    case OPT_TEXT: o->binary_as_text = 1; return 0;
    case OPT_TRACE: o->trace = 1; return 0;
    case OPT_COMPACT: o->compact = 1; return 0;
    case OPT_VERBOSE: o->verbose = 1; return 0;
    case OPT_VERSION: o->mode = CLI_VERSION; return 0;
    }
    return 0;
}

/* Options that belong to one way of running only. 0, or -1 after a message. */
static int check_modes(const struct cli_opts *o, FILE *err)
{
    if (o->mode != CLI_RUN && o->mode != CLI_DIAGNOSE)
        return 0;
    if (o->stall_signal && !o->stall_s) {
        usage_error(err, "%s", "--stall-signal needs --stall=DURATION");
        return -1;
    }
    if (o->mode == CLI_RUN) {
        if (o->command == NULL) {
            usage_error(err, "%s", "run: no command given (oomdiag run [OPTION]... -- CMD [ARG]...)");
            return -1;
        }
        if (o->tee || o->follow) {
            usage_error(err, "%s", o->tee ? "--tee is not for 'oomdiag run'" : "--follow is not for 'oomdiag run'");
            return -1;
        }
        return 0;
    }
    if (o->stall_signal && o->mode != CLI_RUN) {
        usage_error(err, "%s", "--stall-signal is for 'oomdiag run'");
        return -1;
    }
    if (o->stall_s && !o->follow) {
        usage_error(err, "%s", "--stall is for 'oomdiag run' and --follow");
        return -1;
    }
    const char *only_run = o->always             ? "--always"
                           : o->log              ? "--log"
                           : o->report           ? "--report"
                           : o->facts            ? "--facts"
                           : o->exit_by_decision ? "--exit-by-decision"
                                                 : NULL;
    if (only_run != NULL) {
        usage_error(err, "%s is for 'oomdiag run'", only_run);
        return -1;
    }
    if (o->tee && o->follow) {
        usage_error(err, "%s", "--tee and --follow do not go together");
        return -1;
    }
    if ((o->tee || o->follow) && o->files_from != NULL) {
        usage_error(err, "%s",
                    o->tee ? "--tee reads standard input: no --files-from" : "--follow FILE takes no --files-from");
        return -1;
    }
    if ((o->tee || o->follow) && (o->path_count > 1 || (o->path_count == 1 && strcmp(o->paths[0], "-") != 0))) {
        usage_error(err, "%s", o->tee ? "--tee reads standard input: no PATH" : "--follow FILE takes no other PATH");
        return -1;
    }
    return 0;
}

/* argv[*I], a long option ("--name" or "--name=value"); its value may be
 * the next word (then *I moves on). 0, or -1 after a message. */
static int parse_long(struct cli_opts *o, int argc, char **argv, int *i, FILE *err)
{
    const char *a = argv[*i], *name = a + 2, *eq = strchr(name, '=');
    size_t len = eq ? (size_t)(eq - name) : strlen(name);
    const struct option_def *def = find_long(name, len);
    const char *arg = eq ? eq + 1 : NULL;
    if (def == NULL) {
        usage_error(err, "unknown option '%s'", a);
        return -1;
    }
    if (def->arg == ARG_NONE && arg != NULL) {
        usage_error(err, "option '--%s' takes no value", def->name);
        return -1;
    }
    if (def->arg == ARG_REQUIRED && arg == NULL) {
        if (*i + 1 >= argc) {
            usage_error(err, "option '--%s' needs a value", def->name);
            return -1;
        }
        arg = argv[++*i];
    }
    return apply(o, def, arg, err);
}

/* argv[*I], short options ("-qv", "-j4", "-j 4"). 0, or -1 after a message. */
static int parse_short(struct cli_opts *o, int argc, char **argv, int *i, FILE *err)
{
    for (const char *p = argv[*i] + 1; *p; p++) {
        const struct option_def *def = find_short(*p);
        const char *arg = NULL;
        char opt[3] = {'-', *p, '\0'};
        if (def == NULL) {
            usage_error(err, "unknown option '%s'", opt);
            return -1;
        }
        if (def->arg == ARG_REQUIRED) {
            if (p[1] != '\0')
                arg = p + 1;
            else if (*i + 1 < argc)
                arg = argv[++*i];
            else {
                usage_error(err, "option '%s' needs a value", opt);
                return -1;
            }
        }
        if (apply(o, def, arg, err) != 0)
            return -1;
        if (arg != NULL)
            break;
    }
    return 0;
}

int cli_parse(int argc, char **argv, struct cli_opts *o, FILE *err)
{
    int only_paths = 0, first = 1;
    memset(o, 0, sizeof *o);
    o->max_evidence = OD_MAX_EVIDENCE_DEFAULT;
    if (argc > 1 && strcmp(argv[1], "run") == 0) {
        o->mode = CLI_RUN;
        first = 2;
    }
    for (int i = first; i < argc; i++) {
        const char *a = argv[i];
        if (o->mode == CLI_RUN && (strcmp(a, "--") == 0 || a[0] != '-' || strcmp(a, "-") == 0)) {
            int at = strcmp(a, "--") == 0 ? i + 1 : i;
            if (at < argc)
                o->command = &argv[at];
            break;
        }
        if (only_paths || a[0] != '-' || strcmp(a, "-") == 0) {
            if (push(&o->paths, &o->path_count, a) != 0)
                return -1;
            continue;
        }
        if (strcmp(a, "--") == 0) {
            only_paths = 1;
            continue;
        }
        if ((a[1] == '-' ? parse_long : parse_short)(o, argc, argv, &i, err) != 0)
            return -1;
    }
    if (o->each && o->one_job) {
        usage_error(err, "%s", "--each and --one-job contradict each other");
        return -1;
    }
    return check_modes(o, err);
}

void cli_free(struct cli_opts *o)
{
    free(o->rule_paths);
    free(o->paths);
    o->rule_paths = NULL;
    o->paths = NULL;
}

int cli_use_color(const struct cli_opts *o, int fd)
{
    if (o->color != CLI_COLOR_AUTO)
        return o->color == CLI_COLOR_ALWAYS;
    const char *no_color = getenv("NO_COLOR"), *term = getenv("TERM");
    const char *force = getenv("FORCE_COLOR"), *clicolor = getenv("CLICOLOR_FORCE");
    if (no_color != NULL && no_color[0] != '\0')
        return 0;
    /* FORCE_COLOR (force-color.org: set and not empty) and CLICOLOR_FORCE
     * (bixense.com/clicolors: set and not "0") colour a pipe too; NO_COLOR
     * and --color win over them. */
    if (force != NULL && force[0] != '\0')
        return 1;
    if (clicolor != NULL && clicolor[0] != '\0' && strcmp(clicolor, "0") != 0)
        return 1;
    if (term != NULL && strcmp(term, "dumb") == 0)
        return 0;
    return isatty(fd);
}

int cli_text_width(const struct cli_opts *o, int fd)
{
    if (o->verbose || o->format != OD_FMT_TEXT || !isatty(fd))
        return 0;
    struct winsize ws;
    long cols = 0;
    if (ioctl(fd, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
        cols = ws.ws_col;
    const char *env = getenv("COLUMNS");
    if (cols == 0 && env != NULL)
        cols = strtol(env, NULL, 10);
    if (cols <= 0)
        cols = 80;
    return cols < 40 ? 40 : cols > 1000 ? 1000 : (int)cols;
}

void cli_live_spec(const struct cli_opts *opts, struct live_spec *spec)
{
    *spec = (struct live_spec){opts->command,      opts->report,          opts->log,
                               opts->facts,        opts->always,          opts->quiet,
                               opts->no_messages,  opts->binary_as_text,  opts->trace,
                               opts->max_evidence, opts->format,          cli_use_color(opts, STDERR_FILENO),
                               opts->compact,      opts->no_nvml,         opts->stall_s,
                               opts->stall_signal, opts->exit_by_decision};
}
