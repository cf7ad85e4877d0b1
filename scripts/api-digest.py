#!/usr/bin/env python3
"""Prints a module's public API as sorted text, one declaration per line, from its symbol graphs.

    scripts/api-digest.py <symbol-graph folder of one module>

The folder is what `swift-symbolgraph-extract -minimum-access-level public` wrote for the module
(scripts/build-docs.sh leaves one per module in .build/docs/symbol-graphs/<Module>): the module's own
graph and its extension graphs (`<Module>@Swift.symbols.json`: members and conformances it adds to
other modules' types). SPI declarations (`@_spi`) are not in such graphs, so they are not in the
digest. Each line is `<kind> <path>: <declaration>` (with the generic constraints, if any), or
`conformance <type>: <protocol>`; members the compiler synthesizes (`!=` of Equatable...) are left
out. The lines are sorted, so a digest changes only where the API does.
"""

import glob
import json
import os
import sys


def text(fragments):
    return "".join(fragment["spelling"] for fragment in fragments or []).replace("\n", " ")


def constraints(symbol):
    generics = symbol.get("swiftGenerics", {})
    parts = []
    for constraint in generics.get("constraints", []):
        relation = {"conformance": ":", "superclass": ":", "sameType": "=="}.get(constraint["kind"], constraint["kind"])
        parts.append(f"{constraint['lhs']} {relation} {constraint['rhs']}")
    return f" where {', '.join(parts)}" if parts else ""


def main(folder):
    lines = set()
    for path in sorted(glob.glob(os.path.join(folder, "*.symbols.json"))):
        with open(path) as file:
            graph = json.load(file)
        names = {}
        for symbol in graph["symbols"]:
            names[symbol["identifier"]["precise"]] = ".".join(symbol["pathComponents"])
        for symbol in graph["symbols"]:
            precise = symbol["identifier"]["precise"]
            kind = symbol["kind"]["identifier"].removeprefix("swift.")
            if "::SYNTHESIZED::" in precise or kind == "extension":
                continue
            path_name = ".".join(symbol["pathComponents"])
            declaration = text(symbol.get("declarationFragments"))
            where = "" if " where " in declaration else constraints(symbol)
            lines.add(f"{kind} {path_name}: {declaration}{where}")
        for relationship in graph["relationships"]:
            if relationship["kind"] != "conformsTo" or "::SYNTHESIZED::" in relationship["source"]:
                continue
            source = names.get(relationship["source"])
            target = names.get(relationship["target"]) or relationship.get("targetFallback", relationship["target"])
            if source:
                lines.add(f"conformance {source}: {target}")
    for line in sorted(lines):
        print(line)


if __name__ == "__main__":
    main(sys.argv[1])
