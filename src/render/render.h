/* The output formats as a table (as GNU grep's matchers[]): each
 * render_NAME.c defines one `const struct render_format` (render_json.c
 * two: json and ndjson), and render.c's od_renderer_* walk the table.  A
 * format keeps what it must hold until the end (the JSON document's jobs,
 * the GitHub counters, JUnit's testcases) in a state of its own, which its
 * create makes and its free releases; no format reaches into another's.
 * The numbers every format shows by are named here once. */
#ifndef OOMDIAG_RENDER_H
#define OOMDIAG_RENDER_H

#include "oomdiag/oomdiag.h"

enum {
    RENDER_EVIDENCE_WIDTH = 400,     /* display columns (bytes in Markdown) of an evidence line */
    RENDER_CONSEQUENCE_EVIDENCE = 3, /* evidence lines shown for a consequence */
    RENDER_MAX_EVIDENCE = OD_MAX_EVIDENCE_DEFAULT /* evidence lines per diagnosis when --max-evidence is not given */
};

struct od_renderer;

struct render_format {
    const char *name; /* as --format spells it */
    enum od_format id;
    /* The format's state for R (R's out and opts are set), or NULL when
     * out of memory; NULL here: the format keeps no state. */
    void *(*create)(const struct od_renderer *r);
    /* Writes one job's report: 0, or -1 on an error. */
    int (*job)(struct od_renderer *r, const struct od_report *rep);
    /* Closes the document after the last job (NULL: nothing to close). */
    int (*finish)(struct od_renderer *r);
    /* Releases the state (NULL: free() does). */
    void (*free)(void *state);
};

extern const struct render_format render_text_format, render_json_format, render_ndjson_format, render_github_format,
    render_markdown_format, render_junit_format;

/* Every format, in the order --help lists them (the first is the
 * default), NULL-terminated. */
extern const struct render_format *const render_formats[];

/* The format called NAME, or NULL. */
const struct render_format *render_format_named(const char *name);

#endif
