GITHUB_STEP_SUMMARY=tests/cli/data/no-such-dir/summary.md $OOMDIAG --no-builtin-rules -r tests/data/rules -q --format github tests/cli/data/oom.log
