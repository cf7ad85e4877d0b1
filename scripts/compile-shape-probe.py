#!/usr/bin/env python3
"""Measures the debug compile cost of two shapes of generated structs, side by side.

  synthesized: `struct S: Codable, Hashable, Sendable` with the compiler's synthesized conformances
               (what most Swift generators emit)
  lexgen:      the shape lexgen emits: explicit init/reader/writer, Codable and Hashable from
               XRPCRuntime's protocol extensions

Usage: scripts/compile-shape-probe.py [--structs N] [--fields F]
Needs a debug build of XRPCRuntime (`swift build --target XRPCRuntime`). Prints seconds per shape.
"""
import argparse, glob, os, subprocess, sys, tempfile, time

def field_types(i):
    return ["String", "Int", "Bool", "[String]", "String?", "Int?", "[Int]?", "Bool?"][i % 8]

def synthesized(n, f):
    out = ["import Foundation"]
    for s in range(n):
        out.append(f"public struct S{s}: Codable, Hashable, Sendable {{")
        for i in range(f):
            out.append(f"    public var field{i}: {field_types(i)}")
        out.append("}")
    return "\n".join(out) + "\n"

def lexgen_shape(n, f):
    out = ["import XRPCRuntime"]
    for s in range(n):
        fields = [(f"field{i}", field_types(i)) for i in range(f)]
        out.append(f"public struct S{s}: XRPCRuntime.LexiconObject {{")
        for name, t in fields:
            out.append(f"    public var {name}: {t}")
        out.append("    public var unknownFields: [Swift.String: XRPCRuntime.JSONValue]")
        args = ", ".join(f"{name}: {t}" + (" = nil" if t.endswith("?") else "") for name, t in fields)
        out.append(f"    public init({args}, unknownFields: [Swift.String: XRPCRuntime.JSONValue] = [:]) {{")
        for name, _ in fields:
            out.append(f"        self.{name} = {name}")
        out.append("        self.unknownFields = unknownFields")
        out.append("    }")
        out.append("    public init(reading reader: inout XRPCRuntime.LexiconObjectReader) throws {")
        for name, t in fields:
            read = "optional" if t.endswith("?") else "required"
            out.append(f"        self.{name} = try reader.{read}(\"{name}\")")
        out.append("        self.unknownFields = reader.remainingFields")
        out.append("    }")
        out.append("    public func write(to writer: inout XRPCRuntime.LexiconObjectWriter) {")
        for name, _ in fields:
            out.append(f"        writer.write(\"{name}\", {name})")
        out.append("        writer.writeUnknown(unknownFields)")
        out.append("    }")
        out.append("}")
    return "\n".join(out) + "\n"

def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--structs", type=int, default=200)
    parser.add_argument("--fields", type=int, default=8)
    args = parser.parse_args()
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    modules = glob.glob(os.path.join(root, ".build", "*", "debug", "Modules"))
    if not modules or not os.path.exists(os.path.join(modules[0], "XRPCRuntime.swiftmodule")):
        sys.exit("build XRPCRuntime first: swift build --target XRPCRuntime")
    with tempfile.TemporaryDirectory() as tmp:
        for name, text in [("synthesized", synthesized(args.structs, args.fields)),
                           ("lexgen", lexgen_shape(args.structs, args.fields))]:
            path = os.path.join(tmp, name + ".swift")
            open(path, "w").write(text)
            command = ["swiftc", "-c", "-Onone", "-swift-version", "6", "-parse-as-library", "-module-name", "Probe",
                       "-I", modules[0], path, "-o", os.path.join(tmp, name + ".o")]
            start = time.monotonic()
            result = subprocess.run(command, capture_output=True, text=True)
            elapsed = time.monotonic() - start
            if result.returncode != 0:
                sys.exit(f"{name} failed to compile:\n{result.stderr[:2000]}")
            print(f"{name:12s} {args.structs} structs x {args.fields} fields: {elapsed:6.2f} s "
                  f"({1000 * elapsed / args.structs:5.1f} ms per struct)")

main()
