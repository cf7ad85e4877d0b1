#!/usr/bin/env python3
"""Moves labelled arguments into the order the compiler asks for, from its own errors.

Generated initializers and client methods take their fields in one order (docs/GeneratedCode.md,
"Field order"); code written for another order fails with "argument 'X' must precede argument 'Y'".
This reads those errors on stdin and moves each X just before its Y, in place. Run it until the build
has none left (each round fixes what the compiler reported), then `swift format -i` the changed files:

    swift build --build-tests 2>&1 | python3 scripts/fix-argument-order.py
"""
import collections
import re
import sys

pat = re.compile(r"^(/[^:]+):(\d+):(\d+): error: argument '([^']+)' must precede argument '([^']+)'")
fixes = collections.OrderedDict()
for line in sys.stdin:
    m = pat.match(line)
    if m:
        key = (m.group(1), int(m.group(2)), int(m.group(3)))
        fixes[key] = (m.group(4), m.group(5))
byfile = collections.defaultdict(list)
for (f, l, c), v in fixes.items():
    byfile[f].append((l, c, v))

def offset(text, line, col):
    lines = text.split('\n')
    return sum(len(x) + 1 for x in lines[:line-1]) + col - 1

def split_args(text, start):
    # start: index just after '('; returns list of (s, e) spans of top-level args and index of ')'
    depth = 0; i = start; spans = []; seg = start; in_str = False
    while i < len(text):
        ch = text[i]
        if in_str:
            if ch == '\\': i += 2; continue
            if ch == '"': in_str = False
        elif ch == '"': in_str = True
        elif ch in '([{': depth += 1
        elif ch in ')]}':
            if depth == 0:
                spans.append((seg, i)); return spans, i
            depth -= 1
        elif ch == ',' and depth == 0:
            spans.append((seg, i)); seg = i + 1
        i += 1
    raise ValueError('unbalanced')

def find_open(text, pos):
    depth = 0; i = pos - 1
    while i >= 0:
        ch = text[i]
        if ch in ')]}': depth += 1
        elif ch in '([{':
            if depth == 0:
                if ch == '(': return i
                # bracket/brace: keep going outwards
            else:
                depth -= 1
        i -= 1
    raise ValueError('no open paren')

total = 0
for f, items in byfile.items():
    text = open(f).read()
    # process from the end so offsets stay valid
    for (l, c, (x, y)) in sorted(items, reverse=True):
        pos = offset(text, l, c)
        try:
            op = find_open(text, pos)
            # ensure this paren's arg list contains both labels; else go further out
            for _ in range(5):
                spans, close = split_args(text, op + 1)
                labels = [re.match(r'\s*([A-Za-z_][A-Za-z0-9_]*)\s*:', text[s:e]) for s, e in spans]
                names = [m.group(1) if m else None for m in labels]
                if x in names and y in names: break
                op = find_open(text, op)
            else:
                print('skip', f, l, c, x, y); continue
        except ValueError as err:
            print('skip', f, l, c, x, y, err); continue
        args = [text[s:e] for s, e in spans]
        xi, yi = names.index(x), names.index(y)
        moved = args.pop(xi)
        # keep leading whitespace shape of the slot it lands in
        args.insert(yi if xi > yi else yi - 1, moved)
        stripped = [a.strip() for a in args]
        first_ws = re.match(r'\s*', text[spans[0][0]:spans[0][1]]).group(0)
        new = first_ws + ', '.join(stripped)
        text = text[:op + 1] + new + text[close:]
        total += 1
    open(f, 'w').write(text)
print('fixed', total)
