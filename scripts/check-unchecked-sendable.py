#!/usr/bin/env python3
"""Every `@unchecked Sendable` says what makes it safe: fails (listing each one) when a declaration in
Sources, Tests, Benchmarks or Examples (not the SDK's generated folders) lacks the line

    // @unchecked Sendable: <what protects its mutable state>

directly above it. Doc comments (`///`) and attributes (`@available(...)`) may sit between that line
and the declaration; nothing else may. The declaration is the line holding `@unchecked Sendable`, or,
when the conformance list is wrapped, the nearest line above it that starts the declaration (`class`,
`struct`, `enum`, `extension`, with their modifiers).

    python3 scripts/check-unchecked-sendable.py [folder ...]   (default: Sources Tests Benchmarks Examples)

CI runs it beside the format lint; CONTRIBUTING.md says what the line must say.
"""

import os
import re
import sys

DEFAULT_ROOTS = ["Sources", "Tests", "Benchmarks", "Examples"]
UNCHECKED = re.compile(r"@unchecked\s+Sendable\b")
MARKER = re.compile(r"^\s*// @unchecked Sendable: \S")
DECLARATION = re.compile(
    r"^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|package|internal|fileprivate|private|open|final|indirect)\s+)*"
    r"(?:class|struct|enum|extension)\s"
)
SKIPPED_ABOVE = re.compile(r"^\s*(?:///|@\w)")


def swift_files(roots):
    for root in roots:
        for folder, subfolders, files in os.walk(root):
            subfolders[:] = sorted(
                name for name in subfolders if name != "Generated" and not name.startswith(".build")
            )
            for name in sorted(files):
                if name.endswith(".swift"):
                    yield os.path.join(folder, name)


def problems(path):
    with open(path, encoding="utf-8") as file:
        lines = file.read().split("\n")
    for index, line in enumerate(lines):
        code = line.split("//", 1)[0]
        if not UNCHECKED.search(code):
            continue
        start = index
        while not DECLARATION.match(lines[start]) and start > 0 and index - start < 5:
            start -= 1
        if not DECLARATION.match(lines[start]):
            yield index + 1, "no declaration found above `@unchecked Sendable`"
            continue
        above = start - 1
        while above >= 0 and SKIPPED_ABOVE.match(lines[above]):
            above -= 1
        if above < 0 or not MARKER.match(lines[above]):
            yield index + 1, "`@unchecked Sendable` without `// @unchecked Sendable: <what protects it>` above it"


def main():
    roots = sys.argv[1:] or [root for root in DEFAULT_ROOTS if os.path.isdir(root)]
    found = 0
    for path in swift_files(roots):
        for line, message in problems(path):
            print(f"{path}:{line}: error: {message}")
            found += 1
    if found:
        print(
            f"error: {found} `@unchecked Sendable` without the line saying what protects it "
            "(CONTRIBUTING.md, 'Sendable and data races')"
        )
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
