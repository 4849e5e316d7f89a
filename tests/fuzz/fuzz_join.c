/* libFuzzer: the join of wrapped lines (join.h) driven as the scanner
 * drives it, one line of the input at a time; each line's first byte picks
 * the call (start, continue-or-start, seam note, seam window and start at
 * the seam, readings, clear), the rest is the line.  Lines may be repeated
 * to reach the widths a wrap gives.  Checks: the held lines stay within
 * JOIN_MAX_LINES and JOIN_MAX_BYTES, each is held byte for byte, the
 * glued reading is the held lines back to back and the spaced one no
 * longer than them plus a space per break, a seam window is the kept
 * line's tail and the new line's head, and a blank line never starts a
 * record. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "join.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(int ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "fuzz_join: broken promise: %s\n", what);
        abort();
    }
}

static char *line_buf, *out_buf;

static void check_held(const struct join *j, char *out)
{
    check(j->count <= JOIN_MAX_LINES, "more lines than JOIN_MAX_LINES");
    check(j->glued_len <= JOIN_MAX_BYTES, "more bytes than JOIN_MAX_BYTES");
    check(j->glued_lines <= j->count, "the glued reading holds for more lines than are held");
    size_t off = 0;
    for (size_t i = 0; i < j->count; i++) {
        check(j->lines[i].off == off, "a held line is not after the one before");
        off += j->lines[i].len;
    }
    check(off == j->glued_len, "the held lines do not add up");
    for (size_t k = 1; k <= j->count; k++) {
        size_t n = join_reading(j, k, 1, out);
        check(n == j->lines[k - 1].off + j->lines[k - 1].len, "the glued reading's length");
        check(memcmp(out, j->glued, n) == 0, "the glued reading is not the held lines");
        size_t s = join_reading(j, k, 0, out);
        check(s <= n + k - 1, "the spaced reading is longer than the lines and their breaks");
        check(s <= JOIN_MAX_BYTES + JOIN_MAX_LINES, "a reading is longer than the scratch");
    }
    check(join_reading(j, 0, 1, out) == 0, "a reading of no lines");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (line_buf == NULL) {
        line_buf = malloc(JOIN_MAX_BYTES);
        out_buf = malloc(JOIN_MAX_BYTES + JOIN_MAX_LINES);
        check(line_buf != NULL && out_buf != NULL, "out of memory");
    }
    struct join j;
    check(join_init(&j) == 0, "join_init");
    unsigned long long number = 0;
    for (size_t off = 0; off < size;) {
        const uint8_t *nl = memchr(data + off, '\n', size - off);
        size_t len = nl ? (size_t)(nl - data - off) : size - off;
        const char *raw = (const char *)data + off;
        off += len + 1;
        if (len == 0)
            continue;
        unsigned op = (unsigned char)raw[0];
        const char *text = raw + 1;
        size_t n = len - 1;
        if (op & 0x80) { /* the text repeated up to 64 times: a long line */
            size_t times = (op & 0x3f) + 1, k = 0;
            for (size_t t = 0; t < times && k + n <= JOIN_MAX_BYTES; t++, k += n)
                memcpy(line_buf + k, text, n);
            text = line_buf;
            n = k;
        }
        number++;
        int cr = (op >> 6) & 1;
        int blank = 1;
        for (size_t i = 0; i < n && blank; i++)
            blank = text[i] == ' ' || text[i] == '\t' || text[i] == '\r';
        int record = join_record_start(text, n);
        check(!(blank && record), "a blank line starts a record");
        switch (op % 6) {
        case 0:
            if (join_start(&j, text, n, number, cr) == 0) {
                check(j.count == 1 && j.lines[0].len == n && memcmp(j.glued, text, n) == 0, "line 1 held");
            } else {
                check(j.count == 0, "a failed start left lines");
                check(n > JOIN_MAX_BYTES / 2, "a line that fits was refused");
            }
            break;
        case 1:
            if (join_active(&j) && join_continues(&j, text, n)) {
                size_t before = j.count;
                join_add(&j, text, n, 0, 0, number, cr);
                check(j.count == before + 1, "join_add held no line");
                check(memcmp(j.glued + j.lines[before].off, text, n) == 0, "an added line is not held as it was");
            } else if (!join_active(&j)) {
                (void)join_start(&j, text, n, number, cr);
            }
            break;
        case 2: join_seam_note(&j, text, n, number, cr, (op >> 3) & 1, (op >> 4) & 3); break;
        case 3: {
            size_t reach = (size_t)((op >> 3) & 7) * 9 + 1, cut = 0, kept = j.seam_len;
            size_t w = join_seam_window(&j, text, n, reach, out_buf, &cut);
            if (kept == 0) {
                check(w == 0, "a window with no line kept");
            } else {
                check(w <= 2 * reach && cut <= w, "a window larger than its reach");
                check(memcmp(out_buf, j.seam + kept - cut, cut) == 0, "the window's first part");
                check(memcmp(out_buf + cut, text, w - cut) == 0, "the window's second part");
                size_t runs = j.run_count;
                if (join_start_at_seam(&j, text, n, 0, 0, number, cr) == 0)
                    check(j.count == runs + 1 && j.first_done == runs && j.lines[j.count - 1].len == n,
                          "a join at the seam: the kept run, then the line");
            }
            break;
        }
        case 4: join_seam_reset(&j); break;
        default: join_clear(&j); break;
        }
        check_held(&j, out_buf);
        check(j.seam_len <= JOIN_MAX_BYTES / 2, "a seam longer than its buffer");
    }
    join_free(&j);
    return 0;
}
