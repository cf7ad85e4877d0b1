#!/usr/bin/env python3
"""Keeps only the symbols declared in files under a source folder in a module's symbol graphs.

Usage: filter-symbol-graph.py <symbol-graph-dir> <source-folder-fragment>

For AtprotoLexicons: the hand-written part (Sources/AtprotoLexicons/*.swift) without the generated
SDK. The types that hand-written members extend stay too (without their generated members), so
every member keeps its parent; relationships are kept when both ends are.
"""
import json
import pathlib
import sys

folder, fragment = pathlib.Path(sys.argv[1]), sys.argv[2]
for path in folder.glob("*.symbols.json"):
    graph = json.loads(path.read_text())
    symbols = {symbol["identifier"]["precise"]: symbol for symbol in graph["symbols"]}
    kept = {
        identifier
        for identifier, symbol in symbols.items()
        if fragment in symbol.get("location", {}).get("uri", "")
    }
    parents = {}
    for relation in graph["relationships"]:
        if relation["kind"] == "memberOf":
            parents.setdefault(relation["source"], []).append(relation["target"])
    pending = list(kept)
    while pending:
        for parent in parents.get(pending.pop(), []):
            if parent in symbols and parent not in kept:
                kept.add(parent)
                pending.append(parent)
    graph["symbols"] = [symbols[identifier] for identifier in symbols if identifier in kept]
    graph["relationships"] = [
        relation
        for relation in graph["relationships"]
        if relation["source"] in kept and (relation["target"] in kept or relation["target"] not in symbols)
    ]
    path.write_text(json.dumps(graph))
