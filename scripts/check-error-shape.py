#!/usr/bin/env python3
"""Checks that every public initializer of an error following the package's convention (a type
conforming to `AtprotoError`) has the one shape docs/Errors.md gives:

    init(_ code: Code, <context: labelled>, message: String, underlying: ... )

the code first and unlabelled (it may have a default), `message:` labelled and after the context,
`underlying:` (when there is one) last. Initializers without a `code` parameter (`init(rawValue:)`
of a code, `init(from:)`) are not error-making initializers and are skipped. Exits 1 naming each
initializer of another shape.
"""
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
TYPE = re.compile(r'^public struct (\w+)\b[^{\n]*\bAtprotoError\b[^{\n]*\{', re.M)
INIT = re.compile(r'\n    public init\(((?:[^()]|\([^()]*\))*)\)', re.S)


def parameters(text):
    depth, part, parts = 0, '', []
    for ch in text:
        if ch in '([<':
            depth += 1
        elif ch in ')]>':
            depth -= 1
        if ch == ',' and depth == 0:
            parts.append(part.strip())
            part = ''
        else:
            part += ch
    if part.strip():
        parts.append(part.strip())
    return [p.split(':')[0].split() for p in parts]


def problems(names):
    """names: for each parameter, [label, name] or [name]."""
    labels = [p[0] for p in names]
    internal = [p[-1] for p in names]
    if 'code' not in internal:
        return None
    found = []
    if labels[0] != '_' or internal[0] != 'code':
        found.append('the code must come first, unlabelled (`_ code: Code`)')
    if 'message' not in labels:
        found.append('`message:` must be a labelled parameter')
    else:
        index = labels.index('message')
        rest = labels[index + 1:]
        if rest not in ([], ['underlying']):
            found.append('only `underlying:` may follow `message:` (context comes before it)')
    if 'underlying' in labels and labels[-1] != 'underlying':
        found.append('`underlying:` must come last')
    return found


def main():
    failures = 0
    checked = 0
    for path in sorted((ROOT / 'Sources').rglob('*.swift')):
        if 'Generated' in path.parts:
            continue
        text = path.read_text()
        for match in TYPE.finditer(text):
            # The type's body: up to the next declaration at the start of a line.
            end = re.search(r'\n(public |extension |struct |enum |final |package |internal |private )', text[match.end():])
            body = text[match.end():match.end() + (end.start() if end else len(text))]
            for init in INIT.finditer(body):
                found = problems(parameters(init.group(1)))
                if found is None:
                    continue
                checked += 1
                for problem in found:
                    line = text[:match.end() + init.start() + 1].count('\n') + 1
                    rel = path.relative_to(ROOT)
                    print(f'{rel}:{line}: {match.group(1)}.init({init.group(1).strip()[:80]}...): {problem}')
                    failures += 1
    if checked == 0:
        print('error: no error initializer found: the check no longer reads the sources')
        return 1
    print(f'error initializers: {checked} checked, {failures} of another shape')
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
