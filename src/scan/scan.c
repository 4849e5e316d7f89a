/* The single pass: inputs (stdin, files, directory trees, gzip) -> lines
 * -> matcher -> findings of a job.  A line that holds a failure's headline
 * but not all of its message is held back while the next lines may be its
 * rest (join.h); a per-input error is reported, marked and the scan goes
 * on with the next input. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ansi.h"
#include "evidence.h"
#include "feed.h"
#include "fields.h"
#include "job.h"
#include "linesplit.h"
#include "memseries.h"
#include "reader.h"
#include "selfreport.h"
#include "textsafe.h"
#include "walk.h"

struct line_ctx {
    struct od_job *job;
    size_t input;
    const char *text;
    size_t len;
    unsigned long long number;
    int line_rank; /* -2: not looked up yet */
};

static int line_rank(struct line_ctx *lc)
{
    if (lc->line_rank != -2)
        return lc->line_rank;
    lc->line_rank = -1;
    const struct od_ruleset *rs = lc->job->rs;
    for (size_t i = 0; i < rs->rank_count && lc->line_rank < 0; i++)
        if (!rs->ranks[i]->from_path)
            lc->line_rank = matcher_rank(lc->job->matcher, rs->ranks[i], lc->text, lc->len);
    return lc->line_rank;
}

static int on_hit(void *ctx, const struct sig *sig, const struct od_fields *fields)
{
    struct line_ctx *lc = ctx;
    struct input *in = &lc->job->inputs[lc->input];
    if (sig->role == OD_ROLE_PROGRESS && (sig->series != NULL || sig->boundary != NULL)) {
        /* a memory reading or a boundary: data for the classifier, not a progress line of its own */
        const struct od_field *step = fields_get(fields, EVIDENCE_STEP);
        lc->job->sig_counts[sig->index]++;
        return memseries_note(in, sig, fields, step && step->type == OD_FIELD_INT ? step->num : in->last_step,
                              lc->number);
    }
    if (sig->role == OD_ROLE_PROGRESS) {
        const struct od_field *step = fields_get(fields, EVIDENCE_STEP);
        lc->job->pending_len = 0; /* a later progress line supersedes it */
        in->progress_lines++;
        long long at = -1;
        if (step != NULL && step->type == OD_FIELD_INT)
            at = in->last_step = step->num;
        lc->job->sig_counts[sig->index]++;
        if (in->mark_count > 0) { /* a failure came before: did the program go on? */
            int rank = -1;
            if (job_progress_wants_rank(lc->job, lc->input)) {
                rank = line_rank(lc);
                if (rank < 0)
                    rank = in->context_rank;
                if (rank < 0)
                    rank = in->rank;
            }
            job_progress_after(lc->job, lc->input, at, rank, sig->goes_on);
        }
        return 0;
    }
    int rank = evidence_rank(fields);
    if (sig->role == OD_ROLE_ERROR) {
        lc->job->sig_counts[sig->index]++;
        char *copy = textsafe_dup(lc->text, lc->len, JOB_TEXT_MAX);
        if (copy == NULL)
            return -1;
        free(lc->job->last_error.text);
        lc->job->last_error.text = copy;
        lc->job->last_error.input = lc->input;
        lc->job->last_error.line = lc->number;
        return 0;
    }
    if (sig->role == OD_ROLE_CONTEXT) {
        lc->job->sig_counts[sig->index]++;
        in->context_rank = rank;
        return 0;
    }
    if (rank < 0)
        rank = line_rank(lc);
    if (rank < 0)
        rank = in->context_rank;
    if (rank < 0)
        rank = in->rank;
    return job_record(lc->job, lc->input, sig, fields, lc->text, lc->len, lc->number, rank);
}

/* The rank a path names.  The component closest to the file wins: the
 * path's suffixes are tried from the base name outwards, so that
 * "runs/rank1-test/rank0.log" is rank 0. */
static int path_rank(struct od_job *job, const char *path)
{
    const struct od_ruleset *rs = job->rs;
    size_t len = strlen(path);
    for (size_t start = len; start-- > 0;) {
        if (start > 0 && path[start - 1] != '/')
            continue;
        for (size_t i = 0; i < rs->rank_count; i++) {
            if (!rs->ranks[i]->from_path)
                continue;
            int rank = matcher_rank(job->matcher, rs->ranks[i], path + start, len - start);
            if (rank >= 0)
                return rank;
        }
    }
    return -1;
}

/* Hands each match of the line the matcher read to on_hit: 0, or -1 when
 * one failed (the rest of the line is then left). */
static int take_hits(struct line_ctx *lc, const struct matcher_result *r)
{
    for (size_t i = 0; i < r->hit_count; i++)
        if (on_hit(lc, r->hits[i].sig, r->hits[i].fields) != 0)
            return -1;
    return 0;
}

/* Evaluates the pending "\r" progress update, if any; the result of its
 * reading, or NULL when there was none. */
static const struct matcher_result *resolve_pending(struct od_job *job, size_t input)
{
    size_t len = job->pending_len;
    if (len == 0)
        return NULL;
    job->pending_len = 0;
    struct line_ctx lc = {job, input, job->pending, len, 0, -2};
    const struct matcher_result *r =
        matcher_line(job->matcher, job->pending, len, MATCHER_ONLY_PROGRESS | MATCHER_PROGRESS_STEP);
    (void)take_hits(&lc, r);
    return r;
}

/* --trace: keeps, for each signature whose literal the line held but whose
 * pattern did not match, how often and the first such line. */
static void note_near_misses(struct od_job *job, size_t input, unsigned long long number, const char *text, size_t len,
                             const struct matcher_result *r)
{
    for (size_t i = 0; i < r->near_miss_count; i++) {
        const struct sig *sig = job->rs->sigs[r->near_misses[i]];
        size_t k = 0;
        while (k < job->near_count && job->near[k].sig != sig)
            k++;
        if (k == job->near_count) {
            if (k == JOB_NEAR_MAX)
                continue;
            job->near[k] = (struct near_miss){sig, input, number, 0, textsafe_dup(text, len, JOB_TEXT_MAX)};
            if (job->near[k].text == NULL)
                continue;
            job->near_count++;
        }
        job->near[k].count++;
    }
}

/* Signatures that hit PCRE2's match limit on the line: never silent (a
 * note in --trace and in JSON), the first line of each kept. */
static void note_limit_hits(struct od_job *job, size_t input, unsigned long long number)
{
    const struct sig *sig;
    unsigned n = matcher_limit_take(job->matcher, &sig);
    if (n == 0 || sig == NULL)
        return;
    size_t k = 0;
    while (k < job->limit_count && job->limit[k].sig != sig)
        k++;
    if (k == job->limit_count) {
        if (k == JOB_NEAR_MAX)
            return;
        job->limit[k] = (struct near_miss){sig, input, number, 0, NULL};
        job->limit_count++;
    }
    job->limit[k].count += n;
}

/* Matches a line (TEXT, LEN: the line less escapes, or a reading joined
 * from several) and records what it shows.  Returns 0, 1 when the matcher
 * held it (MATCHER_HOLD; *RES, if not NULL, is then the result), -1 when
 * out of memory.  Of a progress bar's "\r" updates only the last one
 * before something else happens counts: an update is kept aside (one copy,
 * no regex) and evaluated only when a finding follows it or the input
 * ends.  *PLAIN (if not NULL) is matcher_result.plain of the last reading
 * made: the line's, or the pending update's when a finding of the line
 * resolved it (and then that reading's skipped_progress decides whether
 * the line is kept aside in turn). */
static inline int match_line(struct od_job *job, size_t input, const struct line *ln, const char *text, size_t len,
                             int flags, const struct matcher_result **res, int *plain)
{
    struct line_ctx lc = {job, input, text, len, ln->number, -2};
    size_t before = job->finding_count;
    int had_pending = job->pending_len > 0;
    flags |= MATCHER_PROGRESS_STEP |
             (ln->cr_ended ? MATCHER_SKIP_PROGRESS : 0); /* on_hit reads a progress line's step only */
    const struct matcher_result *r = matcher_line(job->matcher, text, len, flags);
    if (res != NULL)
        *res = r;
    if (r->held)
        return 1;
    if (take_hits(&lc, r) != 0)
        return -1;
    if (job->opts.trace)
        note_near_misses(job, input, ln->number, text, len, r);
    int skipped_progress = r->skipped_progress, was_plain = r->plain;
    note_limit_hits(job, input, ln->number);
    if (had_pending && job->pending_len > 0 && job->finding_count > before) {
        const struct matcher_result *p = resolve_pending(job, input);
        skipped_progress = p->skipped_progress;
        was_plain = p->plain;
        for (size_t i = before; i < job->finding_count; i++)
            job->findings[i].step_at = job->inputs[input].last_step;
        job_progress_before(job, input, ln->number);
    }
    if (ln->cr_ended && skipped_progress) {
        job->pending_len = len < JOB_PENDING_MAX ? len : JOB_PENDING_MAX;
        memcpy(job->pending, text, job->pending_len);
    }
    if (plain != NULL)
        *plain = was_plain;
    return 0;
}

/* ---- rejoining broken messages ------------------------------------------------------ */

/* How much the reading R tells about what the join looks for: the fields
 * of its matches of the wanted causes and roles (as want_score counts). */
static size_t probe_score(const struct od_job *job, const struct matcher_result *r)
{
    size_t score = 0;
    for (size_t h = 0; h < r->hit_count; h++)
        for (size_t i = 0; i < job->want_count; i++)
            if (r->hits[h].sig->cause == job->want[i].cause && r->hits[h].sig->role == job->want[i].role)
                score += r->hits[h].fields->count + 1;
    return score;
}

/* Does the reading R still lack something the join looks for? */
static int still_wanting(const struct od_job *job, const struct matcher_result *r)
{
    for (size_t i = 0; i < r->want_count; i++)
        for (size_t k = 0; k < job->want_count; k++)
            if (r->want[i].cause == job->want[k].cause && r->want[i].role == job->want[k].role)
                return 1;
    return 0;
}

/* Scores the readings of all held lines; 1 when one of them is complete
 * (it leaves nothing wanted), so that no more lines need be held. */
static int probe_join(struct od_job *job)
{
    struct join *j = &job->join;
    for (int glued = 1; glued >= 0; glued--) {
        if (glued && !join_glued_holds(j))
            continue;
        size_t n = join_reading(j, j->count, glued, j->scratch);
        const struct matcher_result *r =
            matcher_line(job->matcher, j->scratch, n, MATCHER_PROGRESS_STEP | MATCHER_NO_FALLBACK);
        size_t score = probe_score(job, r);
        if (score > job->join_score) {
            job->join_score = score;
            job->join_best_k = j->count;
            job->join_best_glued = glued;
            if (!still_wanting(job, r))
                return 1;
        }
    }
    return 0;
}

/* Ends the join: the best reading, if it told more than the first line
 * alone, stands for the lines it spans; every other held line is matched
 * on its own. */
static int settle_join(struct od_job *job, size_t input)
{
    struct join *j = &job->join;
    size_t from = 0;
    int rc = 0;
    if (job->join_best_k > 1) {
        size_t k = job->join_best_k;
        size_t n = join_reading(j, k, job->join_best_glued, j->scratch);
        struct line ln = {.number = j->lines[0].number, .cr_ended = j->lines[k - 1].cr_ended};
        job_unrecord(job, j->undo);
        /* A fallback reads one line: not a sentence wrapped over several. */
        rc = match_line(job, input, &ln, j->scratch, n, MATCHER_NO_FALLBACK, NULL, NULL);
        from = k;
    }
    if (from < j->first_done)
        from = j->first_done; /* they were matched on their own already */
    for (size_t i = from; i < j->count && rc == 0; i++) {
        struct line ln = {.number = j->lines[i].number, .cr_ended = j->lines[i].cr_ended};
        rc = match_line(job, input, &ln, j->glued + j->lines[i].off, j->lines[i].len, 0, NULL, NULL);
    }
    join_clear(j);
    return rc;
}

/* The causes and roles of literals that straddle the break at CUT in WIN
 * (N bytes): signatures whose literal is in the window but in neither side
 * alone. */
static size_t straddling(struct od_job *job, const char *win, size_t n, size_t cut, struct matcher_want *out)
{
    enum { MAX = 64 };
    const struct sig *w[MAX], *a[MAX], *b[MAX];
    size_t nw = matcher_literal_sigs(job->matcher, win, n, w, MAX);
    if (nw == 0)
        return 0;
    size_t na = matcher_literal_sigs(job->matcher, win, cut, a, MAX);
    size_t nb = matcher_literal_sigs(job->matcher, win + cut, n - cut, b, MAX);
    size_t k = 0;
    for (size_t i = 0; i < nw; i++) {
        int inside = 0, have = 0;
        for (size_t x = 0; x < na && !inside; x++)
            inside = a[x] == w[i];
        for (size_t x = 0; x < nb && !inside; x++)
            inside = b[x] == w[i];
        for (size_t x = 0; x < k && !have; x++)
            have = out[x].cause == w[i]->cause && out[x].role == w[i]->role;
        if (!inside && !have && k < MATCHER_WANT_MAX)
            out[k++] = (struct matcher_want){w[i]->cause, w[i]->role};
    }
    return k;
}

/* The line prefixes at TEXT's start that the first line (L1, N1 bytes:
 * the join's, or the run's last line before a join starts) starts with
 * too, in the same order (a quote, a time stamp, a line number put on
 * every line after the message was broken): their length, 0 if none.
 * *FIRST is then where L1's rest starts.  L1's prefixes are found once,
 * until job->join_shapes_known is cleared. */
static size_t shared_prefixes(struct od_job *job, const char *l1, size_t n1, const char *text, size_t len,
                              size_t *first)
{
    if (!job->join_shapes_known) {
        size_t off = 0, skip;
        const struct line_prefix *which = NULL;
        job->join_shape_count = 0;
        while (job->join_shape_count < JOIN_PREFIX_MAX &&
               (skip = matcher_prefix(job->matcher, l1 + off, n1 - off, &which)) > 0) {
            off += skip;
            job->join_shapes[job->join_shape_count] = which;
            job->join_shape_end[job->join_shape_count++] = off;
        }
        job->join_shapes_known = 1;
    }
    size_t off = 0, k = 0;
    for (; k < job->join_shape_count; k++) {
        const struct line_prefix *which = NULL;
        size_t skip = matcher_prefix(job->matcher, text + off, len - off, &which);
        if (skip == 0 || which != job->join_shapes[k])
            break;
        off += skip;
    }
    *first = k > 0 ? job->join_shape_end[k - 1] : 0;
    return off;
}

/* Does a literal straddle the break between the kept line and TEXT (a
 * wrap at a fixed width cut it in two: "... out of mem" then "ory. ...")?  Then
 * its causes and roles are what the join looks for. */
static int start_at_seam(struct od_job *job, const char *text, size_t len, size_t *skip, size_t *first)
{
    struct join *j = &job->join;
    size_t reach = matcher_literal_reach(job->matcher), cut = 0, last = join_seam_last(j);
    *skip = shared_prefixes(job, j->seam + j->seam_len - last, last, text, len, first);
    text += *skip; /* the prefixes the kept line has too are no part of the message */
    len -= *skip;
    if (join_record_start(text, len))
        return 0;
    size_t n = join_seam_window(j, text, len, reach, j->scratch, &cut);
    if (n == 0)
        return 0;
    size_t w = straddling(job, j->scratch, n, cut, job->want);
    if (w == 0)
        return 0;
    job->want_count = w;
    return 1;
}

/* After a line was added to the join: a literal that straddles its break
 * with the line before adds its cause and role to what the join looks for;
 * the first line's score is then taken again under the wider set. */
static void widen_wants(struct od_job *job)
{
    struct join *j = &job->join;
    const struct join_line *a = &j->lines[j->count - 2], *b = &j->lines[j->count - 1];
    size_t reach = matcher_literal_reach(job->matcher);
    size_t an = a->len - a->skip, bn = b->len - b->skip;
    size_t x = an < reach ? an : reach, y = bn < reach ? bn : reach;
    memcpy(j->scratch, j->glued + a->off + a->len - x, x);
    memcpy(j->scratch + x, j->glued + b->off + b->skip, y);
    struct matcher_want w[MATCHER_WANT_MAX];
    size_t n = straddling(job, j->scratch, x + y, x, w), added = 0;
    for (size_t i = 0; i < n; i++) {
        int have = 0;
        for (size_t k = 0; k < job->want_count && !have; k++)
            have = job->want[k].cause == w[i].cause && job->want[k].role == w[i].role;
        if (!have && job->want_count < MATCHER_WANT_MAX) {
            job->want[job->want_count++] = w[i];
            added++;
        }
    }
    if (added == 0)
        return;
    const struct matcher_result *r =
        matcher_line(job->matcher, j->glued, j->lines[0].len, MATCHER_PROGRESS_STEP | MATCHER_NO_FALLBACK);
    job->join_score = probe_score(job, r);
    job->join_best_k = 0;
}

/* While a join holds lines: adds the line to it if it continues the held
 * message, or else settles the join.  Returns 1 when the line was taken
 * (*RC is then feed_line's result), 0 when it is to be read on its own,
 * -1 when out of memory. */
static int continue_join(struct od_job *job, size_t input, const struct line *ln, const char *text, size_t len, int *rc)
{
    struct join *j = &job->join;
    /* A continuation is held without the prefixes it shares with the
     * first line, if the lines before it were too. */
    size_t first = 0, skip = j->count == 1 || j->first_skip > 0
                                 ? shared_prefixes(job, j->glued, j->lines[0].len, text, len, &first)
                                 : 0;
    if (j->count > 1 && first != j->first_skip)
        skip = 0; /* not the prefixes the others shared */
    const char *rest = text + skip;
    size_t rlen = len - skip;
    if (join_continues(j, rest, rlen) &&
        (!matcher_has_literal_of(job->matcher, rest, rlen, job->want, job->want_count) ||
         join_wrap_cut(j, rest, rlen))) {
        join_add(j, text, len, skip, first, ln->number, ln->cr_ended);
        widen_wants(job);
        *rc = probe_join(job) || j->count >= JOIN_MAX_LINES ? settle_join(job, input) : 0;
        return 1;
    }
    return settle_join(job, input) != 0 ? -1 : 0;
}

/* The matcher held the line (R): its headline is there, the rest may
 * follow.  If it does not look like the start of a record, the run before
 * it (the first parts of a line a wrap at a fixed width cut up, which told
 * nothing on their own) may be its beginning. */
static int hold_line(struct od_job *job, size_t input, const struct line *ln, const char *text, size_t len,
                     const struct matcher_result *r)
{
    struct join *j = &job->join;
    size_t score = r->want_score; /* the held line alone */
    job->want_count = r->want_count;
    memcpy(job->want, r->want, r->want_count * sizeof *job->want);
    job->join_shapes_known = 0; /* start_at_seam may have found the kept line's */
    int after_run = j->seam_len > 0 && !ln->cr_ended && join_run_told_nothing(j) && !join_record_start(text, len) &&
                    join_start_at_seam(j, text, len, 0, 0, ln->number, ln->cr_ended) == 0;
    if (!after_run && join_start(j, text, len, ln->number, ln->cr_ended) != 0)
        return match_line(job, input, ln, text, len, 0, NULL, NULL);
    job->join_score = score;
    job->join_best_k = 0;
    if (after_run && (probe_join(job) || j->count >= JOIN_MAX_LINES))
        return settle_join(job, input);
    return 0;
}

/* One line of the input: it continues a held message, or starts one, or
 * is matched on its own. */
static int feed_line(struct od_job *job, size_t input, const struct line *ln, const char *text, size_t len)
{
    struct join *j = &job->join;
    int rc = 0, plain = 1;
    if (join_active(j)) {
        int taken = continue_join(job, input, ln, text, len, &rc);
        if (taken != 0)
            return taken < 0 ? -1 : rc;
    }
    job->join_shapes_known = 0; /* a join that starts here has another first line */
    size_t skip = 0, first = 0;
    if (j->seam_len > 0 && !ln->cr_ended && start_at_seam(job, text, len, &skip, &first) &&
        join_start_at_seam(j, text, len, skip, first, ln->number, ln->cr_ended) == 0) {
        job->join_shapes_known = 0; /* its first line may be another run line */
        job->join_score = 0;        /* the kept line told nothing */
        job->join_best_k = 0;
        return probe_join(job) || j->count >= JOIN_MAX_LINES ? settle_join(job, input) : 0;
    }
    size_t before = job->finding_count;
    const struct matcher_result *r = NULL;
    rc = match_line(job, input, ln, text, len, MATCHER_HOLD, &r, &plain);
    if (rc == 0) {
        if (!ln->cr_ended && len >= j->max_len) /* only a line as long as any before can be a wrap's */
            join_seam_note(j, text, len, ln->number, 0, plain, job->finding_count - before);
        else
            j->seam_len = 0;
    }
    return rc <= 0 ? rc : hold_line(job, input, ln, text, len, r);
}

/* Reads RD's lines (input IDX, named PATH) into JOB until its end, a
 * binary file's first line, or trouble: 0, or -1. */
static int read_lines(struct od_job *job, struct reader *rd, long idx, const char *path)
{
    struct line ln;
    int rc = 0, first = 1;
    for (;;) {
        int got = reader_next(rd, &ln);
        if (got <= 0) {
            if (got < 0) {
                msg_error(&job->msgs, path, "%s", reader_error(rd));
                job_input_error(job, idx, path, "unreadable", reader_error(rd));
                rc = -1;
            }
            break;
        }
        if (first) {
            first = 0;
            if (reader_is_binary(rd) && !job->opts.binary_as_text) {
                static const char note[] = "binary file skipped (use --binary-files=text to scan it)";
                msg_report(&job->msgs, OD_SEV_NOTE, path, 0, 0, NULL, 0, "%s", note);
                job_input_error(job, idx, path, "binary", note);
                break;
            }
        }
        const char *text = ln.text;
        size_t len = ln.len;
        if (ln.has_escape) {
            len = ansi_strip(text, len, job->line_buf);
            text = job->line_buf;
        }
        if (selfreport_skip(&job->inputs[idx].in_report, text, len))
            continue;
        if (feed_line(job, (size_t)idx, &ln, text, len) != 0) {
            msg_error(&job->msgs, path, "out of memory");
            job->had_error = 1;
            rc = -1;
            break;
        }
    }
    return rc;
}

static int scan_fd(struct od_job *job, int fd, const char *path)
{
    long idx = job_add_input(job, path);
    if (job->reader == NULL)
        job->reader = reader_create(fd);
    else
        reader_reset(job->reader, fd);
    struct reader *rd = job->reader;
    int rc = 0;
    if (idx < 0 || rd == NULL) {
        msg_error(&job->msgs, path, "out of memory");
        job->had_error = 1;
        return -1;
    }
    job->inputs[idx].rank = path_rank(job, path);
    if (od_job_feed_settle(job) != 0) /* a fed input's held lines are its own */
        rc = -1;
    join_seam_reset(&job->join);
    job->join_input = (size_t)idx;
    if (read_lines(job, rd, idx, path) != 0)
        rc = -1;
    if (join_active(&job->join) && settle_join(job, (size_t)idx) != 0 && rc == 0) {
        msg_error(&job->msgs, path, "out of memory");
        job->had_error = 1;
        rc = -1;
    }
    resolve_pending(job, (size_t)idx);
    job->inputs[idx].lines = reader_lines(rd);
    job->inputs[idx].bytes = reader_bytes(rd);
    if (job->inputs[idx].bytes == 0 && job->inputs[idx].error_kind == NULL)
        job_input_error(job, idx, path, "empty", "the input is empty");
    return rc;
}

int od_job_add_fd(struct od_job *job, int fd, const char *path)
{
    return scan_fd(job, fd, path);
}

/* The kind of an errno from opening or listing an input. */
static const char *errno_kind(int err)
{
    if (err == ENOENT || err == ENOTDIR)
        return "not-found";
    if (err == EACCES || err == EPERM)
        return "permission";
    return "unreadable";
}

/* Reports that PATH could not be opened or listed (errno ERR), and keeps
 * it as an input with the reason.  Returns -1. */
static int cannot_read(struct od_job *job, const char *path, int err)
{
    if (!job->opts.no_messages)
        msg_error(&job->msgs, path, "%s", strerror(err));
    job_input_error(job, -1, path, errno_kind(err), strerror(err));
    job->had_error = 1;
    return -1;
}

static int scan_file(struct od_job *job, const char *path)
{
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return cannot_read(job, path, errno);
    int rc = scan_fd(job, fd, path);
    close(fd);
    return rc;
}

static int on_file(void *ctx, const char *path, int depth)
{
    (void)depth;
    return scan_file(ctx, path) != 0 ? -1 : 0;
}

static void on_problem(void *ctx, const char *path, enum walk_problem what, int err)
{
    struct od_job *job = ctx;
    switch (what) {
    case WALK_ERRNO: cannot_read(job, path, err); break;
    case WALK_TOO_DEEP:
        msg_warn(&job->msgs, path, "directory tree deeper than %d levels: not descending", WALK_MAX_DEPTH);
        break;
    case WALK_LOOP: msg_warn(&job->msgs, path, "directory loop (a symbolic link back to a parent): skipped"); break;
    case WALK_EMPTY_DIR:
        if (!job->opts.no_messages)
            msg_error(&job->msgs, path, "no files in this directory");
        job_input_error(job, -1, path, "empty-directory", "no files in this directory");
        break;
    }
}

int od_job_add_path(struct od_job *job, const char *path)
{
    if (strcmp(path, "-") == 0)
        return scan_fd(job, STDIN_FILENO, "-");
    struct walk_ops ops = {on_file, on_problem, job};
    return walk_path(path, &ops) != 0 ? -1 : 0;
}

struct each {
    int (*fn)(void *ctx, const char *path);
    void *ctx;
};

static int each_file(void *ctx, const char *path, int depth)
{
    (void)depth;
    const struct each *e = ctx;
    return e->fn(e->ctx, path);
}

/* A path that cannot be walked is still a job: FN gets it, and the scan
 * then reports it as an input with its reason. */
static void each_problem(void *ctx, const char *path, enum walk_problem what, int err)
{
    (void)err;
    const struct each *e = ctx;
    if (what == WALK_ERRNO || what == WALK_EMPTY_DIR)
        (void)e->fn(e->ctx, path);
}

int od_each_file(const char *path, int (*fn)(void *ctx, const char *path), void *ctx)
{
    if (strcmp(path, "-") == 0)
        return fn(ctx, path);
    struct each e = {fn, ctx};
    struct walk_ops ops = {each_file, each_problem, &e};
    return walk_path(path, &ops);
}

/* ---- feed.h: lines handed in by the caller ---- */

long od_job_feed_begin(struct od_job *job, const char *path)
{
    long idx = job_add_input(job, path);
    if (idx >= 0)
        job->inputs[idx].rank = path_rank(job, path);
    if (idx >= 0 && !join_active(&job->join)) {
        join_seam_reset(&job->join); /* a new input: no line before its first */
        job->join_input = (size_t)idx;
    }
    return idx;
}

/* Fed inputs take turns (the files of a followed directory): lines are
 * rejoined within one input, as a file's are; a line of another input
 * first settles what the last one held. */
static int feed_switch(struct od_job *job, size_t input)
{
    if (job->join_input == input)
        return 0;
    int rc = join_active(&job->join) ? settle_join(job, job->join_input) : 0;
    join_seam_reset(&job->join);
    job->join_input = input;
    return rc;
}

int od_job_feed_line(struct od_job *job, size_t input, const struct line *ln)
{
    const char *text = ln->text;
    size_t len = ln->len;
    if (feed_switch(job, input) != 0)
        return -1;
    if (ln->has_escape) {
        len = ansi_strip(text, len, job->line_buf);
        text = job->line_buf;
    }
    if (selfreport_skip(&job->inputs[input].in_report, text, len))
        return 0;
    return feed_line(job, input, ln, text, len);
}

int od_job_feed_settle(struct od_job *job)
{
    return join_active(&job->join) ? settle_join(job, job->join_input) : 0;
}

struct text_feed {
    struct od_job *job;
    size_t input;
};

static int on_text_line(void *ctx, const struct line *ln, unsigned long long newlines)
{
    const struct text_feed *t = ctx;
    (void)newlines;
    return ln ? od_job_feed_line(t->job, t->input, ln) : 0;
}

int od_job_add_text(struct od_job *job, const char *name, const char *text, size_t len)
{
    struct linesplit ls;
    long idx = od_job_feed_begin(job, name);
    if (idx < 0 || linesplit_init(&ls) != 0)
        return -1;
    struct text_feed t = {job, (size_t)idx};
    int rc = linesplit_push(&ls, text, len, on_text_line, &t);
    if (rc == 0)
        rc = linesplit_end(&ls, on_text_line, &t);
    if (od_job_feed_end(job, (size_t)idx, linesplit_lines(&ls), ls.bytes) != 0)
        rc = -1;
    linesplit_free(&ls);
    return rc;
}

struct od_feed {
    struct text_feed to;
    struct linesplit ls;
};

struct od_feed *od_feed_open(struct od_job *job, const char *name)
{
    struct od_feed *f = calloc(1, sizeof *f);
    long idx = f ? od_job_feed_begin(job, name) : -1;
    if (idx < 0 || linesplit_init(&f->ls) != 0) {
        free(f);
        return NULL;
    }
    f->to = (struct text_feed){job, (size_t)idx};
    return f;
}

int od_feed_push(struct od_feed *f, const char *p, size_t n)
{
    return linesplit_push(&f->ls, p, n, on_text_line, &f->to);
}

void od_feed_counts(struct od_feed *f)
{
    od_job_feed_counts(f->to.job, f->to.input, linesplit_lines(&f->ls), f->ls.bytes);
}

int od_feed_close(struct od_feed *f)
{
    if (f == NULL)
        return 0;
    int rc = linesplit_end(&f->ls, on_text_line, &f->to);
    if (od_job_feed_end(f->to.job, f->to.input, linesplit_lines(&f->ls), f->ls.bytes) != 0)
        rc = -1;
    linesplit_free(&f->ls);
    free(f);
    return rc;
}

long long od_feed_last_step(const struct od_feed *f)
{
    return f->to.job->inputs[f->to.input].last_step;
}

long long od_job_last_step(const struct od_job *job)
{
    long long step = -1;
    for (size_t i = 0; i < job->input_count; i++)
        if (job->inputs[i].last_step > step)
            step = job->inputs[i].last_step;
    return step;
}

int od_job_settle(struct od_job *job)
{
    return od_job_feed_settle(job);
}

size_t od_job_finding_count(const struct od_job *job)
{
    return job->finding_count;
}

void od_job_feed_counts(struct od_job *job, size_t input, unsigned long long lines, unsigned long long bytes)
{
    job->inputs[input].lines = lines;
    job->inputs[input].bytes = bytes;
}

int od_job_feed_end(struct od_job *job, size_t input, unsigned long long lines, unsigned long long bytes)
{
    int rc = job->join_input == input ? od_job_feed_settle(job) : 0;
    resolve_pending(job, input);
    od_job_feed_counts(job, input, lines, bytes);
    return rc;
}
