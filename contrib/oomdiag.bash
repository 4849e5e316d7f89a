# bash completion for oomdiag(1)                          -*- shell-script -*-
#
# Install as $(pkg-config --variable=completionsdir bash-completion)/oomdiag
# (cmake --install puts it in share/bash-completion/completions/oomdiag), or
# source it from ~/.bashrc.  Works with or without the bash-completion package.

_oomdiag_causes()
{
    local causes
    causes=$("${1:-oomdiag}" --list-rules 2>/dev/null | awk 'NR > 1 && $2 != "-" { print $2 }' | sort -u)
    [[ -n $causes ]] || causes="gpu-oom host-oom-kill host-oom shm-exhausted dataloader-killed nccl-timeout
        nccl-error device-assert illegal-address gpu-hardware driver usage-error crash"
    printf '%s\n' "$causes"
}

# The signature ids of the rules oomdiag loads.
_oomdiag_signatures()
{
    "${1:-oomdiag}" --list-rules 2>/dev/null | awk 'NR > 1 { print $1 }'
}

_oomdiag()
{
    # shellcheck disable=SC2034 # cword is set by _init_completion
    local cur prev words cword split=false
    if declare -F _init_completion >/dev/null 2>&1; then
        _init_completion -s || return
    else
        COMPREPLY=()
        cword=$COMP_CWORD
        cur=${COMP_WORDS[COMP_CWORD]}
        prev=${COMP_WORDS[COMP_CWORD - 1]}
        words=("${COMP_WORDS[@]}")
        # "--opt=value": one word, or three when '=' breaks words.
        if [[ $cur == --*=* ]]; then
            prev=${cur%%=*}
            cur=${cur#*=}
            split=true
        elif [[ $cur == = && $COMP_CWORD -ge 1 ]]; then
            prev=${COMP_WORDS[COMP_CWORD - 1]}
            cur=
            split=true
        elif [[ $prev == = && $COMP_CWORD -ge 2 ]]; then
            prev=${COMP_WORDS[COMP_CWORD - 2]}
            split=true
        fi
    fi

    # oomdiag run [OPTION]... -- CMD [ARG]...: after "--", a command and its files.
    local i
    if [[ ${words[1]} == run ]]; then
        for ((i = 2; i < cword; i++)); do
            if [[ ${words[i]} == -- ]]; then
                # The command's own completion, as sudo and timeout give it.
                if declare -F _command_offset >/dev/null 2>&1; then
                    _command_offset $((i + 1))
                    return
                fi
                if ((i + 1 == cword)); then
                    mapfile -t COMPREPLY < <(compgen -c -- "$cur")
                else
                    mapfile -t COMPREPLY < <(compgen -f -- "$cur")
                    compopt -o filenames 2>/dev/null
                fi
                return
            fi
        done
    fi

    local formats="text json ndjson github markdown junit"
    local whens="auto always never"
    local confidences="high medium low"

    case $prev in
        -f | --format)
            mapfile -t COMPREPLY < <(compgen -W "$formats" -- "$cur")
            return
            ;;
        --color | --colour)
            # --color takes its value only as --color=WHEN.
            if [[ $split == true ]]; then
                mapfile -t COMPREPLY < <(compgen -W "$whens" -- "$cur")
                return
            fi
            ;;
        --binary-files)
            mapfile -t COMPREPLY < <(compgen -W "binary text" -- "$cur")
            return
            ;;
        --explain)
            mapfile -t COMPREPLY < <(compgen -W "$(_oomdiag_causes "${words[0]}")" -- "$cur")
            return
            ;;
        --show-patterns)
            mapfile -t COMPREPLY < <(compgen -W "$(_oomdiag_signatures "${words[0]}")" -- "$cur")
            return
            ;;
        --fail-on)
            # A comma-separated list: complete the item after the last comma.
            local head="" item=$cur
            if [[ $cur == *,* ]]; then
                head=${cur%,*},
                item=${cur##*,}
            fi
            mapfile -t COMPREPLY < <(compgen -P "$head" -W "$(_oomdiag_causes "${words[0]}") $confidences" -- "$item")
            [[ ${#COMPREPLY[@]} -gt 0 ]] && compopt -o nospace 2>/dev/null
            return
            ;;
        --report | --log | --facts | --follow)
            mapfile -t COMPREPLY < <(compgen -f -- "$cur")
            compopt -o filenames 2>/dev/null
            return
            ;;
        --lang)
            mapfile -t COMPREPLY < <(compgen -W "en zh-Hans" -- "$cur")
            return
            ;;
        --stall)
            mapfile -t COMPREPLY < <(compgen -W "30s 5m 10m 30m 1h" -- "$cur")
            return
            ;;
        --stall-signal)
            mapfile -t COMPREPLY < <(compgen -W "TERM INT KILL USR1 USR2 QUIT HUP" -- "$cur")
            return
            ;;
        --max-evidence)
            mapfile -t COMPREPLY < <(compgen -W "1 3 5 10 20" -- "$cur")
            return
            ;;
        --files-from)
            mapfile -t COMPREPLY < <(compgen -f -- "$cur")
            compopt -o filenames 2>/dev/null
            return
            ;;
        -r | --rules)
            # A rule file (*.json) or a directory of them.
            mapfile -t COMPREPLY < <(compgen -d -- "$cur"; compgen -f -X '!*.json' -- "$cur")
            compopt -o filenames 2>/dev/null
            return
            ;;
    esac

    if [[ $cur == -* && $split == false && ${words[1]} == run ]]; then
        local opts="-- --always --exit-by-decision --report= --log= --facts= --stall= --stall-signal= --no-nvml --format= --color= --no-color --max-evidence=
            --trace --quiet --rules= --no-builtin-rules --help -f -q -r -h"
        mapfile -t COMPREPLY < <(compgen -W "$opts" -- "$cur")
        [[ ${#COMPREPLY[@]} -eq 1 && ${COMPREPLY[0]} == *= ]] && compopt -o nospace 2>/dev/null
        return
    fi
    if [[ $cur == -* && $split == false ]]; then
        local opts="--binary-files= --check-rules --color --color= --colour= --each --explain= --jobs= --fail-on= --files-from= --format=
            --help --lang= --list-rules --max-evidence= --no-builtin-rules --no-color --no-messages --one-job
            --quiet --rules= --show-patterns= --text --trace --verbose --version --tee --follow= --stall= --progress --compact
            --no-progress -a -f -h -j -q -r -s -v -V"
        mapfile -t COMPREPLY < <(compgen -W "$opts" -- "$cur")
        [[ ${#COMPREPLY[@]} -eq 1 && ${COMPREPLY[0]} == *= ]] && compopt -o nospace 2>/dev/null
        return
    fi

    # Logs: files (plain or .gz) and directories (one job of per-rank logs);
    # first, also the run subcommand.
    mapfile -t COMPREPLY < <(compgen -f -- "$cur"; ((cword == 1)) && compgen -W "run" -- "$cur")
    compopt -o filenames 2>/dev/null
} &&
    complete -F _oomdiag oomdiag

# ex: filetype=sh
