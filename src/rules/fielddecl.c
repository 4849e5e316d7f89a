#include "fielddecl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fieldnames.h"
#include "grow.h"

static const char *const kind_names[] = {"bytes", "integer", "string", "shape", "dtype", NULL};

/* The names the engine reads besides the sizes (fieldnames.h). */
static const char *const engine_names[] = {EVIDENCE_RANK, EVIDENCE_STEP, EVIDENCE_SHAPE, EVIDENCE_DTYPE, NULL};

static int ends_with_bytes(const char *name)
{
    size_t n = strlen(name), k = sizeof EVIDENCE_BYTES_SUFFIX - 1;
    return n > k && strcmp(name + n - k, EVIDENCE_BYTES_SUFFIX) == 0;
}

int field_engine_known(const char *name)
{
    if (ends_with_bytes(name))
        return 1;
    for (size_t i = 0; engine_names[i]; i++)
        if (strcmp(name, engine_names[i]) == 0)
            return 1;
    return 0;
}

const struct field_decl *fielddecl_find(const struct od_ruleset *rs, const char *name)
{
    for (size_t i = 0; i < rs->field_decl_count; i++)
        if (strcmp(rs->field_decls[i].name, name) == 0)
            return &rs->field_decls[i];
    return NULL;
}

/* The kind NAME must have, or -1 when integer and string both fit. */
static int required_kind(const char *name)
{
    if (ends_with_bytes(name))
        return FIELD_KIND_BYTES;
    if (strcmp(name, EVIDENCE_SHAPE) == 0)
        return FIELD_KIND_SHAPE;
    if (strcmp(name, EVIDENCE_DTYPE) == 0)
        return FIELD_KIND_DTYPE;
    return -1;
}

/* The kind of declaration IT, or -1 after a report. */
static int parse_kind(const cJSON *it, const char *path, part_report_fn report, void *ctx)
{
    char msg[256], kpath[160];
    const cJSON *k;
    cJSON_ArrayForEach(k, it)
    {
        if (strcmp(k->string, "kind") != 0 && strcmp(k->string, "description") != 0 &&
            strcmp(k->string, "comment") != 0 && strcmp(k->string, "$comment") != 0) {
            snprintf(kpath, sizeof kpath, "%s/%.40s", path, k->string);
            snprintf(msg, sizeof msg, "unknown key \"%.40s\" is ignored (allowed here: kind, description)", k->string);
            report(ctx, 1, kpath, NULL, 0, msg);
        }
    }
    const cJSON *kind = cJSON_GetObjectItemCaseSensitive(it, "kind");
    const cJSON *desc = cJSON_GetObjectItemCaseSensitive(it, "description");
    if (desc != NULL && !cJSON_IsString(desc)) {
        snprintf(kpath, sizeof kpath, "%s/description", path);
        report(ctx, 0, kpath, NULL, 0, "\"description\" must be a string");
        return -1;
    }
    for (int i = 0; cJSON_IsString(kind) && kind_names[i]; i++)
        if (strcmp(kind->valuestring, kind_names[i]) == 0) {
            int want = required_kind(it->string);
            if (want >= 0 ? want == i : i == FIELD_KIND_INTEGER || i == FIELD_KIND_STRING)
                return i;
            static const char *const what[] = {"a size", "", "", "a shape", "a data type"};
            if (want >= 0)
                snprintf(msg, sizeof msg, "the engine reads \"%.40s\" as %s: declare its kind as \"%s\"", it->string,
                         what[want], kind_names[want]);
            else
                snprintf(msg, sizeof msg,
                         "the engine does not read \"%.40s\" as %s (sizes are the names ending in _bytes; shape "
                         "and dtype are names of their own): use \"integer\" or \"string\"",
                         it->string, kind_names[i]);
            snprintf(kpath, sizeof kpath, "%s/kind", path);
            report(ctx, 0, kpath, NULL, 0, msg);
            return -1;
        }
    snprintf(kpath, sizeof kpath, "%s/kind", path);
    report(ctx, 0, kind == NULL ? path : kpath, NULL, 0,
           kind == NULL ? "missing required key \"kind\" (bytes, integer, string, shape or dtype)"
                        : "\"kind\" must be one of: bytes, integer, string, shape, dtype");
    return -1;
}

/* Is NAME declared already?  0 when not; 1 when with KIND (the same
 * declaration again); -1 after reporting that it was declared with
 * another kind (at the shipped declaration when BUILTIN_CONTEXT: the
 * shipped files load after the one being checked). */
static int known_already(struct od_ruleset *rs, const char *name, enum field_kind kind, const char *file,
                         const char *path, int builtin_context, part_report_fn report, void *ctx)
{
    const struct field_decl *old = fielddecl_find(rs, name);
    if (old == NULL)
        return 0;
    if (old->kind == kind)
        return 1;
    if (builtin_context) {
        origin_report(&rs->msgs, OD_SEV_ERROR, &old->at, NULL, 0,
                      "/fields/%s: field \"%s\" is declared as %s here and as %s in %s", old->name, old->name,
                      kind_names[old->kind], kind_names[kind], file);
        return -1;
    }
    char msg[512];
    unsigned long line, col;
    origin_locate(&old->at, &line, &col);
    snprintf(msg, sizeof msg, "field \"%.64s\" is declared as %s at %s:%lu:%lu", name, kind_names[old->kind],
             old->at.file, line, col);
    report(ctx, 0, path, NULL, 0, msg);
    return -1;
}

int fielddecl_parse(struct od_ruleset *rs, const cJSON *obj, const char *file, const char *text, size_t len,
                    int builtin_context, part_report_fn report, void *ctx)
{
    const cJSON *it;
    int bad = 0;
    if (!cJSON_IsObject(obj)) {
        report(ctx, 0, "/fields", NULL, 0, "\"fields\" must be an object of field declarations");
        return -1;
    }
    cJSON_ArrayForEach(it, obj)
    {
        char path[128];
        snprintf(path, sizeof path, "/fields/%.64s", it->string);
        if (!cJSON_IsObject(it)) {
            report(ctx, 0, path, NULL, 0,
                   "a field declaration must be an object: {\"kind\": ..., \"description\": ...}");
            bad = 1;
            continue;
        }
        int kind = parse_kind(it, path, report, ctx);
        if (kind < 0) {
            bad = 1;
            continue;
        }
        int seen = known_already(rs, it->string, (enum field_kind)kind, file, path, builtin_context, report, ctx);
        if (seen < 0)
            bad = 1;
        if (seen != 0)
            continue;
        struct field_decl *grown =
            grow(rs->field_decls, &rs->field_decl_cap, rs->field_decl_count, sizeof *rs->field_decls, 64);
        if (grown == NULL)
            return -1;
        rs->field_decls = grown;
        struct field_decl *d = &rs->field_decls[rs->field_decl_count];
        d->name = strdup(it->string);
        d->kind = (enum field_kind)kind;
        d->at = (struct origin){file, text, len, strdup(path)};
        if (d->name == NULL || d->at.path == NULL) {
            free(d->name);
            free(d->at.path);
            return -1;
        }
        rs->field_decl_count++;
    }
    return bad ? -1 : 0;
}
