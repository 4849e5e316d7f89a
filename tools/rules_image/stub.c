/* The generator's stand-in for the generated image: no files, so that
 * od_ruleset_add_builtin loads the embedded JSON itself. */
#include "image.h"

const struct rule_image builtin_image = {0};
