$OOMDIAG tests/cli/data/changelog-prose.log
