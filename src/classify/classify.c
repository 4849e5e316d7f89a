/* Findings of one job -> diagnoses.  Everything here is generic: causes,
 * roles, variants, conditions, summaries and remediation come from the
 * rules (docs/classifier.md explains the reasoning).
 *
 * 1. Findings are grouped by cause; the same failure on many ranks is one
 *    group listing the ranks.
 * 2. A group with a root or confirmation finding is a root diagnosis;
 *    roots are ordered by their earliest initiating line.
 * 3. A group whose every failing input shows a retry after its last
 *    failure line, and progress after that retry (or a retry line that
 *    says the program went on), or progress that goes on after the
 *    cause's last line, is recovered: shown after the others, never a
 *    root.  Retries with no progress after them mean the retries ran out:
 *    the group is a root.
 * 4. A root whose cause can follow another root's cause (the rules'
 *    "follows") and whose lines come after it is that root's consequence.
 *    Groups of consequences only are attached to the first root their
 *    cause can follow, else the first; with no root, the most confident,
 *    earliest of them becomes the root with its confidence lowered.
 * 5. Fields are merged (the first root finding wins), the variant is the
 *    first whose condition holds, steps are ordered by the variant's
 *    "first", then "first_when", then as written. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "classify.h"
#include "evidence.h"
#include "expr.h"
#include "fields.h"
#include "grow.h"
#include "job.h"
#include "size.h"
#include "template.h"
#include "trend.h"
#include "words.h"

enum { EVIDENCE_MAX = 20, TRACE_MAX = 64 };

struct group {
    const struct cause *cause;
    size_t *items; /* finding indexes, in scan order */
    size_t count, cap;
    int has_root, has_confirmation, has_consequence, has_retry;
    int specific;        /* some finding (not a hint) of a signature that is no fallback */
    int has_plain_retry; /* a retry line that does not itself say the program went on */
    unsigned long long first_root_seq, first_seq, first_retry_seq;
    struct group *follows; /* the root this one is a consequence of, or NULL */
    int went_on;           /* recovered: 1 by progress that went on after it, 2 by a retry line that says so */
};

/* Progress lines that must follow a failure's last line, in the same input
 * and before any other cause's line, for the program to have gone on from
 * it without a retry line saying so (docs/classifier.md, section 9). */
enum { WENT_ON_LINES = 3 };

/* How many lines before the failure it follows a consequence may stand:
 * a wrapper's error quoting the failure under it (comes_after). */
enum { FOLLOW_WINDOW = 10 };

/* What conditions and templates can name. */
struct facts {
    const struct od_diagnosis *d;
    const struct od_job *job;
    const struct finding *lead; /* the finding that leads the diagnosis */
    unsigned long long progress_lines;
    const struct od_words *words; /* the causes' texts in the report's language; NULL: English */
};

static int role_rank(enum od_role r)
{
    return r == OD_ROLE_ROOT           ? 0
           : r == OD_ROLE_CONFIRMATION ? 1
           : r == OD_ROLE_RETRY        ? 2
           : r == OD_ROLE_CONSEQUENCE  ? 3
                                       : 4;
}

/* The job facts, by name: what lookup and template_lookup answer once
 * the diagnosis' fields have no such name. */
enum fact {
    FACT_FRAMEWORK,
    FACT_VARIANT,
    FACT_ROLE,
    FACT_CAUSE,
    FACT_LAST_STEP,
    FACT_PROGRESS_LINES,
    FACT_RANK_COUNT,
    FACT_FINDING_COUNT,
    FACT_RANK,
    FACT_RANKS,
    FACT_PATH,
    FACT_LINE,
    FACT_REQUESTED_BYTES, /* a field the scanner derives from shape and dtype */
    FACT_GROWTH_PER_STEP, /* fields apply_trend sets from the memory readings */
    FACT_GROWTH_STEPS,
    FACT_BOUNDARY,
    FACT_COUNT
};

static const char *const fact_names[FACT_COUNT] = {[FACT_FRAMEWORK] = "framework",
                                                   [FACT_VARIANT] = "variant",
                                                   [FACT_ROLE] = "role",
                                                   [FACT_CAUSE] = "cause",
                                                   [FACT_LAST_STEP] = "last_step",
                                                   [FACT_PROGRESS_LINES] = "progress_lines",
                                                   [FACT_RANK_COUNT] = "rank_count",
                                                   [FACT_FINDING_COUNT] = "finding_count",
                                                   [FACT_RANK] = EVIDENCE_RANK,
                                                   [FACT_RANKS] = EVIDENCE_RANKS,
                                                   [FACT_PATH] = EVIDENCE_PATH,
                                                   [FACT_LINE] = EVIDENCE_LINE,
                                                   [FACT_REQUESTED_BYTES] = EVIDENCE_REQUESTED_BYTES,
                                                   [FACT_GROWTH_PER_STEP] = "growth_per_step_bytes",
                                                   [FACT_GROWTH_STEPS] = "growth_steps",
                                                   [FACT_BOUNDARY] = "boundary"};

const char *classify_fact_name(size_t i)
{
    return i < FACT_COUNT ? fact_names[i] : NULL;
}

static int fact_of(const char *name)
{
    for (int i = 0; i < FACT_COUNT; i++)
        if (fact_names[i][0] == name[0] && strcmp(fact_names[i], name) == 0)
            return i;
    return -1;
}

static void as_str(struct expr_value *v, const char *s)
{
    if (s != NULL) {
        v->type = EXPR_STR;
        v->str = s;
    }
}

static void as_num(struct expr_value *v, double num)
{
    v->type = EXPR_NUM;
    v->num = num;
}

/* The value of field FD, or else of job fact FACT (-1: none). */
static void value_of(const struct facts *f, const struct od_field *fd, int fact, struct expr_value *v)
{
    const struct od_diagnosis *d = f->d;
    v->type = EXPR_UNDEF;
    if (fd != NULL) {
        if (fd->type == OD_FIELD_STRING)
            as_str(v, fd->str);
        else
            as_num(v, (double)fd->num);
        return;
    }
    switch (fact) {
    case FACT_FRAMEWORK: as_str(v, d->framework); break;
    case FACT_VARIANT: as_str(v, d->variant); break;
    case FACT_CAUSE: as_str(v, d->cause); break;
    case FACT_ROLE: as_str(v, od_role_name(d->role)); break;
    case FACT_LAST_STEP:
        if (d->last_step >= 0)
            as_num(v, (double)d->last_step);
        break;
    case FACT_PROGRESS_LINES: as_num(v, (double)f->progress_lines); break;
    case FACT_RANK_COUNT: as_num(v, (double)d->rank_count); break;
    case FACT_FINDING_COUNT: as_num(v, (double)d->match_count); break;
    default: break; /* a capture this diagnosis lacks, or a template-only fact */
    }
}

static void lookup(void *ctx, const char *name, struct expr_value *v)
{
    struct facts *f = ctx;
    const struct od_field *fd = fields_get(&f->d->fields, name);
    value_of(f, fd, fd != NULL ? -1 : fact_of(name), v);
}

/* What snprintf(BUF, BUFSIZE, "%s", S) writes. */
static void put_str(char *buf, size_t bufsize, const char *s)
{
    size_t n = strlen(s);
    if (n >= bufsize)
        n = bufsize - 1;
    memcpy(buf, s, n);
    buf[n] = '\0';
}

/* What snprintf(BUF, BUFSIZE, "%llu", U) writes (a '-' first when NEG);
 * returns its length. */
static size_t put_digits(char *buf, size_t bufsize, unsigned long long u, int neg)
{
    char tmp[24];
    size_t k = sizeof tmp;
    tmp[--k] = '\0';
    do
        tmp[--k] = (char)('0' + u % 10);
    while ((u /= 10) > 0);
    if (neg)
        tmp[--k] = '-';
    put_str(buf, bufsize, tmp + k);
    return sizeof tmp - 1 - k;
}

/* What snprintf(BUF, BUFSIZE, "%lld", N) writes; returns its length. */
static size_t put_num(char *buf, size_t bufsize, long long n)
{
    return put_digits(buf, bufsize, n < 0 ? 0 - (unsigned long long)n : (unsigned long long)n, n < 0);
}

static int template_lookup(void *ctx, const char *name, char *buf, size_t bufsize)
{
    struct facts *f = ctx;
    const struct od_diagnosis *d = f->d;
    int fact = fact_of(name);
    if (fact == FACT_RANKS) {
        if (d->rank_count == 0)
            return -1;
        size_t o = 0;
        buf[0] = '\0';
        for (size_t i = 0; i < d->rank_count && o + 16 < bufsize; i++) {
            if (i) {
                memcpy(buf + o, ", ", 2);
                o += 2;
            }
            o += put_num(buf + o, bufsize - o, d->ranks[i]);
        }
        return 0;
    }
    if (fact == FACT_PATH && f->lead) {
        put_str(buf, bufsize, f->job->inputs[f->lead->input].path);
        return 0;
    }
    if (fact == FACT_LINE && f->lead) {
        put_digits(buf, bufsize, f->lead->line, 0);
        return 0;
    }
    const struct od_field *fd = fields_get(&d->fields, name);
    if (fact == FACT_RANK && fd == NULL) {
        if (f->lead == NULL || f->lead->rank < 0)
            return -1;
        put_num(buf, bufsize, f->lead->rank);
        return 0;
    }
    if (fd != NULL && fd->type == OD_FIELD_BYTES) {
        size_format(fd->num, buf, bufsize);
        return 0;
    }
    struct expr_value v;
    value_of(f, fd, fact, &v);
    if (v.type == EXPR_STR)
        put_str(buf, bufsize, v.str);
    else if (v.type == EXPR_NUM)
        put_num(buf, bufsize, (long long)v.num);
    else
        return -1;
    return 0;
}

static int group_add(struct group *g, size_t item)
{
    size_t *items = grow(g->items, &g->cap, g->count, sizeof *items, 8);
    if (items == NULL)
        return -1;
    g->items = items;
    g->items[g->count++] = item;
    return 0;
}

/* Notes why D stands where it does, when the job was scanned with trace
 * on (only --trace shows it; formatting it costs as much as the rest of
 * the diagnosis). */
static void trace(const struct od_job *job, struct od_diagnosis *d, const char *fmt, ...) MSG_PRINTF(3, 4);
static void trace(const struct od_job *job, struct od_diagnosis *d, const char *fmt, ...)
{
    char buf[512];
    va_list ap;
    if (!job->opts.trace || d->trace_count >= TRACE_MAX)
        return;
    if (d->trace == NULL && (d->trace = calloc(TRACE_MAX, sizeof *d->trace)) == NULL)
        return;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    d->trace[d->trace_count] = strdup(buf);
    if (d->trace[d->trace_count])
        d->trace_count++;
}

static int cmp_int(const void *a, const void *b)
{
    return *(const int *)a - *(const int *)b;
}

static int evidence_order(const void *a, const void *b, void *ctx)
{
    const struct od_job *job = ctx;
    const struct finding *x = &job->findings[*(const size_t *)a], *y = &job->findings[*(const size_t *)b];
    int rx = role_rank(x->sig->role), ry = role_rank(y->sig->role);
    if (rx != ry)
        return rx - ry;
    if (x->sig->fallback != y->sig->fallback) /* a specific line leads */
        return x->sig->fallback - y->sig->fallback;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Sorts the group's findings for showing: roots, confirmations, retries,
 * consequences, then hints and the other roles; each in scan order. */
static void order_items(const struct od_job *job, struct group *g)
{
    qsort_r(g->items, g->count, sizeof *g->items, evidence_order, (void *)job);
}

static void fill_ranks(const struct od_job *job, const struct group *g, struct od_diagnosis *d)
{
    d->ranks = calloc(g->count + 1, sizeof *d->ranks);
    if (d->ranks == NULL)
        return;
    for (size_t i = 0; i < g->count; i++) {
        int r = job->findings[g->items[i]].rank;
        int seen = r < 0;
        for (size_t k = 0; k < d->rank_count && !seen; k++)
            seen = d->ranks[k] == r;
        if (!seen)
            d->ranks[d->rank_count++] = r;
    }
    qsort(d->ranks, d->rank_count, sizeof *d->ranks, cmp_int);
}

static void fill_evidence(const struct od_job *job, const struct group *g, struct od_diagnosis *d)
{
    size_t n = g->count < EVIDENCE_MAX ? g->count : EVIDENCE_MAX;
    d->evidence = calloc(n + 1, sizeof *d->evidence);
    if (d->evidence == NULL)
        return;
    /* Unique signatures' totals give the match count. */
    for (size_t i = 0; i < g->count; i++) {
        const struct sig *s = job->findings[g->items[i]].sig;
        int dup = 0;
        for (size_t k = 0; k < i && !dup; k++)
            dup = job->findings[g->items[k]].sig == s;
        if (!dup)
            d->match_count += job->sig_counts[s->index];
    }
    for (size_t i = 0; i < n; i++) {
        const struct finding *f = &job->findings[g->items[i]];
        struct od_evidence *e = &d->evidence[d->evidence_count++];
        e->path = job->inputs[f->input].path;
        e->line = (unsigned long)f->line;
        e->rule = f->sig->id;
        e->text = f->text;
        e->rank = f->rank;
        e->fields = &f->fields;
    }
}

static char *expand_summary(const struct summary *s, size_t n, struct facts *facts)
{
    for (size_t i = 0; i < n; i++) {
        if (s[i].when && !expr_eval(s[i].when, lookup, facts))
            continue;
        char *text = template_expand(words_text(facts->words, &s[i].text), template_lookup, facts);
        if (text != NULL)
            return text;
    }
    return NULL;
}

static int step_in_first(const struct variant *v, const struct step *st)
{
    for (size_t k = 0; v && k < v->first_count; k++)
        if (strcmp(v->first[k], st->id) == 0)
            return (int)k;
    return -1;
}

static void add_step(struct od_diagnosis *d, const struct step *st, struct facts *facts)
{
    char *action = template_expand(words_text(facts->words, &st->action), template_lookup, facts);
    char *detail = st->detail ? template_expand(words_text(facts->words, &st->detail), template_lookup, facts) : NULL;
    if (action == NULL || (st->detail && detail == NULL)) {
        trace(facts->job, d, "step %s left out: it names a value the evidence lacks", st->id);
        free(action);
        free(detail);
        return;
    }
    struct od_step *o = &d->steps[d->step_count++];
    o->id = st->id;
    o->action = action;
    o->detail = detail;
}

static void fill_steps(struct od_diagnosis *d, const struct cause *c, const struct variant *v, struct facts *facts)
{
    char *placed = calloc(c->step_count + 1, 1);
    d->steps = calloc(c->step_count + 1, sizeof *d->steps);
    if (placed == NULL || d->steps == NULL) {
        free(placed);
        return;
    }
    for (size_t i = 0; i < c->step_count; i++) /* filtered out first */
        if (c->steps[i].when && !expr_eval(c->steps[i].when, lookup, facts)) {
            placed[i] = 1;
            trace(facts->job, d, "step %s left out: %s is false", c->steps[i].id, c->steps[i].when_text);
        }
    for (size_t k = 0; v && k < v->first_count; k++)
        for (size_t i = 0; i < c->step_count; i++)
            if (!placed[i] && step_in_first(v, &c->steps[i]) == (int)k) {
                placed[i] = 1;
                trace(facts->job, d, "step %s first: variant %s puts it first", c->steps[i].id, v->id);
                add_step(d, &c->steps[i], facts);
            }
    for (size_t i = 0; i < c->step_count; i++)
        if (!placed[i] && c->steps[i].first_when && expr_eval(c->steps[i].first_when, lookup, facts)) {
            placed[i] = 1;
            trace(facts->job, d, "step %s moved up: %s", c->steps[i].id, c->steps[i].first_when_text);
            add_step(d, &c->steps[i], facts);
        }
    for (size_t i = 0; i < c->step_count; i++)
        if (!placed[i])
            add_step(d, &c->steps[i], facts);
    free(placed);
}

/* The diagnosis's confidence and merged fields, from G's findings led by
 * LEAD: the highest confidence among the lead's role and above, fields of
 * every finding but hints, then the hints' where those left one open. */
static void merge_findings(const struct od_job *job, const struct group *g, const struct finding *lead,
                           struct od_diagnosis *d, enum od_role role)
{
    enum od_confidence conf = OD_CONF_LOW;
    fields_init(&d->fields);
    for (size_t i = 0; i < g->count; i++) {
        const struct finding *f = &job->findings[g->items[i]];
        if (f->sig->role == OD_ROLE_HINT)
            continue;
        if (role_rank(f->sig->role) <= role_rank(lead->sig->role) && f->sig->confidence > conf)
            conf = f->sig->confidence;
        fields_merge_missing(&d->fields, &f->fields);
        if (d->framework == NULL)
            d->framework = f->sig->framework;
    }
    for (size_t i = 0; i < g->count; i++) { /* hints fill what the others left open */
        const struct finding *f = &job->findings[g->items[i]];
        if (f->sig->role == OD_ROLE_HINT)
            fields_merge_missing(&d->fields, &f->fields);
    }
    if (g->has_root && g->has_confirmation && conf < OD_CONF_HIGH) {
        trace(job, d, "confidence raised to high: a confirmation line supports the root");
        conf = OD_CONF_HIGH;
    }
    if (!g->has_root && !g->has_confirmation && role == OD_ROLE_ROOT && conf > OD_CONF_LOW) {
        trace(job, d,
              g->has_retry ? "confidence lowered: only a retry is visible, not the failure it retried"
                           : "confidence lowered: only consequences are visible, no initiating failure");
        conf--;
    }
    d->confidence = conf;
}

/* The first of C's variants whose condition holds, with what it caps. */
static const struct variant *choose_variant(const struct cause *c, struct od_diagnosis *d, struct facts *facts)
{
    const struct variant *v = NULL;
    for (size_t i = 0; i < c->variant_count && v == NULL; i++) {
        if (c->variants[i].when == NULL || expr_eval(c->variants[i].when, lookup, facts)) {
            v = &c->variants[i];
            trace(facts->job, d, "variant %s: %s", v->id, v->when_text ? v->when_text : "the default");
        }
    }
    d->variant = v ? v->id : NULL;
    if (v != NULL && v->confidence >= 0 && (int)d->confidence > v->confidence) {
        d->confidence = (enum od_confidence)v->confidence;
        trace(facts->job, d, "confidence lowered to %s: variant %s says no more", od_confidence_name(d->confidence),
              v->id);
    }
    if (v && v->title)
        d->title = words_text(facts->words, &v->title);
    return v;
}

/* A root's decision: its variant's, else its cause's, else stop (a cause
 * no rule decides is left to a person). */
static void choose_decision(const struct cause *c, const struct variant *v, struct od_diagnosis *d,
                            const struct od_job *job)
{
    if (d->role != OD_ROLE_ROOT) {
        d->decision = OD_DECISION_NONE;
        return;
    }
    if (v != NULL && v->decision != OD_DECISION_NONE) {
        d->decision = v->decision;
        trace(job, d, "decision %s: variant %s's", od_decision_name(d->decision), v->id);
    } else if (c->decision != OD_DECISION_NONE) {
        d->decision = c->decision;
        trace(job, d, "decision %s: cause %s's", od_decision_name(d->decision), c->id);
    } else {
        d->decision = OD_DECISION_STOP;
        trace(job, d, "decision stop: no rule decides for cause %s", c->id);
    }
}

/* What the memory readings before LEAD say: the series for the report,
 * and as fields steady growth (growth_per_step_bytes over growth_steps)
 * or the boundary a flat series met before the failure. */
static void apply_trend(const struct od_job *job, const struct finding *lead, struct od_diagnosis *d)
{
    struct trend t;
    if (trend_of(&job->inputs[lead->input], lead->line, &t) != 0)
        return;
    if ((d->series = malloc(t.points * sizeof *d->series)) != NULL) {
        memcpy(d->series, t.values, t.points * sizeof *d->series);
        d->series_count = t.points;
        d->series_percent = t.percent;
    }
    trace(job, d, "memory series: %zu readings before it, %s", t.points,
          t.growing    ? "growing steadily"
          : t.boundary ? "flat until a boundary"
                       : "neither growing nor jumping");
    if (t.growing && !t.percent) {
        fields_set_num(&d->fields, fact_names[FACT_GROWTH_PER_STEP], OD_FIELD_BYTES,
                       (long long)(t.growth_per_step + 0.5));
        fields_set_num(&d->fields, fact_names[FACT_GROWTH_STEPS], OD_FIELD_INT, t.steps);
    }
    if (t.boundary != NULL) {
        fields_set_str(&d->fields, fact_names[FACT_BOUNDARY], t.boundary, strlen(t.boundary));
        trace(job, d, "the series was flat, then a line marked %s came before the failure", t.boundary);
    }
}

static void build(const struct od_job *job, struct group *g, struct od_diagnosis *d, enum od_role role,
                  const struct facts *in)
{
    const struct cause *c = g->cause;
    struct facts facts = {d, job, NULL, in->progress_lines, in->words};
    order_items(job, g);
    const struct finding *lead = &job->findings[g->items[0]];
    facts.lead = lead;
    d->cause = c->id;
    d->title = words_text(facts.words, &c->title);
    d->explanation = words_text(facts.words, &c->explanation);
    d->role = role;
    d->consequence_of = -1;
    d->framework = lead->sig->framework;
    d->last_step = lead->step_at;
    merge_findings(job, g, lead, d, role);
    if (lead->rank >= 0 && fields_get(&d->fields, fact_names[FACT_RANK]) == NULL)
        fields_set_num(&d->fields, fact_names[FACT_RANK], OD_FIELD_INT, lead->rank);
    fill_ranks(job, g, d);
    fill_evidence(job, g, d);
    apply_trend(job, lead, d);
    trace(job, d, "lead line %s:%llu matched %s (%s, %s confidence)", job->inputs[lead->input].path, lead->line,
          lead->sig->id, od_role_name(lead->sig->role), od_confidence_name(lead->sig->confidence));
    if (lead->sig->fallback)
        trace(job, d,
              "a fallback decided: no specific signature explained the failure; %s is a generic signature built "
              "from the shared lexicon (what the line means, not its wording)",
              lead->sig->id);
    if (d->last_step >= 0)
        trace(job, d, "last progress step before it: %lld", d->last_step);
    const struct variant *v = choose_variant(c, d, &facts);
    choose_decision(c, v, d, job);
    d->summary = v ? expand_summary(v->summaries, v->summary_count, &facts) : NULL;
    if (d->summary == NULL)
        d->summary = expand_summary(c->summaries, c->summary_count, &facts);
    if (d->summary == NULL)
        d->summary = strdup(words_text(facts.words, &c->title));
    fill_steps(d, c, v, &facts);
}

/* The group a finding belongs to: its cause's. */
static struct group *group_for(struct group *groups, size_t *n, const struct cause *c)
{
    for (size_t i = 0; i < *n; i++)
        if (groups[i].cause == c)
            return &groups[i];
    struct group *g = &groups[(*n)++];
    memset(g, 0, sizeof *g);
    g->cause = c;
    return g;
}

/* The highest confidence among G's findings that are not hints. */
static enum od_confidence group_confidence(const struct od_job *job, const struct group *g)
{
    enum od_confidence c = OD_CONF_LOW;
    for (size_t i = 0; i < g->count; i++) {
        const struct sig *s = job->findings[g->items[i]].sig;
        if (s->role != OD_ROLE_HINT && s->confidence > c)
            c = s->confidence;
    }
    return c;
}

static int group_better(const struct od_job *job, const struct group *a, const struct group *b)
{
    enum od_confidence ca = group_confidence(job, a), cb = group_confidence(job, b);
    if (ca != cb)
        return ca > cb;
    return a->first_seq < b->first_seq;
}

static int cmp_root(const void *a, const void *b)
{
    const struct group *const *x = a, *const *y = b;
    return (*x)->first_root_seq < (*y)->first_root_seq ? -1 : (*x)->first_root_seq > (*y)->first_root_seq;
}

static int cmp_first(const void *a, const void *b)
{
    const struct group *const *x = a, *const *y = b;
    return (*x)->first_seq < (*y)->first_seq ? -1 : (*x)->first_seq > (*y)->first_seq;
}

/* Whether the program went on after mark M's last line: at least
 * WENT_ON_LINES progress lines after it, before any other cause's line,
 * and, where those lines carry steps, steps that move forward among them
 * (a lower step than before the failure is a restart, which went on too). */
static int went_on_after(const struct retry_mark *m)
{
    if (m->finished) /* a line that by itself shows the program went on (a phase finished) */
        return 1;
    if (m->went_on < WENT_ON_LINES)
        return 0;
    if (m->step_last < 0) /* progress lines without steps: a phase finished, a new epoch */
        return 1;
    return m->step_last > m->step_first; /* the same step again and again is no progress */
}

/* How the inputs of G's findings end: 0 when each shows a retry after its
 * last failure line and progress after that retry, or progress that went
 * on after the cause's last line (recovered); 1 when some input fails
 * again after its last retry, or has no retry; 2 when some input shows no
 * progress after its last retry.  *BY_PROGRESS: some input was recovered
 * only by the progress after it. */
static int retry_outcome(const struct od_job *job, const struct group *g, int *by_progress)
{
    int worst = 0;
    for (size_t i = 0; i < g->count; i++) {
        const struct finding *f = &job->findings[g->items[i]];
        if (f->sig->role == OD_ROLE_HINT)
            continue;
        const struct input *in = &job->inputs[f->input];
        const struct retry_mark *m = job_retry_mark(in, g->cause);
        int by_retry = m != NULL && m->retry_line != 0 && m->fail_line <= m->retry_line &&
                       (in->progress_lines > m->progress_at || m->retry_goes_on);
        if (by_retry) {
            if (by_progress && in->progress_lines <= m->progress_at)
                *by_progress |= 2; /* the retry line itself said the program went on */
            continue;
        }
        if (m != NULL && went_on_after(m)) {
            if (by_progress)
                *by_progress |= 1;
            continue;
        }
        if (m == NULL || m->retry_line == 0 || m->fail_line > m->retry_line)
            return 1;
        worst = 2;
    }
    return worst;
}

static int recovered(const struct od_job *job, struct group *g)
{
    int by_progress = 0;
    int r = retry_outcome(job, g, &by_progress) == 0;
    g->went_on = r ? by_progress : 0;
    return r;
}

/* Whether cause C names cause P among the causes it can follow. */
static int can_follow(const struct cause *c, const struct cause *p)
{
    for (size_t k = 0; k < c->follows_count; k++)
        if (strcmp(c->follows[k], p->id) == 0)
            return 1;
    return 0;
}

static int initiating(const struct finding *f)
{
    return f->sig->role == OD_ROLE_ROOT || f->sig->role == OD_ROLE_CONFIRMATION;
}

/* Whether root G can be a consequence of root R by where their lines are.
 * In every input where both have initiating lines, G's first must come
 * after R's first, or (when R's cause cannot follow G's, so the two
 * cannot be taken the other way round) at most FOLLOW_WINDOW lines before
 * it: a wrapper's error that quotes the failure under it on the next
 * lines (`Last error:`, `what():`).  An input of G without R is another
 * process's output, which shares no clock with R's: it counts for G only
 * when R's cause cannot follow G's (else the earlier group in scan order
 * stays the root).  FIRST is scratch, one slot per input: R's first line. */
static int comes_after(const struct od_job *job, const struct group *g, const struct group *r,
                       const struct finding **first)
{
    int mutual = can_follow(r->cause, g->cause);
    for (size_t i = 0; i < job->input_count; i++)
        first[i] = NULL;
    for (size_t i = 0; i < r->count; i++) {
        const struct finding *f = &job->findings[r->items[i]];
        if (initiating(f) && (first[f->input] == NULL || f->seq < first[f->input]->seq))
            first[f->input] = f;
    }
    int cross = 0, same = 0, any = 0;
    for (size_t i = 0; i < g->count; i++) {
        const struct finding *f = &job->findings[g->items[i]];
        if (!initiating(f))
            continue;
        any = 1;
        const struct finding *rf = first[f->input];
        if (rf == NULL)
            cross = 1;
        else if (rf->seq > f->seq && (mutual || f->line + FOLLOW_WINDOW < rf->line))
            return 0; /* G's line comes first in an input that has both */
        else
            same = 1;
    }
    if (!any)
        return 0;
    if (cross && !same && mutual)
        return r->first_root_seq < g->first_root_seq;
    return 1;
}

/* Whether root G comes after consequence-only group R: R's lines are
 * surer evidence than G's (a watchdog's timeout, high, before a crash,
 * medium; not a wrapper's low "terminate called" before the error it
 * quotes), and every input holding G's initiating lines holds a line of R
 * on an earlier line (no window, no other process's file: R is itself
 * only a symptom). */
static int comes_after_consequence(const struct od_job *job, const struct group *g, const struct group *r,
                                   const struct finding **first)
{
    if (group_confidence(job, r) <= group_confidence(job, g))
        return 0;
    for (size_t i = 0; i < job->input_count; i++)
        first[i] = NULL;
    for (size_t i = 0; i < r->count; i++) {
        const struct finding *f = &job->findings[r->items[i]];
        if (f->sig->role != OD_ROLE_HINT && (first[f->input] == NULL || f->seq < first[f->input]->seq))
            first[f->input] = f;
    }
    int any = 0;
    for (size_t i = 0; i < g->count; i++) {
        const struct finding *f = &job->findings[g->items[i]];
        if (!initiating(f))
            continue;
        if (first[f->input] == NULL || first[f->input]->line >= f->line)
            return 0;
        any = 1;
    }
    return any;
}

/* The root at the end of G's chain of "follows", or NULL when the chain
 * loops (then G stays a root). */
static struct group *chain_root(struct group *g, size_t n)
{
    struct group *k = g;
    for (size_t steps = 0; k->follows != NULL; steps++) {
        if (steps > n)
            return NULL;
        k = k->follows;
    }
    return k;
}

/* The job's groups, and which of them are roots, consequences and
 * recovered, in report order. */
struct sorted {
    struct group *groups;
    struct group **roots, **rest, **recs;
    size_t ngroups, nroots, nrest, nrecs;
    int promoted; /* the root is a consequence standing in */
};

/* The report's inputs, near misses and last error; *PROGRESS_LINES gets
 * the inputs' progress lines in all.  0, or -1 when out of memory. */
static int report_inputs(const struct od_job *job, struct od_report *rep, unsigned long long *progress_lines)
{
    rep->inputs = calloc(job->input_count + 1, sizeof *rep->inputs);
    if (rep->inputs == NULL)
        return -1;
    for (size_t i = 0; i < job->input_count; i++) {
        const struct input *in = &job->inputs[i];
        rep->inputs[i] = (struct od_input_info){in->path,  in->lines,      in->bytes,        in->rank,
                                                in->error, in->error_kind, in->error_message};
        *progress_lines += in->progress_lines;
    }
    if (job->near_count > 0 && (rep->near_misses = calloc(job->near_count, sizeof *rep->near_misses)) != NULL) {
        for (size_t i = 0; i < job->near_count; i++) {
            const struct near_miss *nm = &job->near[i];
            rep->near_misses[i] = (struct od_near_miss){nm->sig->id, nm->sig->cause_id, job->inputs[nm->input].path,
                                                        nm->line,    nm->count,         nm->text};
        }
        rep->near_miss_count = job->near_count;
    }
    if (job->limit_count > 0 && (rep->limit_hits = calloc(job->limit_count, sizeof *rep->limit_hits)) != NULL) {
        for (size_t i = 0; i < job->limit_count; i++) {
            const struct near_miss *lh = &job->limit[i];
            rep->limit_hits[i] = (struct od_near_miss){lh->sig->id, lh->sig->cause_id, job->inputs[lh->input].path,
                                                       lh->line,    lh->count,         NULL};
        }
        rep->limit_hit_count = job->limit_count;
    }
    if (job->last_error.text != NULL)
        rep->last_error =
            (struct od_last_error){job->inputs[job->last_error.input].path, job->last_error.line, job->last_error.text};
    rep->input_count = job->input_count;
    return 0;
}

/* Step 1: the findings grouped by cause, with what each group holds.
 * 0, or -1 when out of memory. */
static int group_findings(const struct od_job *job, struct sorted *s)
{
    /* Which causes a specific signature found: a fallback's findings add
     * nothing to those (no rank, no evidence, no count). */
    for (size_t i = 0; i < job->finding_count; i++) {
        const struct finding *f = &job->findings[i];
        if (f->sig->cause != NULL && f->sig->role != OD_ROLE_HINT && !f->sig->fallback)
            group_for(s->groups, &s->ngroups, f->sig->cause)->specific = 1;
    }
    for (size_t i = 0; i < job->finding_count; i++) {
        const struct finding *f = &job->findings[i];
        if (f->sig->cause == NULL)
            continue;
        struct group *g = group_for(s->groups, &s->ngroups, f->sig->cause);
        if (f->sig->fallback && g->specific)
            continue;
        if (group_add(g, i) != 0)
            return -1;
        if (f->sig->role != OD_ROLE_HINT && !g->has_root && !g->has_confirmation && !g->has_consequence &&
            !g->has_retry)
            g->first_seq = f->seq;
        if (f->sig->role == OD_ROLE_ROOT || f->sig->role == OD_ROLE_CONFIRMATION) {
            if (!g->has_root && !g->has_confirmation)
                g->first_root_seq = f->seq;
            if (f->sig->role == OD_ROLE_ROOT)
                g->has_root = 1;
            else
                g->has_confirmation = 1;
        } else if (f->sig->role == OD_ROLE_CONSEQUENCE) {
            g->has_consequence = 1;
        } else if (f->sig->role == OD_ROLE_RETRY) {
            if (!g->has_retry)
                g->first_retry_seq = f->seq;
            g->has_retry = 1;
            if (!f->sig->goes_on)
                g->has_plain_retry = 1;
        }
    }
    return 0;
}

/* Step 4b: a root of a cause that can follow another root's cause (the
 * cause's "follows" in the rules), whose lines come after that root's, is
 * that root's consequence.  ROOTS is sorted by first initiating line. */
static void demote_followers(const struct od_job *job, struct sorted *s)
{
    const struct finding **first = calloc(job->input_count + 1, sizeof *first);
    if (first == NULL)
        return; /* out of memory: every root stays a root */
    for (size_t i = 0; i < s->nroots; i++) {
        struct group *g = s->roots[i];
        for (size_t j = 0; j < s->nroots && g->follows == NULL; j++) {
            struct group *r = s->roots[j];
            if (r != g && r->follows != g && can_follow(g->cause, r->cause) && comes_after(job, g, r, first))
                g->follows = r;
        }
        /* ... or of a consequence-only group before it (an abort after a watchdog's timeout): that
         * group then stands in as the root unless another root remains. */
        for (size_t j = 0; j < s->nrest && g->follows == NULL; j++) {
            struct group *r = s->rest[j];
            if (can_follow(g->cause, r->cause) && comes_after_consequence(job, g, r, first))
                g->follows = r;
        }
    }
    free(first);
    size_t kept = 0;
    for (size_t i = 0; i < s->nroots; i++) {
        struct group *g = s->roots[i];
        struct group *top = g->follows ? chain_root(g, s->nroots) : g;
        if (top == NULL || top == g) {
            g->follows = NULL;
            s->roots[kept++] = g;
        } else {
            g->follows = top;
            s->rest[s->nrest++] = g;
        }
    }
    s->nroots = kept;
}

/* Steps 2 to 4: roots by their earliest initiating line, consequences,
 * recovered groups; with no root, the best consequence stands in. */
static void choose_roots(const struct od_job *job, struct sorted *s)
{
    /* A group that only fallbacks found stands only where no specific
     * signature found anything: a generic match never outranks a specific one. */
    int specific = 0;
    for (size_t i = 0; i < s->ngroups; i++)
        specific |= s->groups[i].specific;
    for (size_t i = 0; i < s->ngroups; i++) {
        struct group *g = &s->groups[i];
        if (specific && !g->specific)
            continue; /* only fallbacks found it, and a specific signature found something */
        if (!g->has_root && !g->has_confirmation && !g->has_consequence && !g->has_plain_retry)
            continue; /* hints, or lines that only say the program went on: no failure to report */
        if ((g->has_retry || g->has_root || g->has_confirmation || g->has_consequence) && recovered(job, g)) {
            s->recs[s->nrecs++] = g;
        } else if (g->has_root || g->has_confirmation) {
            s->roots[s->nroots++] = g;
        } else if (g->has_retry) {
            g->first_root_seq = g->first_retry_seq;
            s->roots[s->nroots++] = g;
        } else if (g->has_consequence) {
            s->rest[s->nrest++] = g;
        }
    }
    qsort(s->roots, s->nroots, sizeof *s->roots, cmp_root);
    demote_followers(job, s);
    qsort(s->rest, s->nrest, sizeof *s->rest, cmp_first);
    if (s->nroots == 0 && s->nrest > 0) { /* the best consequence stands in (not a root that follows one) */
        size_t best = s->nrest;
        for (size_t i = 0; i < s->nrest; i++)
            if (!s->rest[i]->has_root && !s->rest[i]->has_confirmation &&
                (best == s->nrest || group_better(job, s->rest[i], s->rest[best])))
                best = i;
        if (best == s->nrest)
            best = 0;
        s->roots[s->nroots++] = s->rest[best];
        memmove(&s->rest[best], &s->rest[best + 1], (s->nrest - best - 1) * sizeof *s->rest);
        s->nrest--;
        s->promoted = 1;
    }
    /* A consequence follows the first root its cause can follow, else the first root. */
    for (size_t i = 0; i < s->nrest; i++) {
        struct group *g = s->rest[i];
        int kept = 0;
        for (size_t k = 0; k < s->nroots && !kept; k++)
            kept = g->follows == s->roots[k];
        if (!kept)
            g->follows = NULL; /* it followed a consequence that did not become the root */
        for (size_t k = 0; k < s->nroots && g->follows == NULL; k++)
            if (can_follow(g->cause, s->roots[k]->cause))
                g->follows = s->roots[k];
    }
    qsort(s->recs, s->nrecs, sizeof *s->recs, cmp_first);
}

/* Step 5: one diagnosis per group, in report order, each with the trace
 * of why it stands where it does.  0, or -1 when out of memory. */
static int build_all(const struct od_job *job, const struct sorted *s, struct od_report *rep, const struct facts *in)
{
    rep->diagnoses = calloc(s->nroots + s->nrest + s->nrecs + 1, sizeof *rep->diagnoses);
    if (rep->diagnoses == NULL)
        return -1;
    for (size_t i = 0; i < s->nroots; i++) {
        struct od_diagnosis *d = &rep->diagnoses[rep->count++];
        build(job, s->roots[i], d, OD_ROLE_ROOT, in);
        if (s->promoted)
            trace(job, d, "ranked as root: no initiating failure was found, this consequence is the best evidence");
        else
            trace(job, d, "ranked as root #%zu by its earliest initiating line", i + 1);
        if (s->roots[i]->has_retry)
            trace(job, d, "not recovered: the log shows %s",
                  retry_outcome(job, s->roots[i], NULL) == 1 ? "a failure with no retry after it"
                                                             : "no progress after the last retry");
    }
    for (size_t i = 0; i < s->nrest; i++) {
        struct od_diagnosis *d = &rep->diagnoses[rep->count++];
        const struct group *g = s->rest[i];
        size_t of = 0;
        for (size_t k = 0; k < s->nroots; k++)
            if (s->roots[k] == g->follows)
                of = k;
        build(job, s->rest[i], d, OD_ROLE_CONSEQUENCE, in);
        d->consequence_of = (int)of;
        if (g->has_root || g->has_confirmation)
            trace(job, d,
                  "ranked as a consequence of %s: its cause can follow %s (the rules' \"follows\") and its "
                  "lines come after that root's first line, or quote it just before",
                  rep->diagnoses[of].cause, g->follows ? g->follows->cause->id : rep->diagnoses[of].cause);
        else
            trace(job, d, "ranked as a consequence of %s: its signatures mark it as a follow-on failure",
                  rep->diagnoses[of].cause);
    }
    for (size_t i = 0; i < s->nrecs; i++) {
        struct od_diagnosis *d = &rep->diagnoses[rep->count++];
        build(job, s->recs[i], d, OD_ROLE_RECOVERED, in);
        if (s->recs[i]->went_on & 1)
            trace(job, d,
                  "recovered: the program went on after the failure (%d or more progress lines after its last "
                  "line, steps moving forward, no other failure before them)",
                  WENT_ON_LINES);
        else if (s->recs[i]->went_on & 2)
            trace(job, d,
                  "recovered: the program retried after the failure with a line that says it went on (the rules' "
                  "\"goes_on\"), with no failure after the retry");
        else
            trace(job, d,
                  "recovered: the program retried after the failure and made progress afterwards, with no failure "
                  "after the retry");
    }
    return 0;
}

struct od_report *od_classify(const struct od_job *job)
{
    return od_classify_in(job, NULL);
}

struct od_report *od_classify_in(const struct od_job *job, const struct od_words *words)
{
    size_t n = job->rs->cause_count + 1;
    struct od_report *rep = calloc(1, sizeof *rep);
    struct sorted s = {calloc(n, sizeof(struct group)),
                       calloc(n, sizeof(struct group *)),
                       calloc(n, sizeof(struct group *)),
                       calloc(n, sizeof(struct group *)),
                       0,
                       0,
                       0,
                       0,
                       0};
    unsigned long long progress_lines = 0;
    int ok = rep != NULL && s.groups != NULL && s.roots != NULL && s.rest != NULL && s.recs != NULL &&
             report_inputs(job, rep, &progress_lines) == 0 && group_findings(job, &s) == 0;
    if (ok) {
        choose_roots(job, &s);
        struct facts in = {NULL, job, NULL, progress_lines, words};
        ok = build_all(job, &s, rep, &in) == 0;
    }
    for (size_t i = 0; s.groups != NULL && i < s.ngroups; i++)
        free(s.groups[i].items);
    free(s.groups);
    free(s.roots);
    free(s.rest);
    free(s.recs);
    if (!ok) {
        od_report_free(rep);
        return NULL;
    }
    return rep;
}

static void diagnosis_free(struct od_diagnosis *d)
{
    free(d->summary);
    for (size_t k = 0; k < d->step_count; k++) {
        free(d->steps[k].action);
        free(d->steps[k].detail);
    }
    free(d->steps);
    free(d->evidence);
    free(d->ranks);
    free(d->series);
    fields_free(&d->fields);
    for (size_t k = 0; k < d->trace_count; k++)
        free(d->trace[k]);
    free(d->trace);
}

void od_report_free(struct od_report *rep)
{
    if (rep == NULL)
        return;
    for (size_t i = 0; i < rep->count; i++)
        diagnosis_free(&rep->diagnoses[i]);
    free(rep->diagnoses);
    free(rep->near_misses);
    free(rep->limit_hits);
    free(rep->inputs);
    free(rep);
}
