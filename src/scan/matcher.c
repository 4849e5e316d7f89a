#include "matcher.h"

#include <stdlib.h>
#include <string.h>

#include "evidence.h"
#include "fields.h"
#include "prefilter.h"

/* A signature that hits PCRE2's limits this often is switched off. */
enum { LIMIT_HITS_TO_DISABLE = 3 };
/* Line prefixes taken off one after the other, at most ("2026-... host
 * python[7]: [rank3]: > ..."). */
enum { PREFIX_LAYERS_MAX = 4 };
/* At most this many fallback signatures are tried on one line. */
enum { FALLBACKS_MAX = 32 };

/* What a matcher learns of one signature while it runs, and the
 * signature's compiled regex: the scan's cache (the ruleset itself stays
 * as it was finished). */
struct sig_state {
    struct rx *rx;        /* compiled on first use (sig_compile), owned */
    int compile_failed;   /* ... or not compilable (reported once) */
    unsigned runs;        /* regex runs so far: JIT-compiled at SIG_JIT_AFTER */
    unsigned limit_hits;  /* runs that hit PCRE2's limits */
    int disabled;         /* after LIMIT_HITS_TO_DISABLE of them */
    signed char at_start; /* its pattern looks at where the line starts (pattern_at_start); -1: not known yet */
};

/* One signature's match on the current line. */
struct hit {
    const struct sig *sig;
    struct od_fields fields; /* empty for a progress match under MATCHER_PROGRESS_STEP: */
    int brief, has_step;     /* ... which gives its step only, */
    long long step;
    struct od_field step_item;  /* ... shown as this one field (named by the matcher's `step`) */
    struct od_fields step_view; /* ... through this view: no field when it captured none */
    size_t span;                /* length of the whole match */
    size_t captured;            /* fields from its groups (not derived ones) */
    int beaten;                 /* a more specific signature of its cause and role matched too */
};

struct matcher {
    const struct od_ruleset *rs;
    struct msg_sink *sink;
    struct prefilter_state pf_state;
    struct sig_state *state; /* by signature index */
    uint32_t *candidates;
    struct rx_matcher *rxm;
    struct od_fields step;     /* one field, EVIDENCE_STEP: its name is what brief progress matches show */
    struct hit *hits;          /* room for every signature */
    size_t hit_count;          /* matches of the last line (their fields live until the next line) */
    struct matcher_hit *out;   /* the reported ones, room for every signature */
    struct matcher_result res; /* of the last line */
    uint32_t *failed;          /* candidates of the last line with a cause whose regex did not match */
    size_t failed_count;
    uint32_t *retry; /* candidates whose regex did not match the line (also behind its prefixes) but might */
    size_t retry_count;
    struct rx *prefixes;   /* every line prefix's pattern as one alternation, compiled on first use */
    int prefixes_state;    /* 0: not compiled yet, 1: compiled, -1: could not be (then the patterns one by one) */
    unsigned prefix_runs;  /* matcher_prefix calls: at SIG_JIT_AFTER the matcher JIT-compiles its own copies... */
    struct rx **prefix_rx; /* ... of the line prefixes' patterns (the ruleset's stay as they are), or NULL */
    size_t reach;          /* the longest literal, less one byte */
    const struct sig *limit_sig; /* the last signature that hit PCRE2's limits since matcher_limit_take */
    unsigned limit_new;          /* such runs since matcher_limit_take */
    unsigned prefixes_runs; /* runs of the alternation: JIT-compiled at SIG_JIT_AFTER, as a signature is */
};

struct matcher *matcher_create(const struct od_ruleset *rs, struct msg_sink *sink)
{
    struct matcher *m = calloc(1, sizeof *m);
    if (m == NULL)
        return NULL;
    m->rs = rs;
    m->sink = sink;
    fields_init(&m->step);
    size_t n = rs->sig_count ? rs->sig_count : 1;
    m->candidates = calloc(n, sizeof *m->candidates);
    m->state = calloc(n, sizeof *m->state);
    for (size_t i = 0; m->state != NULL && i < n; i++)
        m->state[i].at_start = -1;
    m->hits = calloc(n, sizeof *m->hits);
    m->out = calloc(n, sizeof *m->out);
    m->res.hits = m->out;
    m->failed = calloc(n, sizeof *m->failed);
    m->res.near_misses = m->failed;
    m->retry = calloc(n, sizeof *m->retry);
    m->rxm = rx_matcher_create();
    if (m->hits != NULL)
        for (size_t i = 0; i < n; i++)
            fields_init(&m->hits[i].fields);
    for (size_t i = 0; i < rs->sig_count; i++)
        for (size_t k = 0; k < rs->sigs[i]->literal_count; k++) {
            size_t l = strlen(rs->sigs[i]->literals[k]);
            if (l > m->reach + 1)
                m->reach = l - 1;
        }
    if (fields_set_num(&m->step, EVIDENCE_STEP, OD_FIELD_INT, 0) != 0 || m->candidates == NULL || m->state == NULL ||
        m->hits == NULL || m->out == NULL || m->failed == NULL || m->retry == NULL || m->rxm == NULL ||
        prefilter_state_init(&m->pf_state, rs->prefilter) != 0) {
        matcher_free(m);
        return NULL;
    }
    return m;
}

void matcher_free(struct matcher *m)
{
    if (m == NULL)
        return;
    prefilter_state_free(&m->pf_state);
    if (m->hits != NULL)
        for (size_t i = 0; i < (m->rs->sig_count ? m->rs->sig_count : 1); i++)
            fields_free(&m->hits[i].fields);
    free(m->hits);
    free(m->out);
    for (size_t i = 0; m->state != NULL && i < m->rs->sig_count; i++)
        rx_free(m->state[i].rx);
    free(m->failed);
    free(m->retry);
    free(m->candidates);
    free(m->state);
    rx_matcher_free(m->rxm);
    rx_free(m->prefixes);
    for (size_t i = 0; m->prefix_rx != NULL && i < m->rs->prefix_count; i++)
        rx_free(m->prefix_rx[i]);
    free(m->prefix_rx);
    fields_free(&m->step);
    free(m);
}

/* SIG's regex from the cache, compiled on first use; NULL if it cannot be
 * (reported once). */
static struct rx *sig_rx(struct matcher *m, const struct sig *sig)
{
    struct sig_state *st = &m->state[sig->index];
    if (st->rx == NULL && !st->compile_failed) {
        st->rx = sig_compile(sig, m->sink);
        st->compile_failed = st->rx == NULL;
    }
    return st->rx;
}

const struct rx *matcher_sig_rx(struct matcher *m, const struct sig *sig)
{
    return sig_rx(m, sig);
}

/* Runs SIG's regex over LINE (compiled on first use, JIT-compiled after
 * SIG_JIT_AFTER runs, switched off after LIMIT_HITS_TO_DISABLE limit
 * hits): 1 match, 0 none, -1 regex trouble. */
static int run_sig(struct matcher *m, const struct sig *sig, const char *line, size_t len)
{
    struct sig_state *st = &m->state[sig->index];
    struct rx *rx = st->disabled ? NULL : sig_rx(m, sig);
    if (rx == NULL)
        return -1;
    if (++st->runs == SIG_JIT_AFTER)
        rx_jit(rx);
    enum rx_result rc = rx_match(rx, m->rxm, line, len);
    if (rc == RX_MATCH)
        return 1;
    if (rc == RX_LIMIT) {
        m->limit_sig = sig;
        m->limit_new++;
    }
    if (rc == RX_LIMIT && ++st->limit_hits >= LIMIT_HITS_TO_DISABLE) {
        st->disabled = 1;
        origin_report(m->sink, OD_SEV_WARNING, &sig->pattern_at, NULL, 0,
                      "signature \"%s\" disabled: its pattern hit PCRE2's backtracking limit %u times", sig->id,
                      st->limit_hits);
    }
    return rc == RX_NOMATCH ? 0 : -1;
}

/* Runs one signature's regex and parses its captures into FIELDS
 * (cleared first), giving the length of the match in *SPAN (if not NULL)
 * and the number of captured fields in *CAPTURED (if not NULL): 1 match,
 * 0 none, -1 regex trouble. */
static int try_sig(struct matcher *m, const struct sig *sig, const char *line, size_t len, struct od_fields *fields,
                   size_t *span, size_t *captured)
{
    fields_free(fields);
    int got = run_sig(m, sig, line, len);
    if (got != 1)
        return got;
    if (span != NULL) {
        size_t start, end;
        rx_match_span(m->rxm, &start, &end);
        *span = end - start;
    }
    rx_each_capture(m->state[sig->index].rx, m->rxm, line, evidence_capture, fields);
    if (captured != NULL)
        *captured = fields->count; /* before fields derived from them */
    evidence_derive(m->rs, fields);
    return 1;
}

/* The step a progress match captured, as evidence_capture would type it. */
static int on_step(void *ctx, const char *name, const char *value, size_t len)
{
    struct hit *h = ctx;
    if (strcmp(name, EVIDENCE_STEP) == 0)
        h->has_step = evidence_int(value, len, &h->step) == 0;
    return 0;
}

/* A progress signature under MATCHER_PROGRESS_STEP: matched, and of its
 * captures only the step read (no field list built). */
static int try_progress(struct matcher *m, const struct sig *sig, const char *line, size_t len, struct hit *h)
{
    fields_free(&h->fields);
    h->has_step = 0;
    int got = run_sig(m, sig, line, len);
    if (got == 1)
        rx_each_capture(m->state[sig->index].rx, m->rxm, line, on_step, h);
    return got;
}

/* Do signatures A and B compete for the same evidence? */
static int rivals(const struct sig *a, const struct sig *b)
{
    return a->cause != NULL && a->cause == b->cause && a->role == b->role;
}

/* Fields that hold a number (a size, a device, a pid): facts parsed from
 * the line, where a string may be a catch-all of the rest of it. */
static size_t numbers(const struct od_fields *f)
{
    size_t n = 0;
    for (size_t i = 0; i < f->count; i++)
        n += f->items[i].type != OD_FIELD_STRING;
    return n;
}

/* Is hit A more specific than hit B (both rivals)?  More numbers, then
 * more fields, then a longer match, then the signature defined first. */
static int more_specific(const struct hit *a, const struct hit *b)
{
    size_t na = numbers(&a->fields), nb = numbers(&b->fields);
    if (na != nb)
        return na > nb;
    if (a->fields.count != b->fields.count)
        return a->fields.count > b->fields.count;
    if (a->span != b->span)
        return a->span > b->span;
    return a->sig->index < b->sig->index;
}

/* Marks every hit that a rival beats. */
static void pick_most_specific(struct hit *hits, size_t n)
{
    for (size_t i = 0; i < n; i++)
        for (size_t k = 0; k < n && !hits[i].beaten; k++)
            if (k != i && rivals(hits[i].sig, hits[k].sig) && more_specific(&hits[k], &hits[i]))
                hits[i].beaten = 1;
    /* The winner gives the evidence; a fact only a rival read from the line
     * (an error's code name beside its text) is kept with it. */
    for (size_t i = 0; i < n; i++)
        for (size_t k = 0; k < n && !hits[i].beaten; k++)
            if (hits[k].beaten && rivals(hits[i].sig, hits[k].sig))
                fields_merge_missing(&hits[i].fields, &hits[k].fields);
}

/* The named groups a signature's pattern has: how much it can tell. */
static unsigned potential(const struct matcher *m, const struct sig *s)
{
    const struct rx *rx = m->state[s->index].rx;
    return rx != NULL ? rx_name_count(rx) : 0;
}

static void add_want(struct matcher_want *out, size_t *n, const struct sig *s)
{
    for (size_t k = 0; k < *n; k++)
        if (out[k].cause == s->cause && out[k].role == s->role)
            return;
    if (*n < MATCHER_WANT_MAX)
        out[(*n)++] = (struct matcher_want){s->cause, s->role};
}

/* The causes and roles for which a signature could tell more than the
 * match that stands for them tells: one that failed, or the match itself
 * when some of its groups did not take part (a line cut before them). */
static size_t find_wants(const struct matcher *m, struct matcher_want *out)
{
    size_t n = 0;
    for (size_t k = 0; k < m->hit_count; k++) {
        const struct hit *h = &m->hits[k];
        if (!h->beaten && h->sig->cause != NULL && h->sig->role != OD_ROLE_CONTEXT &&
            potential(m, h->sig) > h->captured)
            add_want(out, &n, h->sig);
    }
    for (size_t i = 0; i < m->failed_count; i++) {
        const struct sig *f = m->rs->sigs[m->failed[i]];
        if (f->role == OD_ROLE_PROGRESS || f->role == OD_ROLE_CONTEXT)
            continue;
        int outranked = 0;
        for (size_t k = 0; k < m->hit_count && !outranked; k++) {
            const struct hit *h = &m->hits[k];
            outranked = !h->beaten && rivals(h->sig, f) && h->fields.count >= potential(m, f);
        }
        if (!outranked)
            add_want(out, &n, f);
    }
    return n;
}

/* The matcher's own JIT-compiled copies of the line prefixes' patterns
 * (NULL where one does not compile), made once they have run
 * SIG_JIT_AFTER times; until then, or when out of memory, NULL. */
static struct rx **prefix_copies(struct matcher *m)
{
    const struct od_ruleset *rs = m->rs;
    if (m->prefix_rx != NULL || m->prefix_runs != SIG_JIT_AFTER)
        return m->prefix_rx;
    m->prefix_runs++; /* made once (tried once when out of memory) */
    m->prefix_rx = calloc(rs->prefix_count, sizeof *m->prefix_rx);
    if (m->prefix_rx == NULL)
        return NULL;
    for (size_t i = 0; i < rs->prefix_count; i++) {
        char err[256];
        size_t off = 0;
        m->prefix_rx[i] = rx_compile(rs->prefixes[i]->pattern, 0, err, sizeof err, &off);
        if (m->prefix_rx[i] != NULL)
            rx_jit(m->prefix_rx[i]);
    }
    return m->prefix_rx;
}

size_t matcher_prefix(struct matcher *m, const char *text, size_t len, const struct line_prefix **which)
{
    const struct od_ruleset *rs = m->rs;
    if (rs->prefix_count == 0 || len == 0)
        return 0;
    if (m->prefix_runs < SIG_JIT_AFTER)
        m->prefix_runs++;
    struct rx **own = prefix_copies(m);
    for (size_t i = 0; i < rs->prefix_count; i++) {
        const struct line_prefix *p = rs->prefixes[i];
        const struct rx *rx = own != NULL && own[i] != NULL ? own[i] : p->rx;
        if (rx == NULL || rx_match(rx, m->rxm, text, len) != RX_MATCH)
            continue;
        size_t start, end;
        rx_match_span(m->rxm, &start, &end);
        if (start != 0 || end == 0)
            continue; /* nothing taken off */
        if (which != NULL)
            *which = p;
        return end;
    }
    return 0;
}

/* Can PATTERN match a line's rest (the line less a prefix) where it does
 * not match the line?  Only if it looks at where its subject starts or at
 * what comes before its match: a '^' outside a character class, \\A or \\G,
 * a lookbehind.  (An unanchored pattern that matches the rest matches the
 * line too: trying it again would only cost time.) */
static int pattern_at_start(const char *p)
{
    int in_class = 0;
    for (; *p != '\0'; p++) {
        if (*p == '\\') {
            if (p[1] == '\0')
                break;
            if (!in_class && (p[1] == 'A' || p[1] == 'G'))
                return 1;
            if (p[1] == 'Q') { /* \\Q...\\E: literal text */
                const char *e = strstr(p + 2, "\\E");
                if (e == NULL)
                    break;
                p = e + 1;
                continue;
            }
            p++;
        } else if (in_class) {
            in_class = *p != ']';
        } else if (*p == '[') {
            in_class = 1;
            if (p[1] == '^')
                p++;
            if (p[1] == ']')
                p++; /* a ']' first in a class is a member */
        } else if (*p == '^' || (p[0] == '(' && p[1] == '?' && p[2] == '<' && (p[3] == '=' || p[3] == '!'))) {
            return 1;
        }
    }
    return 0;
}

/* Is SIG worth trying again behind a line prefix?  Only if its pattern
 * looks at where the line starts; and not a progress signature: progress
 * lines are many, and their patterns take the prefixes that progress lines
 * carry themselves. */
static int at_start(struct matcher *m, const struct sig *sig)
{
    struct sig_state *st = &m->state[sig->index];
    if (st->at_start < 0)
        st->at_start = (signed char)(sig->role != OD_ROLE_PROGRESS && pattern_at_start(sig->pattern));
    return st->at_start;
}

/* The line prefixes' patterns as one alternation, tried in their order
 * (PCRE2 takes the first alternative that matches): one regex run finds
 * the prefix a line starts with.  NULL when there are none or it cannot be
 * compiled. */
static struct rx *all_prefixes(struct matcher *m)
{
    const struct od_ruleset *rs = m->rs;
    if (m->prefixes_state != 0)
        return m->prefixes;
    m->prefixes_state = -1;
    size_t n = 0;
    for (size_t i = 0; i < rs->prefix_count; i++)
        n += strlen(rs->prefixes[i]->pattern) + 5;
    char *pat = n > 0 ? malloc(n + 1) : NULL, err[256];
    if (pat == NULL)
        return NULL;
    size_t o = 0, off = 0;
    for (size_t i = 0; i < rs->prefix_count; i++) {
        const char *p = rs->prefixes[i]->pattern;
        size_t l = strlen(p);
        memcpy(pat + o, i > 0 ? "|(?:" : "(?:", i > 0 ? 4 : 3);
        o += i > 0 ? 4 : 3;
        memcpy(pat + o, p, l);
        o += l;
        pat[o++] = ')';
    }
    pat[o] = '\0';
    if (rs->image_prefix_alt != NULL && strcmp(pat, rs->image_prefix_alt) == 0) /* compiled at build time */
        m->prefixes = rx_deserialize(rs->image_prefix_alt_code, rs->image_prefix_alt_len, 0);
    if (m->prefixes == NULL)
        m->prefixes = rx_compile(pat, 0, err, sizeof err, &off);
    free(pat);
    if (m->prefixes != NULL)
        m->prefixes_state = 1;
    return m->prefixes;
}

/* The length of the line prefix TEXT starts with, 0 if none or if
 * nothing would be left (matcher_prefix without the shape). */
static size_t prefix_length(struct matcher *m, const char *text, size_t len)
{
    struct rx *rx = all_prefixes(m);
    if (rx == NULL)
        return matcher_prefix(m, text, len, NULL);
    if (++m->prefixes_runs == SIG_JIT_AFTER)
        rx_jit(rx); /* not at once: a short log would pay more for the JIT than for its runs */
    if (len == 0 || rx_match(rx, m->rxm, text, len) != RX_MATCH)
        return 0;
    size_t start, end;
    rx_match_span(m->rxm, &start, &end);
    return start == 0 && end < len ? end : 0;
}

/* Does a match of SIG explain its line: a signature of a cause that is no
 * hint, progress or context? */
static int explains(const struct sig *sig)
{
    return sig->cause != NULL && sig->role != OD_ROLE_HINT && sig->role != OD_ROLE_PROGRESS &&
           sig->role != OD_ROLE_CONTEXT;
}

/* Tries candidate SIG on LINE into the next free hit; 1 when it matched
 * (the hit is then counted), 0 when not, -1 on regex trouble. */
static int try_candidate(struct matcher *m, const struct sig *sig, const char *line, size_t len, int flags,
                         size_t *nhits)
{
    struct hit *h = &m->hits[*nhits];
    h->span = 0; /* only signatures of a cause compete */
    h->captured = 0;
    h->brief = (flags & MATCHER_PROGRESS_STEP) && sig->role == OD_ROLE_PROGRESS && sig->cause == NULL &&
               sig->series == NULL; /* a memory reading needs its fields */
    int got = h->brief ? try_progress(m, sig, line, len, h)
                       : try_sig(m, sig, line, len, &h->fields, sig->cause != NULL ? &h->span : NULL, &h->captured);
    if (got != 1)
        return got;
    h->sig = sig;
    h->beaten = 0;
    (*nhits)++;
    return 1;
}

/* The candidates that did not match the line, and might match behind a
 * prefix (AGAIN of them: at_start), are tried again on what follows each
 * recognised line prefix in turn (a time stamp, a journal's host and
 * process, "[rank3]:", a quote), so that a pattern anchored at the start of
 * a program's text finds it behind them.  m->retry keeps the rest in order. */
static void retry_behind_prefixes(struct matcher *m, const char *line, size_t len, int flags, size_t *nhits,
                                  size_t again)
{
    size_t off = 0;
    for (int layer = 0; layer < PREFIX_LAYERS_MAX && again > 0; layer++) {
        size_t skip = prefix_length(m, line + off, len - off);
        if (skip == 0)
            return;
        off += skip;
        size_t keep = 0;
        for (size_t i = 0; i < m->retry_count; i++) {
            const struct sig *sig = m->rs->sigs[m->retry[i]];
            if (at_start(m, sig) && try_candidate(m, sig, line + off, len - off, flags, nhits) == 1)
                again--;
            else
                m->retry[keep++] = m->retry[i];
        }
        m->retry_count = keep;
    }
}

/* The first pass over the line's candidates: every one but the fallback
 * signatures (kept aside in DEFERRED, up to FALLBACKS_MAX) and those FLAGS
 * leave out; a miss that might match behind a line prefix is tried there.
 * Returns the number of hits. */
static size_t first_pass(struct matcher *m, const char *line, size_t len, size_t n, int flags,
                         const struct sig **deferred, size_t *ndeferred)
{
    size_t nhits = 0, again = 0;
    for (size_t i = 0; i < n; i++) {
        const struct sig *sig = m->rs->sigs[m->candidates[i]];
        if (sig->fallback) {
            if (*ndeferred < FALLBACKS_MAX && !(flags & MATCHER_NO_FALLBACK))
                deferred[(*ndeferred)++] = sig;
            continue;
        }
        if ((flags & MATCHER_SKIP_PROGRESS) && sig->role == OD_ROLE_PROGRESS) {
            m->res.skipped_progress = 1;
            continue;
        }
        if ((flags & MATCHER_ONLY_PROGRESS) && sig->role != OD_ROLE_PROGRESS)
            continue;
        if (try_candidate(m, sig, line, len, flags, &nhits) == 0) {
            m->retry[m->retry_count++] = sig->index;
            again += at_start(m, sig);
        }
    }
    if (again > 0)
        retry_behind_prefixes(m, line, len, flags, &nhits, again);
    for (size_t i = 0; i < m->retry_count; i++)
        if (m->rs->sigs[m->retry[i]]->cause != NULL)
            m->failed[m->failed_count++] = m->retry[i];
    return nhits;
}

/* Fallback signatures (generic ones built from the lexicon) run last,
 * and only on a line that no specific signature explained (all run under
 * MATCHER_ALL_HITS): they never rival a specific match, and their misses
 * are no near misses. */
static void try_fallbacks(struct matcher *m, const char *line, size_t len, int flags, const struct sig **deferred,
                          size_t ndeferred, size_t *nhits)
{
    int explained = 0;
    for (size_t i = 0; i < *nhits; i++)
        explained |= explains(m->hits[i].sig);
    for (size_t i = 0; i < ndeferred && (!explained || (flags & MATCHER_ALL_HITS)); i++)
        if (!((flags & MATCHER_ONLY_PROGRESS) && deferred[i]->role != OD_ROLE_PROGRESS))
            (void)try_candidate(m, deferred[i], line, len, flags, nhits);
}

/* The causes and roles the line wants joined, and what its matches tell
 * of them. */
static void note_wants(struct matcher *m)
{
    struct matcher_result *r = &m->res;
    size_t caused = 0;
    for (size_t i = 0; i < m->hit_count; i++)
        caused += m->hits[i].sig->cause != NULL;
    r->want_count = m->failed_count || caused ? find_wants(m, r->want) : 0;
    for (size_t i = 0; i < m->hit_count && r->want_count > 0; i++)
        for (size_t k = 0; k < r->want_count; k++)
            if (!m->hits[i].beaten && m->hits[i].sig->cause == r->want[k].cause &&
                m->hits[i].sig->role == r->want[k].role)
                r->want_score += m->hits[i].fields.count + 1;
}

/* Puts the hits no rival beat into the result. */
static void report_hits(struct matcher *m)
{
    struct matcher_result *r = &m->res;
    size_t plain = 0;
    for (size_t i = 0; i < m->hit_count; i++) {
        struct hit *h = &m->hits[i];
        if (h->beaten)
            continue;
        plain += (h->sig->cause != NULL && h->sig->role != OD_ROLE_PROGRESS && h->sig->role != OD_ROLE_CONTEXT) ||
                 h->sig->role == OD_ROLE_ERROR; /* the scan only notes the line as the last error */
        /* A brief match shows its step alone, as one field (none when it
         * captured none). */
        if (h->brief) {
            h->step_item = m->step.items[0];
            h->step_item.num = h->step;
            h->step_view = (struct od_fields){(size_t)h->has_step, 1, &h->step_item};
        }
        m->out[r->hit_count++] = (struct matcher_hit){h->sig, h->brief ? &h->step_view : &h->fields};
    }
    r->plain = plain == r->hit_count;
}

const struct matcher_result *matcher_line(struct matcher *m, const char *line, size_t len, int flags)
{
    struct matcher_result *r = &m->res;
    size_t n = prefilter_find(m->rs->prefilter, &m->pf_state, line, len, m->candidates);
    /* Only what a line sets is reset (the wants are read up to want_count). */
    r->hit_count = 0;
    r->held = 0;
    r->want_count = 0;
    r->want_score = 0;
    r->plain = 1;
    r->skipped_progress = 0;
    r->near_miss_count = 0;
    m->failed_count = 0;
    m->retry_count = 0;
    m->hit_count = 0;
    if (n == 0)
        return r; /* most lines */
    const struct sig *deferred[FALLBACKS_MAX];
    size_t ndeferred = 0;
    size_t nhits = first_pass(m, line, len, n, flags, deferred, &ndeferred);
    r->near_miss_count = m->failed_count;
    try_fallbacks(m, line, len, flags, deferred, ndeferred, &nhits);
    if (nhits > 1 && !(flags & MATCHER_ALL_HITS))
        pick_most_specific(m->hits, nhits);
    m->hit_count = nhits;
    note_wants(m);
    r->held = (flags & MATCHER_HOLD) && r->want_count > 0;
    if (!r->held)
        report_hits(m);
    return r;
}

size_t matcher_literal_sigs(struct matcher *m, const char *text, size_t len, const struct sig **out, size_t max)
{
    size_t c = prefilter_find(m->rs->prefilter, &m->pf_state, text, len, m->candidates), n = 0;
    for (size_t i = 0; i < c && n < max; i++) {
        const struct sig *s = m->rs->sigs[m->candidates[i]];
        if (s->cause != NULL && s->role != OD_ROLE_PROGRESS && s->role != OD_ROLE_CONTEXT && !s->fallback)
            out[n++] = s;
    }
    return n;
}

size_t matcher_literal_reach(const struct matcher *m)
{
    return m->reach;
}

int matcher_has_literal_of(struct matcher *m, const char *text, size_t len, const struct matcher_want *want, size_t n)
{
    size_t c = prefilter_find(m->rs->prefilter, &m->pf_state, text, len, m->candidates);
    for (size_t i = 0; i < c; i++) {
        const struct sig *s = m->rs->sigs[m->candidates[i]];
        for (size_t k = 0; k < n && !s->fallback; k++)
            if (s->cause == want[k].cause && s->role == want[k].role)
                return 1;
    }
    return 0;
}

unsigned matcher_limit_take(struct matcher *m, const struct sig **sig)
{
    unsigned n = m->limit_new;
    *sig = m->limit_sig;
    m->limit_new = 0;
    m->limit_sig = NULL;
    return n;
}

int matcher_rank(struct matcher *m, const struct rank_source *src, const char *text, size_t len)
{
    if (src->rx == NULL || rx_match(src->rx, m->rxm, text, len) != RX_MATCH)
        return -1;
    struct od_fields f;
    fields_init(&f);
    rx_each_capture(src->rx, m->rxm, text, evidence_capture, &f);
    int rank = evidence_rank(&f);
    fields_free(&f);
    return rank;
}
