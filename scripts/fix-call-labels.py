#!/usr/bin/env python3
"""Fixes call sites after an initializer or method changed its argument labels or order, from the
compiler's own errors.

It reads `swift build` output on stdin and, in place, for each call the compiler names:

- `argument 'X' must precede argument 'Y'`: moves X just before Y;
- `missing argument label 'X:' in call`: labels the first unlabelled argument after the first one
  (the shape of every change it was written for: `Error(.code, "message")` -> `Error(.code, message: "message")`);
- `missing argument labels 'X:Y:' in call`: labels the unlabelled arguments after the first, in order;
- `extraneous argument label 'X:' in call`: removes the label X;
- `incorrect argument labels in call (have 'A', expected 'B')` with as many labels in A as in B:
  puts the arguments in B's order when A and B hold the same labels, else relabels each argument
  from A's label to B's.

Run it until the build reports none of these (each round fixes what the compiler reported; a fix
can reveal the next error of the same call), then `swift format -i` the files it changed:

    swift build --build-tests 2>&1 | python3 scripts/fix-call-labels.py

With `--label NAME`, every call the compiler finds wrongly labelled (a missing label, a missing
argument NAME, incorrect labels) gets NAME on its first unlabelled argument after the first: for a
change that turned an unlabelled argument into NAME, where the compiler may match the unlabelled
value to another parameter that takes a literal of the same kind and suggest that label instead.

Arguments are split with Swift's string literals (interpolation, raw and multi-line strings) and
comments taken into account; a call it cannot read is listed as `skip` and left as it was.
"""
import collections
import re
import sys

PRECEDE = re.compile(r"^(/[^:]+):(\d+):(\d+): error: argument '([^']+)' must precede argument '([^']+)'")
MISSING = re.compile(r"^(/[^:]+):(\d+):(\d+): error: missing argument label '([A-Za-z_][A-Za-z0-9_]*):' in call")
MISSING_SEVERAL = re.compile(r"^(/[^:]+):(\d+):(\d+): error: missing argument labels '((?:[A-Za-z_][A-Za-z0-9_]*:)+)' in call")
MISSING_ARGUMENT = re.compile(r"^(/[^:]+):(\d+):(\d+): error: missing argument for parameter '([A-Za-z_][A-Za-z0-9_]*)' in call")
INCORRECT = re.compile(r"^(/[^:]+):(\d+):(\d+): error: incorrect argument labels? in call \(have '([^']*)', expected '([^']*)'\)")
EXTRA = re.compile(r"^(/[^:]+):(\d+):(\d+): error: extraneous argument label '([A-Za-z_][A-Za-z0-9_]*):' in call")


def skip_string(text, i):
    """`text[i]` starts a string literal (after any `#`s); returns the index just past it."""
    hashes = 0
    while text[i] == '#':
        hashes += 1
        i += 1
    multi = text.startswith('"""', i)
    i += 3 if multi else 1
    close = ('"""' if multi else '"') + '#' * hashes
    interpolation = '\\' + '#' * hashes + '('
    while i < len(text):
        if text.startswith(interpolation, i):
            i = scan(text, i + len(interpolation)) + 1
            continue
        if text[i] == '\\' and hashes == 0:
            i += 2
            continue
        if text.startswith(close, i):
            return i + len(close)
        if text[i] == '\n' and not multi:
            raise ValueError('unterminated string')
        i += 1
    raise ValueError('unterminated string')


def skip_trivia(text, i):
    """Returns the index past a comment starting at `i`, or `i` when none starts there."""
    if text.startswith('//', i):
        end = text.find('\n', i)
        return len(text) if end < 0 else end
    if text.startswith('/*', i):
        end = text.find('*/', i + 2)
        if end < 0:
            raise ValueError('unterminated comment')
        return end + 2
    return i


def scan(text, i, on_comma=None):
    """Scans from `i` (just inside an opening bracket) to its closing bracket; returns that index.
    Calls `on_comma(index)` for each comma at the top level."""
    depth = 0
    while i < len(text):
        after = skip_trivia(text, i)
        if after != i:
            i = after
            continue
        ch = text[i]
        if ch == '"' or (ch == '#' and re.match(r'#+"', text[i:])):
            i = skip_string(text, i)
            continue
        if ch in '([{':
            depth += 1
        elif ch in ')]}':
            if depth == 0:
                return i
            depth -= 1
        elif ch == ',' and depth == 0 and on_comma:
            on_comma(i)
        i += 1
    raise ValueError('unbalanced')


def arguments(text, open_paren):
    """The spans of the top-level arguments of the call whose `(` is at `open_paren`, and its `)`."""
    commas = []
    close = scan(text, open_paren + 1, commas.append)
    bounds = [open_paren + 1] + [c + 1 for c in commas]
    ends = commas + [close]
    return list(zip(bounds, ends)), close


LABEL = re.compile(r'\s*([A-Za-z_][A-Za-z0-9_]*)\s*:(?!:)')


def label_of(text, span):
    m = LABEL.match(text[span[0]:span[1]])
    return m.group(1) if m else None


def offset(text, line, col):
    lines = text.split('\n')
    return sum(len(x) + 1 for x in lines[:line - 1]) + col - 1


def opening_paren(text, pos):
    """The `(` of the call a diagnostic at `pos` points into: at `pos`, or the nearest enclosing one."""
    if text[pos] == '(':
        return pos
    depth = 0
    i = pos - 1
    while i >= 0:
        ch = text[i]
        if ch in ')]}':
            depth += 1
        elif ch in '([{':
            if depth == 0 and ch == '(':
                return i
            if depth > 0:
                depth -= 1
        i -= 1
    raise ValueError('no call')


def rejoin(text, open_paren, spans, close, args):
    first_ws = re.match(r'\s*', text[spans[0][0]:spans[0][1]]).group(0)
    return text[:open_paren + 1] + first_ws + ', '.join(a.strip() for a in args) + text[close:]


def fix(text, kind, pos, data):
    op = opening_paren(text, pos)
    for _ in range(6):
        spans, close = arguments(text, op)
        names = [label_of(text, s) for s in spans]
        args = [text[s:e] for s, e in spans]
        if kind == 'precede':
            x, y = data
            if x in names and y in names:
                moved = args.pop(names.index(x))
                yi = names.index(y)
                args.insert(yi if names.index(x) > yi else yi - 1, moved)
                return rejoin(text, op, spans, close, args)
        elif kind == 'missing':
            unlabelled = [i for i, n in enumerate(names) if n is None and i > 0]
            if unlabelled and data not in names:
                i = unlabelled[0]
                args[i] = data + ': ' + args[i].strip()
                return rejoin(text, op, spans, close, args)
        elif kind == 'several':
            unlabelled = [i for i, n in enumerate(names) if n is None and i > 0]
            if len(unlabelled) == len(data):
                for i, label in zip(unlabelled, data):
                    args[i] = label + ': ' + args[i].strip()
                return rejoin(text, op, spans, close, args)
        elif kind == 'relabel':
            have, expected = data
            if [n or '_' for n in names] == have and sorted(have) == sorted(expected) and '_' not in have[1:]:
                # The same labels in another order: put the arguments in the expected one.
                args = [args[have.index(label)] for label in expected]
                return rejoin(text, op, spans, close, args)
            if [n or '_' for n in names] == have:
                for i, (old, new) in enumerate(zip(have, expected)):
                    if old != new:
                        value = LABEL.sub('', args[i], count=1) if old != '_' else args[i]
                        args[i] = value.strip() if new == '_' else new + ': ' + value.strip()
                return rejoin(text, op, spans, close, args)
        elif kind == 'extra':
            if data in names:
                i = names.index(data)
                args[i] = LABEL.sub('', args[i], count=1)
                return rejoin(text, op, spans, close, args)
        op = opening_paren(text, op)
    raise ValueError('no call with those arguments')


def labels(signature):
    """`_:at:message:` -> ['_', 'at', 'message']."""
    return signature.split(':')[:-1]


def main():
    forced = sys.argv[2] if len(sys.argv) > 2 and sys.argv[1] == '--label' else None
    fixes = collections.OrderedDict()
    patterns = (
        ('precede', PRECEDE), ('missing', MISSING), ('several', MISSING_SEVERAL), ('extra', EXTRA),
        ('relabel', INCORRECT),
    )
    if forced:
        patterns += (('missing', MISSING_ARGUMENT),)
    for line in sys.stdin:
        for kind, pattern in patterns:
            m = pattern.match(line)
            if m:
                key = (m.group(1), int(m.group(2)), int(m.group(3)))
                if pattern is INCORRECT:
                    have, expected = labels(m.group(4)), labels(m.group(5))
                    if len(have) == len(expected):
                        fixes[key] = ('relabel', (have, expected))
                    elif forced:
                        fixes[key] = ('missing', forced)
                elif kind == 'precede':
                    fixes[key] = (kind, m.group(4, 5))
                elif kind == 'missing':
                    fixes[key] = (kind, forced or m.group(4))
                elif kind == 'several':
                    fixes[key] = (kind, labels(m.group(4)))
                else:
                    fixes[key] = (kind, m.group(4))
                break
    by_file = collections.defaultdict(list)
    for (f, line, col), value in fixes.items():
        by_file[f].append((line, col, value))
    total = 0
    for f, items in by_file.items():
        text = open(f).read()
        # From the end of the file, so the positions of the earlier ones stay valid.
        for line, col, (kind, data) in sorted(items, reverse=True):
            try:
                text = fix(text, kind, offset(text, line, col), data)
                total += 1
            except (ValueError, IndexError) as error:
                print(f'skip {f}:{line}:{col} {kind} {data}: {error}')
        open(f, 'w').write(text)
    print('fixed', total)


if __name__ == '__main__':
    main()
