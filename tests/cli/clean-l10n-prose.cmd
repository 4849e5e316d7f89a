$OOMDIAG tests/cli/data/l10n-prose.log
