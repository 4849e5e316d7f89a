$OOMDIAG --no-builtin-rules -r tests/cli/data/lang/translated.json --lang=zh-Hans tests/cli/data/lang/widget.log
