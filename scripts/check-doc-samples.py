#!/usr/bin/env python3
"""Makes every Swift sample of the docs part of a build, so a sample that stops compiling fails CI.

Each ```swift block of README.md, docs/*.md and the catalogs' GettingStarted.md articles becomes the body of a function without parameters, so a
sample compiles only with what it defines itself: a sample that works on something the app already
has (a client, a stored archive) takes it as a parameter of a function it declares. Each document's
samples go into one file, Examples/CustomLexicons/Tests/CustomLexiconsTests/DocSamples/<doc>.generated.swift
(not committed), whose imports are Foundation, the example's module (which re-exports
AtprotoLexicons) and the `import` lines of that document's samples, so a document that uses another
module says so. The files are compiled with the example package. A ```swift package-manifest block is
a Package.swift excerpt: each of its lines must appear in Examples/CustomLexicons/Package.swift, or, with
an example's folder after it (```swift package-manifest Examples/SignIn), in that example's Package.swift
as an app by URL has it (the `path: "../.."` dependency written with a URL and `branch: "main"`,
as README shows it and scripts/adopt-by-url.sh builds it). A ```swift excerpt <file> block shows lines of a Swift file that CI compiles: each
of its lines must appear in that file.
A ```swift apple block is shown only (Apple-only API; the Linux CI does not compile it).

Usage: python3 scripts/check-doc-samples.py   (from anywhere; prints what it wrote)
"""
import pathlib
import re
import sys

root = pathlib.Path(__file__).resolve().parent.parent
# The catalogs' getting-started articles too, but the trait products' (their modules are empty without
# the traits, which the example package does not enable) and lexgen's (a command line: no Swift).
trait_or_tool = ("SwiftCryptoSigner", "NIOWebSocketTransport", "NIOHTTPTransport", "XRPCHummingbird", "lexgen")
docs = (
    [root / "README.md"]
    + sorted((root / "docs").glob("*.md"))
    + sorted(p for p in (root / "Sources").glob("*/*.docc/GettingStarted.md") if p.parent.stem not in trait_or_tool)
)
folder = root / "Examples/CustomLexicons/Tests/CustomLexiconsTests/DocSamples"
manifest = (root / "Examples/CustomLexicons/Package.swift").read_text()

fence = re.compile(r"^```(.*)$")
top_level_constant = re.compile(r"^let (\w+)\b")
import_line = re.compile(r"^import (\w+)$")
problems, count, written = [], 0, []
folder.mkdir(exist_ok=True)
for old in folder.glob("*.generated.swift"):
    old.unlink()
(folder.parent / "DocSamples.generated.swift").unlink(missing_ok=True)  # the single file of before
for doc in docs:
    lines = doc.read_text().splitlines()
    functions, imports = [], {"CustomLexicons", "Foundation"}
    index = 0
    while index < len(lines):
        match = fence.match(lines[index])
        if not match or match.group(1).strip() == "":
            index += 1
            continue
        info, start = match.group(1).strip(), index + 1
        end = start
        while end < len(lines) and lines[end].strip() != "```":
            end += 1
        body = lines[start:end]
        where = f"{doc.relative_to(root)}:{start}"
        if info == "swift":
            count += 1
            imports.update(m.group(1) for m in map(import_line.match, body) if m)
            code = [line for line in body if not import_line.match(line)]
            # A sample often ends on a value it shows (`let page = ...`): mark the sample's top-level
            # constants used, so the example package builds without a warning.
            shown = [m.group(1) for m in map(top_level_constant.match, code) if m]
            code += [f"_ = {constant}" for constant in shown]
            functions.append(
                f"// {where}\n@Sendable func docSample{count}() async throws {{\n"
                + "\n".join("    " + line if line else "" for line in code)
                + "\n}\n"
            )
        elif info == "swift package-manifest":
            for line in body:
                if line.strip() and line.strip() not in manifest:
                    problems.append(f"{where}: not in Examples/CustomLexicons/Package.swift: {line.strip()}")
        elif info.startswith("swift package-manifest "):
            example = info.split(" ", 2)[2]
            text = (root / example / "Package.swift").read_text().replace(
                '.package(name: "swift-atproto-lexicons", path: "../.."',
                '.package(url: "https://github.com/<owner>/swift-atproto-lexicons", branch: "main"')
            for line in body:
                if line.strip() and line.strip() not in text:
                    problems.append(f"{where}: not in {example}/Package.swift (by URL): {line.strip()}")
        elif info.startswith("swift excerpt "):
            path = info.split(" ", 2)[2]
            text = (root / path).read_text()
            for line in body:
                if line.strip() and line.strip() not in text:
                    problems.append(f"{where}: not in {path}: {line.strip()}")
        elif info.startswith("swift") and info != "swift apple":
            problems.append(f"{where}: unknown kind of Swift block: {info}")
        index = end + 1
    if not functions:
        continue
    output = folder / f"{doc.relative_to(root).as_posix().replace('/', '-').removesuffix('.md')}.generated.swift"
    output.write_text(
        f"// Generated by scripts/check-doc-samples.py from the Swift samples of {doc.relative_to(root)}. DO NOT EDIT.\n"
        "// swift-format-ignore-file\n\n"
        + "".join(f"import {module}\n" for module in sorted(imports))
        + "\n"
        + "\n".join(functions)
    )
    written.append(output)

for problem in problems:
    print(f"error: {problem}", file=sys.stderr)
print(f"doc samples: {count} Swift samples written to {len(written)} files in {folder.relative_to(root)}")
sys.exit(1 if problems else 0)
