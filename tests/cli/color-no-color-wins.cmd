NO_COLOR=1 FORCE_COLOR=1 $OOMDIAG --no-builtin-rules -r tests/data/rules tests/cli/data/oom.log | grep -c "$(printf "\033")"; exit 0
