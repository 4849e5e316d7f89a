/* The fixture of the rule-loading suites (test_rulefile, test_load,
 * test_image): an empty rule set RS collecting its messages in MSGS, made
 * by setup and freed by teardown for each test.  Include it after
 * helpers.h, once per suite. */
#ifndef OOMDIAG_TEST_RULESET_FIXTURE_H
#define OOMDIAG_TEST_RULESET_FIXTURE_H

#include "helpers.h"
#include "ruleset.h"

static struct od_ruleset *rs;
static struct msgs msgs;

static int setup(void **state)
{
    (void)state;
    memset(&msgs, 0, sizeof msgs);
    rs = od_ruleset_create(collect_msg, &msgs);
    return rs ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    od_ruleset_free(rs);
    rs = NULL;
    return 0;
}

#endif
