$OOMDIAG --show-patterns "widget-*" tests/cli/data/lint/fragments.json
