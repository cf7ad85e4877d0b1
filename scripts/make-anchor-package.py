#!/usr/bin/env python3
"""Writes the benchmark's anchor: a fixed synthetic Swift package that depends on nothing but the toolchain.

    scripts/make-anchor-package.py <folder>

One library target of 100 files, each with 4 structs of 8 stored properties (strings, numbers,
optionals, an array) with an initializer, `==`, `hash(into:)` and a method reading every field, all
written out like the SDK's generated code (which synthesizes no conformances), so the work is in
function bodies that compile in parallel, as the SDK's does. scripts/benchmark.sh builds it clean in the same run as the
SDK and prints the SDK's build time as a ratio to it, which other machines and loads can compare.
Change nothing here without saying so beside the figures: the ratio is only comparable to itself.
"""

import os
import sys

FILES = 100
STRUCTS = 4

folder = sys.argv[1]
sources = os.path.join(folder, "Sources", "Anchor")
os.makedirs(sources, exist_ok=True)
with open(os.path.join(folder, "Package.swift"), "w") as package:
    package.write(
        "// swift-tools-version: 6.1\n"
        "import PackageDescription\n\n"
        'let package = Package(name: "Anchor", targets: [.target(name: "Anchor")], '
        "swiftLanguageModes: [.v6])\n"
    )
FIELDS = [("id", "String"), ("title", "String"), ("summary", "String?"), ("count", "Int"),
          ("score", "Double"), ("enabled", "Bool"), ("tags", "[String]"), ("parent", "String?")]

for file in range(FILES):
    lines = ["import Foundation", ""]
    for index in range(STRUCTS):
        name = f"Record{file}x{index}"
        lines.append(f"public struct {name}: Hashable, Sendable {{")
        lines += [f"    public var {field}: {kind}" for field, kind in FIELDS]
        arguments = ", ".join(f"{field}: {kind}" for field, kind in FIELDS)
        lines.append(f"    public init({arguments}) {{")
        lines += [f"        self.{field} = {field}" for field, _ in FIELDS]
        lines.append("    }")
        lines.append("    public static func == (lhs: Self, rhs: Self) -> Bool {")
        lines.append("        " + " && ".join(f"lhs.{field} == rhs.{field}" for field, _ in FIELDS))
        lines.append("    }")
        lines.append("    public func hash(into hasher: inout Hasher) {")
        lines += [f"        hasher.combine({field})" for field, _ in FIELDS]
        lines.append("    }")
        lines.append("    /// The fields as text, one `name=value` pair each.")
        lines.append("    public func fields() -> [String: String] {")
        lines.append("        var result: [String: String] = [:]")
        for field, kind in FIELDS:
            value = f'{field} ?? "-"' if kind.endswith("?") else (
                f'{field}.joined(separator: ",")' if kind == "[String]" else f"String(describing: {field})")
            lines.append(f'        result["{field}"] = {value}')
        lines.append("        return result")
        lines.append("    }")
        lines.append("}")
        lines.append("")
    with open(os.path.join(sources, f"File{file}.swift"), "w") as source:
        source.write("\n".join(lines))
