/* CI formats: GitHub Actions workflow commands, Markdown, JUnit XML.
 * (Placeholder implementations: plain text until the CI formats land.) */
#include "render.h"

int render_github_job(struct od_renderer *r, const struct od_report *rep)
{
    return render_text_job(r, rep);
}

int render_github_finish(struct od_renderer *r)
{
    (void)r;
    return 0;
}

int render_markdown_job(struct od_renderer *r, const struct od_report *rep)
{
    return render_text_job(r, rep);
}

int render_markdown_finish(struct od_renderer *r)
{
    (void)r;
    return 0;
}

int render_junit_job(struct od_renderer *r, const struct od_report *rep)
{
    return render_text_job(r, rep);
}

int render_junit_finish(struct od_renderer *r)
{
    (void)r;
    return 0;
}
