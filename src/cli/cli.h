/* The command line: one option table parsed into struct cli_opts, usage
 * and help text, colour policy.  cli_opts owns its path arrays; cli_free
 * releases them. */
#ifndef OOMDIAG_CLI_H
#define OOMDIAG_CLI_H

#include <stdio.h>

#include "oomdiag/oomdiag.h"

enum cli_mode {
    CLI_DIAGNOSE,
    CLI_HELP,
    CLI_VERSION,
    CLI_CHECK_RULES,
    CLI_LIST_RULES,
    CLI_EXPLAIN,
    CLI_SHOW_PATTERNS,
    CLI_RUN
};
enum cli_progress { CLI_PROGRESS_AUTO, CLI_PROGRESS_ALWAYS, CLI_PROGRESS_NEVER };
enum cli_color { CLI_COLOR_AUTO, CLI_COLOR_ALWAYS, CLI_COLOR_NEVER };

struct cli_opts {
    enum cli_mode mode;
    enum od_format format;
    enum cli_color color;
    int no_builtin_rules, one_job, each, quiet, no_messages, binary_as_text, trace, max_evidence, verbose, jobs;
    const char **rule_paths;
    size_t rule_path_count;
    const char **paths;
    size_t path_count;
    const char *explain;
    const char *show_patterns; /* --show-patterns GLOB */
    const char *fail_on;       /* comma-separated causes and/or a confidence */
    const char *lang;          /* --lang, or NULL: from the environment */
    const char *files_from;    /* --files-from FILE, or NULL */
    /* oomdiag run [OPTION]... -- CMD [ARG]... */
    char **command;                   /* CMD and its arguments, NULL-terminated (points into argv) */
    int always;                       /* --always: the diagnosis also when the job succeeded */
    int compact;                      /* --compact: compact JSON and NDJSON records */
    int exit_by_decision;             /* --exit-by-decision: a failed job's status tells the decision */
    const char *report, *log, *facts; /* --report, --log, --facts FILE */
    double stall_s;                   /* --stall=DURATION in seconds (run and --follow); 0: off */
    int stall_signal;                 /* --stall-signal=SIG, 0: none */
    int no_nvml;                      /* --no-nvml: no GPU memory sampling */
    /* live input */
    int tee;
    const char *follow;
    enum cli_progress progress;
};

/* Parses ARGV. Returns 0, or -1 after printing a usage error on ERR. */
int cli_parse(int argc, char **argv, struct cli_opts *opts, FILE *err);
void cli_free(struct cli_opts *opts);
void cli_help(FILE *out);
/* Resolves --color=auto for stdout: a tty, TERM not dumb, NO_COLOR unset. */
int cli_use_color(const struct cli_opts *opts, int fd);
/* The columns of the concise text report: FD's terminal width (COLUMNS
 * where the terminal does not say; at least 40), or 0 for the full report
 * (not a terminal, another format, or --verbose). */
int cli_text_width(const struct cli_opts *opts, int fd);
/* What `run` and --tee are asked to do, from OPTS. */
struct live_spec;
void cli_live_spec(const struct cli_opts *opts, struct live_spec *spec);

#endif
