$OOMDIAG --check-rules -r tests/cli/data/lint/english-only.json 2>&1 | grep -c "zh-Hans"; $OOMDIAG --lang zh-Hans --explain my-oom -r tests/cli/data/lint/english-only.json 2>&1 | head -3
