$OOMDIAG run -- sh -c 'printf "out\\n"; printf "err\\n" >&2; exit 0'
