#!/usr/bin/env python3
"""Turn oomdiag's signature patterns into pattern files for grep -E and rg.

    patterns.py [--hsbench HSBENCH] OUTDIR RULE_FILE_OR_DIR...

Reads the "pattern" of every signature in the rule files (PCRE2 syntax) and
writes, one pattern per line:
  OUTDIR/patterns.pcre    the patterns as written (caseless ones get (?i)),
                          for pcre2grep;
  OUTDIR/patterns.rg      the patterns in the syntax of ripgrep's default
                          (Rust regex) engine;
  OUTDIR/patterns.ere     the patterns as POSIX extended regular expressions
                          with GNU extensions (\\w \\b), for grep -E;
  OUTDIR/patterns.rg-simple
                          the rg patterns that use no Unicode-aware \\b, \\w
                          or \\s (ripgrep 13 keeps its fast DFA for these;
                          the "simple patterns" of the many-files goal);
  OUTDIR/patterns.hs      with --hsbench: the patterns for Hyperscan, as
                          "INDEX<TAB>FLAGS<TAB>ID<TAB>PATTERN" (FLAGS: i
                          caseless, p prefilter, - none), for bench/hsbench;
  OUTDIR/samples.txt      the signatures' match samples, one per line;
  OUTDIR/patterns.txt     a short account: how many patterns each file got
                          and why the others were left out.

A construct a target cannot express (lookaround, backreference, atomic
group, possessive quantifier, ...) leaves the pattern out of that target;
named groups become plain groups. Whether a line matches does not depend on
greediness, so lazy quantifiers become greedy ones for grep -E. A translated
pattern is kept only if the tool accepts it and it matches all of its
signature's match samples (checked by running rg and grep when they are on
PATH); otherwise it is left out and the account says why.

Hyperscan gets the PCRE2 pattern itself, with (?J) dropped and named groups
made plain (neither changes which lines match). `hsbench check` compiles
each one alone: exactly if Hyperscan can, else with HS_FLAG_PREFILTER (a
superset that hsbench confirms with PCRE2 when built with it), and runs it
on the signature's samples; a pattern Hyperscan rejects or that misses a
sample is left out.
"""
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile


class Unsupported(Exception):
    pass


ERE_META = set('.[]()*+?{}|^$\\')
# Characters that may be escaped in the Rust regex syntax of ripgrep 13;
# escaping anything else is an error there.
RUST_META = set('\\.+*?()|[]{}^$#&-~')
SIMPLE_ESCAPES = {'t': '\t', 'n': '\n', 'r': '\r', 'f': '\f', 'v': '\v',
                  'e': '\x1b', 'a': '\x07'}
# escape -> (ERE outside a class, ERE items inside a class or None)
ERE_CLASS_ESCAPES = {
    'd': ('[0-9]', '0-9'),
    'D': ('[^0-9]', None),
    's': ('[[:space:]]', '[:space:]'),
    'S': ('[^[:space:]]', None),
    'w': ('\\w', '[:alnum:]_'),
    'W': ('\\W', None),
    'h': ('[[:blank:]]', '[:blank:]'),
    'H': ('[^[:blank:]]', None),
}


def swapcase_items(ch):
    if ch.isalpha() and ch.lower() != ch.upper():
        return {ch.lower(), ch.upper()}
    return {ch}


class Translator:
    """A small recursive-descent reader of PCRE2 syntax that writes the same
    pattern in two dialects at once: self.rust and self.ere."""

    def __init__(self, pattern, caseless):
        self.p = pattern
        self.i = 0
        self.rust = []
        self.ere = []
        self.caseless = [caseless]  # stack of the i flag, one per group

    # -- helpers --
    def peek(self, k=0):
        j = self.i + k
        return self.p[j] if j < len(self.p) else ''

    def take(self):
        ch = self.p[self.i]
        self.i += 1
        return ch

    def emit(self, rust, ere):
        self.rust.append(rust)
        self.ere.append(ere)

    def literal(self, ch):
        if ch in '\n\r':
            raise Unsupported('matches a line break')
        rust = '\\' + ch if ch in RUST_META else ch
        if ch == '\t':
            rust = '\\t'
        ere = '\\' + ch if ch in ERE_META else ch
        if self.caseless[-1] and ch.isalpha() and ch.lower() != ch.upper():
            ere = '[' + ch.lower() + ch.upper() + ']'
        self.emit(rust, ere)

    def read_hex(self):
        """after \\x: \\xhh or \\x{h...}"""
        if self.peek() == '{':
            end = self.p.find('}', self.i)
            if end < 0:
                raise Unsupported('bad \\x{...}')
            digits = self.p[self.i + 1:end]
            self.i = end + 1
        else:
            digits = ''
            while len(digits) < 2 and self.peek() in set('0123456789abcdefABCDEF') and self.peek():
                digits += self.take()
        try:
            return chr(int(digits or '0', 16))
        except ValueError:
            raise Unsupported('bad \\x escape')

    # -- the grammar --
    def translate(self):
        self.alternation()
        if self.i < len(self.p):
            raise Unsupported('unbalanced parenthesis')
        return ''.join(self.rust), ''.join(self.ere)

    def alternation(self):
        while self.i < len(self.p):
            ch = self.peek()
            if ch == ')':
                return
            if ch == '|':
                self.take()
                self.emit('|', '|')
                continue
            self.atom_and_quantifier()

    def atom_and_quantifier(self):
        emitted = self.atom()
        if emitted:
            self.quantifier()

    def quantifier(self):
        ch = self.peek()
        if ch in ('*', '+', '?'):
            self.take()
            self.emit(ch, ch)
        elif ch == '{':
            j = self.i + 1
            while j < len(self.p) and (self.p[j].isdigit() or self.p[j] == ','):
                j += 1
            body = self.p[self.i + 1:j]
            if (j < len(self.p) and self.p[j] == '}' and body and body[0].isdigit()
                    and body.count(',') <= 1):
                self.i = j + 1
                self.emit('{' + body + '}', '{' + body + '}')
            else:
                return  # a literal brace; atom() will read it next
        else:
            return
        if self.peek() == '?':  # lazy: same set of matching lines
            self.take()
            self.rust.append('?')
        elif self.peek() == '+':
            raise Unsupported('possessive quantifier')
        if self.peek() in ('*', '+', '?') and self.peek():
            raise Unsupported('stacked quantifiers')

    def atom(self):
        """Reads one atom; returns False when it emitted nothing to quantify."""
        ch = self.take()
        if ch == '\\':
            return self.escape()
        if ch == '(':
            return self.group()
        if ch == '[':
            self.char_class()
            return True
        if ch in '.':
            self.emit('.', '.')
            return True
        if ch in '^$':
            self.emit(ch, ch)
            return False
        if ch in '*+?':
            raise Unsupported('quantifier with nothing to repeat')
        if ch == '{':
            self.literal('{')
            return True
        if ch == '}':
            self.literal('}')
            return True
        self.literal(ch)
        return True

    def escape(self):
        if self.i >= len(self.p):
            raise Unsupported('trailing backslash')
        ch = self.take()
        if ch in ERE_CLASS_ESCAPES:
            ere = ERE_CLASS_ESCAPES[ch][0]
            rust = '\\' + ch
            if ch == 'h':
                rust = '[\\t ]'
            elif ch == 'H':
                rust = '[^\\t ]'
            self.emit(rust, ere)
            return True
        if ch in 'bB':
            self.emit('\\' + ch, '\\' + ch)
            return False
        if ch == 'A':
            self.emit('\\A', '^')
            return False
        if ch in 'zZ':
            self.emit('\\z' if ch == 'z' else '$', '$')
            return False
        if ch in SIMPLE_ESCAPES:
            self.literal(SIMPLE_ESCAPES[ch])
            return True
        if ch == 'x':
            self.literal(self.read_hex())
            return True
        if ch == 'Q':
            end = self.p.find('\\E', self.i)
            if end < 0:
                end = len(self.p)
            for c in self.p[self.i:end]:
                self.literal(c)
            self.i = min(end + 2, len(self.p))
            return True
        if ch == 'E':
            return False
        if ch.isdigit() or ch in 'gk':
            raise Unsupported('backreference')
        if ch == 'K':
            raise Unsupported('\\K')
        if ch in 'pP':
            raise Unsupported('Unicode property \\' + ch)
        if ch.isalnum():
            raise Unsupported('escape \\' + ch)
        self.literal(ch)
        return True

    def group(self):
        caseless = self.caseless[-1]
        if self.peek() == '*':
            raise Unsupported('backtracking verb')
        if self.peek() != '?':
            return self.group_body('(', '(', caseless)
        self.take()
        ch = self.peek()
        if ch == '#':
            end = self.p.find(')', self.i)
            if end < 0:
                raise Unsupported('unterminated comment')
            self.i = end + 1
            return False
        if ch == ':':
            self.take()
            return self.group_body('(?:', '(', caseless)
        if ch == '|':
            self.take()
            return self.group_body('(?:', '(', caseless)
        if ch in ('=', '!'):
            raise Unsupported('lookahead')
        if ch == '<' and self.peek(1) in ('=', '!'):
            raise Unsupported('lookbehind')
        if ch == '>':
            raise Unsupported('atomic group')
        if ch == '(':
            raise Unsupported('conditional group')
        if ch in ('<', "'") or (ch == 'P' and self.peek(1) == '<'):
            if ch == 'P':
                self.take()
            close = '>' if self.take() == '<' else "'"
            end = self.p.find(close, self.i)
            if end < 0:
                raise Unsupported('bad group name')
            self.i = end + 1
            return self.group_body('(', '(', caseless)
        if ch == 'P' or ch == 'R' or ch == '&' or ch.isdigit() or ch in '+-' and self.peek(1).isdigit():
            raise Unsupported('subroutine call or recursion')
        # flags: (?flags) or (?flags:...)
        on, off, neg = '', '', False
        while self.peek() and self.peek() not in ':)':
            f = self.take()
            if f == '-':
                neg = True
            elif f == '^':
                raise Unsupported('(?^) flags')
            elif neg:
                off += f
            else:
                on += f
        if not self.peek():
            raise Unsupported('unterminated group')
        for f in on + off:
            if f not in 'imsJn':
                raise Unsupported('flag ' + f)
        new_caseless = caseless
        if 'i' in on:
            new_caseless = True
        if 'i' in off:
            new_caseless = False
        rust_flags = ''.join(f for f in on if f in 'ims')
        rust_off = ''.join(f for f in off if f in 'ims')
        rust_spec = rust_flags + ('-' + rust_off if rust_off else '')
        if self.take() == ')':
            # (?i) applies to the rest of the enclosing group
            if rust_spec:
                self.rust.append('(?' + rust_spec + ')')
            self.caseless[-1] = new_caseless
            return False
        rust_open = '(?' + rust_spec + ':' if rust_spec else '(?:'
        return self.group_body(rust_open, '(', new_caseless, opened=True)

    def group_body(self, rust_open, ere_open, caseless, opened=False):
        self.emit(rust_open, ere_open)
        self.caseless.append(caseless)
        self.alternation()
        self.caseless.pop()
        if self.i >= len(self.p) or self.take() != ')':
            raise Unsupported('missing )')
        self.emit(')', ')')
        return True

    def char_class(self):
        negate = False
        if self.peek() == '^':
            self.take()
            negate = True
        singles = []      # literal characters
        ranges = []       # (lo, hi)
        rust_extra = []   # \d-style items, Rust spelling
        ere_extra = []    # the same, ERE spelling
        first = True
        while True:
            if self.i >= len(self.p):
                raise Unsupported('unterminated class')
            ch = self.take()
            if ch == ']' and not first:
                break
            first = False
            if ch == '[' and self.peek() == ':':
                end = self.p.find(':]', self.i)
                if end < 0:
                    raise Unsupported('bad POSIX class')
                name = self.p[self.i + 1:end]
                self.i = end + 2
                if name.startswith('^'):
                    raise Unsupported('negated POSIX class')
                rust_extra.append('[:' + name + ':]')
                ere_extra.append('[:' + name + ':]')
                continue
            if ch == '\\':
                if self.i >= len(self.p):
                    raise Unsupported('trailing backslash')
                e = self.take()
                if e in ERE_CLASS_ESCAPES:
                    ere = ERE_CLASS_ESCAPES[e][1]
                    if ere is None:
                        raise Unsupported('negated escape \\' + e + ' inside a class')
                    rust_extra.append('\\t ' if e == 'h' else '\\' + e)
                    ere_extra.append(ere)
                    continue
                if e in SIMPLE_ESCAPES:
                    lo = SIMPLE_ESCAPES[e]
                elif e == 'x':
                    lo = self.read_hex()
                elif e == 'Q':
                    raise Unsupported('\\Q inside a class')
                elif e.isalnum():
                    raise Unsupported('escape \\' + e + ' inside a class')
                else:
                    lo = e
            else:
                lo = ch
            if self.peek() == '-' and self.peek(1) not in (']', ''):
                self.take()
                hi = self.take()
                if hi == '\\':
                    e = self.take()
                    if e == 'x':
                        hi = self.read_hex()
                    elif e in SIMPLE_ESCAPES:
                        hi = SIMPLE_ESCAPES[e]
                    elif e.isalnum():
                        raise Unsupported('class range ending in \\' + e)
                    else:
                        hi = e
                elif hi == '[':
                    raise Unsupported('class range ending in [')
                if ord(hi) < ord(lo):
                    raise Unsupported('reversed class range')
                ranges.append((lo, hi))
            else:
                singles.append(lo)
        if self.caseless[-1]:
            extra_singles = []
            for c in singles:
                extra_singles.extend(swapcase_items(c))
            singles = extra_singles
            for lo, hi in list(ranges):
                if 'a' <= lo <= hi <= 'z' or 'A' <= lo <= hi <= 'Z':
                    ranges.append((lo.swapcase(), hi.swapcase()))
        if any(c in '\n\r' for c in singles) and not negate:
            singles = [c for c in singles if c not in '\n\r']
        self.emit(self.rust_class(negate, singles, ranges, rust_extra),
                  self.ere_class(negate, singles, ranges, ere_extra))

    @staticmethod
    def rust_class(negate, singles, ranges, extra):
        def esc(c):
            if c == '\t':
                return '\\t'
            return '\\' + c if c in '\\[]-^&~' else c
        body = ''.join(esc(c) for c in dict.fromkeys(singles))
        body += ''.join(esc(lo) + '-' + esc(hi) for lo, hi in ranges)
        body += ''.join(extra)
        if not body:
            raise Unsupported('empty class')
        return '[' + ('^' if negate else '') + body + ']'

    @staticmethod
    def ere_class(negate, singles, ranges, extra):
        s = list(dict.fromkeys(singles))
        for lo, hi in ranges:
            if ']' in (lo, hi) or '-' in (lo, hi) or '[' in (lo, hi):
                raise Unsupported('class range with ] [ or - for grep -E')
        # in a bracket expression ']' goes first, '-' last, '^' not first,
        # '[' where no ':', '.' or '=' follows it; a backslash is literal
        body = ''
        if ']' in s:
            body += ']'
        rest = [c for c in s if c not in '][-^']
        body += ''.join(rest)
        body += ''.join(lo + '-' + hi for lo, hi in ranges)
        body += ''.join(extra)
        if '^' in s:
            body += '^'
        if '[' in s:
            body += '['
        if '-' in s:
            body += '-'
        if not body:
            raise Unsupported('empty class')
        if body == '^' and not negate:
            return '\\^'
        return '[' + ('^' if negate else '') + body + ']'


def load_signatures(paths):
    files = []
    for p in paths:
        if os.path.isdir(p):
            files.extend(sorted(glob.glob(os.path.join(p, '*.json'))))
        elif os.path.exists(p):
            files.append(p)
    sigs = []
    for f in files:
        with open(f, encoding='utf-8') as fh:
            doc = json.load(fh)
        for s in doc.get('signatures', []) or []:
            if not isinstance(s, dict) or not isinstance(s.get('pattern'), str):
                continue
            samples = []
            for m in (s.get('samples') or {}).get('match', []) or []:
                line = m.get('line') if isinstance(m, dict) else m
                if isinstance(line, str):
                    samples.append(line)
            sigs.append({'id': s.get('id', '?'), 'file': f,
                         'pattern': s['pattern'],
                         'caseless': bool(s.get('caseless', False)),
                         'samples': samples})
    return files, sigs


def tool_check(argv, pattern, samples, tmp):
    """None if the tool takes the pattern and matches every sample, else why not."""
    pat_file = os.path.join(tmp, 'p')
    smp_file = os.path.join(tmp, 's')
    with open(pat_file, 'w', encoding='utf-8') as fh:
        fh.write(pattern + '\n')
    with open(smp_file, 'w', encoding='utf-8') as fh:
        fh.write(''.join(s + '\n' for s in samples))
    r = subprocess.run(argv + ['-c', '-f', pat_file, smp_file],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       env=dict(os.environ, LC_ALL='C.UTF-8'))
    if r.returncode not in (0, 1):
        msg = r.stderr.decode('utf-8', 'replace').strip().splitlines()
        return 'rejected: ' + (msg[-1] if msg else 'exit %d' % r.returncode)
    warning = r.stderr.decode('utf-8', 'replace').strip()
    if warning:
        return 'warning: ' + warning.splitlines()[0]
    got = int(r.stdout.strip() or b'0')
    if got != len(samples):
        return 'matches %d of %d samples' % (got, len(samples))
    return None


def hyperscan_text(pattern):
    """The PCRE2 pattern as Hyperscan takes it: (?J) dropped (duplicate group
    names are no matter when nothing is captured), named groups plain and
    back references to them by number."""
    out = []
    i, n, in_class = 0, len(pattern), False
    groups, names = 0, {}
    while i < n:
        ch = pattern[i]
        if ch == '\\' and not in_class and pattern[i + 1:i + 2] == 'k' and i + 2 < n:
            close = {'<': '>', '{': '}', "'": "'"}.get(pattern[i + 2])
            end = pattern.find(close, i + 3) if close else -1
            if end > 0 and pattern[i + 3:end] in names:
                out.append('\\%d' % names[pattern[i + 3:end]])
                i = end + 1
                continue
        if ch == '\\':
            if pattern.startswith('\\Q', i):  # \Q...\E is copied whole
                end = pattern.find('\\E', i + 2)
                end = n if end < 0 else end + 2
                out.append(pattern[i:end])
                i = end
                continue
            out.append(pattern[i:i + 2])
            i += 2
            continue
        if in_class:
            if ch == ']':
                in_class = False
            out.append(ch)
            i += 1
            continue
        if ch == '[':
            in_class = True
            out.append(ch)
            i += 1
            if i < n and pattern[i] == '^':
                out.append('^')
                i += 1
            if i < n and pattern[i] == ']':  # a leading ] is a literal
                out.append(']')
                i += 1
            continue
        if ch == '(' and pattern.startswith('(?', i):
            rest = pattern[i + 2:]
            name_open = None
            if rest.startswith('P<'):
                name_open, close = 3, '>'
            elif rest.startswith('<') and rest[1:2] not in ('=', '!'):
                name_open, close = 2, '>'
            elif rest.startswith("'"):
                name_open, close = 2, "'"
            if name_open is not None:
                end = pattern.find(close, i + 1 + name_open)
                if end > 0:
                    groups += 1
                    names.setdefault(pattern[i + 1 + name_open:end], groups)
                    out.append('(')
                    i = end + 1
                    continue
            if rest.startswith('P=') and ')' in rest:
                end = pattern.find(')', i)
                if pattern[i + 4:end] in names:
                    out.append('\\%d' % names[pattern[i + 4:end]])
                    i = end + 1
                    continue
            j = i + 2  # a flag group: drop the J
            while j < n and (pattern[j].isalpha() or pattern[j] == '-'):
                j += 1
            if j < n and pattern[j] in ':)' and 'J' in pattern[i + 2:j]:
                flags = pattern[i + 2:j].replace('J', '')
                if flags in ('', '-') and pattern[j] == ')':
                    i = j + 1
                    continue
                out.append('(?' + (flags if flags != '-' else '') + pattern[j])
                i = j + 1
                continue
        if ch == '(' and not pattern.startswith('(?', i) and not pattern.startswith('(*', i):
            groups += 1
        out.append(ch)
        i += 1
    return ''.join(out)


def hyperscan_check(hsbench, sigs, tmp):
    """Runs `hsbench check`; returns [(sig, flags or None, why)]."""
    cand = os.path.join(tmp, 'hs-candidates')
    smp = os.path.join(tmp, 'hs-samples')
    with open(cand, 'w', encoding='utf-8') as fh, open(smp, 'w', encoding='utf-8') as sh:
        for k, s in enumerate(sigs):
            fh.write('%d\t%s\t%s\t%s\n' % (k, 'i' if s['caseless'] else '-', s['id'],
                                           hyperscan_text(s['pattern'])))
            sh.write(''.join('%d\t%s\n' % (k, x) for x in s['samples']))
    r = subprocess.run([hsbench, 'check', cand, smp], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE)
    if r.returncode != 0:
        raise SystemExit('hsbench check failed: ' + r.stderr.decode('utf-8', 'replace'))
    verdict = {}
    for line in r.stdout.decode('utf-8', 'replace').splitlines():
        index, mode, got, why = (line.split('\t', 3) + [''])[:4]
        verdict[int(index)] = (mode, got, why)
    out = []
    for k, s in enumerate(sigs):
        mode, got, why = verdict.get(k, ('rejected', '0/0', 'no verdict'))
        hit, total = (int(x) for x in got.split('/'))
        if mode == 'rejected':
            out.append((s, None, 'rejected: ' + why))
        elif hit != total:
            out.append((s, None, 'matches %d of %d samples (%s)' % (hit, total, mode)))
        else:
            flags = ('i' if s['caseless'] else '') + ('p' if mode == 'prefilter' else '')
            out.append((s, flags or '-', mode))
    return out


def main():
    args = sys.argv[1:]
    hsbench = None
    if args[:1] == ['--hsbench'] and len(args) > 1:
        hsbench, args = args[1], args[2:]
    if len(args) < 2:
        sys.stderr.write('usage: patterns.py [--hsbench HSBENCH] OUTDIR RULE_FILE_OR_DIR...\n')
        return 2
    outdir = args[0]
    files, sigs = load_signatures(args[1:])
    # the tools run.sh measures: $PCRE2GREP, $RG and $GREP where set
    env = os.environ.get
    targets = {
        'pcre': {'tool': [env('PCRE2GREP', 'pcre2grep')], 'kept': [], 'dropped': []},
        'rg': {'tool': [env('RG', 'rg'), '--no-config', '--no-ignore'], 'kept': [], 'dropped': []},
        'ere': {'tool': [env('GREP', 'grep'), '-E'], 'kept': [], 'dropped': []},
    }
    with tempfile.TemporaryDirectory() as tmp:
        for s in sigs:
            flag = '(?i)' if s['caseless'] else ''
            out = {'pcre': flag + s['pattern']}
            why = {'pcre': None}
            try:
                rust, ere = Translator(s['pattern'], s['caseless']).translate()
                out.update(rg=flag + rust, ere=ere)
                why.update(rg=None, ere=None)
            except Unsupported as e:
                out.update(rg=None, ere=None)
                why.update(rg=str(e), ere=str(e))
            for name, t in targets.items():
                pat = out[name]
                if pat is not None and shutil.which(t['tool'][0]) and s['samples']:
                    why[name] = tool_check(t['tool'], pat, s['samples'], tmp)
                if why[name] is None:
                    t['kept'].append(pat)
                else:
                    t['dropped'].append((s['id'], why[name]))
        hs = hyperscan_check(hsbench, sigs, tmp) if hsbench else []
    os.makedirs(outdir, exist_ok=True)

    def write(name, lines):
        with open(os.path.join(outdir, name), 'w', encoding='utf-8') as fh:
            fh.write(''.join(line + '\n' for line in lines))

    write('patterns.pcre', targets['pcre']['kept'])
    write('patterns.rg', targets['rg']['kept'])
    write('patterns.ere', targets['ere']['kept'])
    # Unicode-aware \b, \w and \s (rg's default) cost ripgrep 13 its DFA
    simple = [x for x in targets['rg']['kept'] if not re.search(r'\\[bBwWsS]', x)]
    write('patterns.rg-simple', simple)
    if hsbench:
        write('patterns.hs', ['%d\t%s\t%s\t%s' % (k, flags, s['id'], hyperscan_text(s['pattern']))
                              for k, (s, flags, _) in enumerate(hs) if flags])
    write('samples.txt', [x for s in sigs for x in s['samples']])
    account = ['%d signature patterns from %d rule files' % (len(sigs), len(files))]
    for name, label in (('rg', 'rg (default engine)'), ('ere', 'grep -E'),
                        ('pcre', 'pcre2grep')):
        t = targets[name]
        account.append('%s: %d of %d patterns' % (label, len(t['kept']), len(sigs)))
        for sid, why in t['dropped']:
            account.append('  left out %s: %s' % (sid, why))
    account.append('rg, simple patterns (no \\b \\w \\s): %d of %d patterns' % (len(simple), len(sigs)))
    if hsbench:
        kept = [m for _, f, m in hs if f]
        account.append('Hyperscan: %d of %d patterns (%d exact, %d as prefilters)'
                       % (len(kept), len(sigs), kept.count('exact'), kept.count('prefilter')))
        for s, f, why in hs:
            if not f:
                account.append('  left out %s: %s' % (s['id'], why))
    write('patterns.txt', account)
    sys.stdout.write('\n'.join(account) + '\n')
    return 0


if __name__ == '__main__':
    sys.exit(main())
