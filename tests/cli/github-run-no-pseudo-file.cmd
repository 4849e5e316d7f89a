$OOMDIAG run --format github -- sh -c 'echo started; kill -9 $$' 2>&1 >/dev/null | grep -c -e 'file=(' -e '^::error title='; echo "status ${PIPESTATUS[0]}"
