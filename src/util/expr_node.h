/* The parsed form of a condition: expr.c builds, evaluates and frees it;
 * the build's rule image (tools/rules_image) writes trees of it as static
 * data, so that start-up parses no condition.  Nobody else looks inside. */
#ifndef OOMDIAG_EXPR_NODE_H
#define OOMDIAG_EXPR_NODE_H

enum node_kind { N_NUM, N_STR, N_NAME, N_HAS, N_NOT, N_AND, N_OR, N_CMP, N_ARITH };

struct expr {
    enum node_kind kind;
    char op[3]; /* comparison or arithmetic operator */
    double num; /* N_NUM */
    char *text; /* N_STR, N_NAME, N_HAS */
    struct expr *a, *b;
};

#endif
