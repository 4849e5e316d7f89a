$OOMDIAG --no-builtin-rules -r tests/data/rules tests/cli/data/encoded/hf-trainer-oom.utf16le-bom.log
