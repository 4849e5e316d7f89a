/* Helpers the CI formats share: job labels and counts, evidence places,
 * and text built in memory with stdio. */
#include "render_ci.h"

#include <stdlib.h>
#include <string.h>

/* Length of the directory part ("a/b/") that every input path shares. */
static size_t ci_common_dir(const struct od_report *rep)
{
    const char *first = rep->inputs[0].path;
    size_t n = strlen(first);
    for (size_t i = 1; i < rep->input_count; i++) {
        const char *p = rep->inputs[i].path;
        size_t k = 0;
        while (k < n && p[k] == first[k])
            k++;
        n = k;
    }
    while (n > 0 && first[n - 1] != '/')
        n--;
    return n;
}

void ci_job_label(const struct od_report *rep, char *buf, size_t bufsize)
{
    if (rep->input_count == 1) {
        snprintf(buf, bufsize, "%s", rep->inputs[0].path);
        return;
    }
    size_t dir = rep->input_count > 1 ? ci_common_dir(rep) : 0;
    if (dir > 0)
        snprintf(buf, bufsize, "%.*s (%zu files)", (int)dir, rep->inputs[0].path, rep->input_count);
    else
        snprintf(buf, bufsize, "%zu inputs", rep->input_count);
}

int ci_text_begin(struct ci_text *t)
{
    t->buf = NULL;
    t->len = 0;
    t->f = open_memstream(&t->buf, &t->len);
    return t->f ? 0 : -1;
}

char *ci_text_end(struct ci_text *t, size_t *len)
{
    int bad = ferror(t->f);
    if (fclose(t->f) != 0 || bad) {
        free(t->buf);
        return NULL;
    }
    if (len)
        *len = t->len;
    return t->buf;
}
