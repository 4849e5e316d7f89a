/* Declared evidence fields: a rule file's "fields": {"name": {"kind":
 * "bytes", "description": "..."}}.  A declaration is global to the
 * ruleset (a field means one thing in every file); the kind must agree
 * with what the engine does with the name (sizes for names ending in
 * _bytes), so a declaration documents a name and lets --check-rules
 * catch a typo, and changes no parsing.  The ruleset owns the
 * declarations (struct field_decl, freed with it). */
#ifndef OOMDIAG_FIELDDECL_H
#define OOMDIAG_FIELDDECL_H

#include <cjson/cJSON.h>

#include "fragments.h"
#include "ruleset.h"

/* Adds the declarations of OBJ (the "fields" member of FILE, whose text is
 * TEXT) to RS, reporting bad ones; BUILTIN_CONTEXT when FILE is a shipped
 * file loaded beside files being checked (a disagreement is then reported
 * at their declaration).  0, or -1 when something was reported. */
int fielddecl_parse(struct od_ruleset *rs, const cJSON *obj, const char *file, const char *text, size_t len,
                    int builtin_context, part_report_fn report, void *ctx);
const struct field_decl *fielddecl_find(const struct od_ruleset *rs, const char *name);

/* Does the engine give NAME a meaning of its own (a size for a name ending
 * in _bytes; rank, step, shape, dtype)?  Such a name needs no declaration. */
int field_engine_known(const char *name);

#endif
