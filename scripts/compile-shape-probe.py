#!/usr/bin/env python3
"""Measures the debug compile cost of alternative shapes of generated structs, side by side.

  synthesized:     `struct S: Codable, Hashable, Sendable` with the compiler's synthesized
                   conformances (what most Swift generators emit); no nested field
  lexgen:          the shape lexgen emits: stored fields, the nested struct `@_LexiconBoxed`, explicit
                   init / reader / writer, Codable and Hashable from XRPCRuntime's protocol extensions
  generic-storage: one shared copy-on-write class of `[any Sendable]` per value, every field a
                   computed property that casts; reading and writing driven by a field table
  tuple-box:       one generic copy-on-write box holding the fields as a tuple, every field a
                   computed property with `get` / `_modify` (no per-type value witnesses)

Usage: scripts/compile-shape-probe.py [--structs N] [--fields F] [--runs R]
Needs a debug build of XRPCRuntime (`swift build --target XRPCRuntime`). Each shape is compiled once
to warm the module cache, then R times; prints the fastest time, the object size and the number of
LLVM IR instructions (at -Onone most of the compile is LLVM code generation, roughly in proportion).
"""
import argparse, glob, os, subprocess, sys, tempfile, time

UNKNOWN = "[Swift.String: XRPCRuntime.JSONValue]"

# Helpers the two storage shapes need; in a real SDK they would live in XRPCRuntime.
PROBE_RUNTIME = """
import XRPCRuntime

public final class FieldValues: @unchecked Sendable {
    public var values: [any Sendable]
    public var unknown: [Swift.String: XRPCRuntime.JSONValue]
    public init(_ values: [any Sendable], _ unknown: [Swift.String: XRPCRuntime.JSONValue]) {
        self.values = values
        self.unknown = unknown
    }
}

public struct FieldStorage: @unchecked Sendable {
    public var ref: FieldValues
    public init(_ values: [any Sendable], unknown: [Swift.String: XRPCRuntime.JSONValue]) {
        ref = FieldValues(values, unknown)
    }
    public func get<T>(_ index: Swift.Int, as type: T.Type = T.self) -> T { ref.values[index] as! T }
    public mutating func set<T: Sendable>(_ index: Swift.Int, _ value: T) {
        if !isKnownUniquelyReferenced(&ref) { ref = FieldValues(ref.values, ref.unknown) }
        ref.values[index] = value
    }
}

public struct Field: Sendable {
    public let key: Swift.String
    public let type: any XRPCRuntime.LexiconValue.Type
    public init(_ key: Swift.String, _ type: any XRPCRuntime.LexiconValue.Type) {
        self.key = key
        self.type = type
    }
}

public protocol FieldTableObject: XRPCRuntime.LexiconJSONBacked {
    static var fieldTable: [Field] { get }
    var storage: FieldStorage { get }
    init(storage: FieldStorage)
}

extension FieldTableObject {
    public init(lexiconJSON json: XRPCRuntime.JSONValue) throws {
        guard case .object(var rest) = json else {
            throw XRPCRuntime.LexiconDecodingError(message: "not an object")
        }
        var values: [any Sendable] = []
        for field in Self.fieldTable {
            if let value = rest.removeValue(forKey: field.key) {
                values.append(try field.type.init(lexiconJSON: value))
            } else {
                values.append(Swift.Optional<Swift.Int>.none)
            }
        }
        self.init(storage: FieldStorage(values, unknown: rest))
    }
    public var lexiconJSON: XRPCRuntime.JSONValue {
        var object = storage.ref.unknown
        for (index, field) in Self.fieldTable.enumerated() {
            if let value = storage.ref.values[index] as? any XRPCRuntime.LexiconValue {
                object[field.key] = value.lexiconJSON
            }
        }
        return .object(object)
    }
}

public struct TupleBox<Value>: @unchecked Sendable {
    final class Ref {
        var value: Value
        init(_ value: Value) { self.value = value }
    }
    var ref: Ref
    public init(_ value: Value) { ref = Ref(value) }
    public var value: Value {
        get { ref.value }
        _modify {
            if !isKnownUniquelyReferenced(&ref) { ref = Ref(ref.value) }
            yield &ref.value
        }
    }
}
"""


def field_type(i):
    return ["Swift.String", "Swift.Int", "Swift.Bool", "[Swift.String]", "Swift.String?", "Swift.Int?",
            "[Swift.Int]?", "Swift.Bool?"][i % 8]


def fields_of(s, n, f, nested):
    fields = [(f"field{i}", field_type(i)) for i in range(f)]
    if nested:
        fields.append(("next", f"S{(s + 1) % n}?"))
    return fields


def default(t):
    return " = nil" if t.endswith("?") else ""


def reader_call(name, t):
    return f'try reader.{"optional" if t.endswith("?") else "required"}("{name}")'


def memberwise_arguments(fields):
    return ", ".join(f"{name}: {t}{default(t)}" for name, t in fields) + f", unknownFields: {UNKNOWN} = [:]"


def writer(out, fields):
    out.append("    public func write(to writer: inout XRPCRuntime.LexiconObjectWriter) {")
    out += [f'        writer.write("{name}", {name})' for name, _ in fields]
    out += ["        writer.writeUnknown(unknownFields)", "    }"]


def synthesized(n, f):
    out = ["import Foundation"]
    for s in range(n):
        out.append(f"public struct S{s}: Codable, Hashable, Sendable {{")
        out += [f"    public var {name}: {t}" for name, t in fields_of(s, n, f, nested=False)]
        out.append("}")
    return out


def lexgen_shape(n, f):
    out = ["import XRPCRuntime"]
    for s in range(n):
        fields = fields_of(s, n, f, nested=True)
        out.append(f"public struct S{s}: XRPCRuntime.LexiconObject {{")
        for name, t in fields:
            boxed = "@XRPCRuntime.BoxedOptional " if name == "next" else ""
            out.append(f"    {boxed}public var {name}: {t}")
        out.append(f"    public var unknownFields: {UNKNOWN}")
        out.append(f"    public init({memberwise_arguments(fields)}) {{")
        out += [f"        self.{name} = {name}" for name, _ in fields]
        out += ["        self.unknownFields = unknownFields", "    }"]
        out.append("    public init(reading reader: inout XRPCRuntime.LexiconObjectReader) throws {")
        out += [f"        self.{name} = {reader_call(name, t)}" for name, t in fields]
        out += ["        self.unknownFields = reader.remainingFields", "    }"]
        writer(out, fields)
        out.append("}")
    return out


def generic_storage(n, f):
    out = ["import XRPCRuntime", "import ProbeRuntime"]
    for s in range(n):
        fields = fields_of(s, n, f, nested=True)
        out.append(f"public struct S{s}: ProbeRuntime.FieldTableObject {{")
        out.append("    public var storage: ProbeRuntime.FieldStorage")
        out.append("    public init(storage: ProbeRuntime.FieldStorage) { self.storage = storage }")
        table = ", ".join(f'.init("{name}", {t.rstrip("?")}.self)' for name, t in fields)
        out.append(f"    public static var fieldTable: [ProbeRuntime.Field] {{ [{table}] }}")
        for index, (name, t) in enumerate(fields):
            out.append(f"    public var {name}: {t} {{ get {{ storage.get({index}) }} "
                       f"set {{ storage.set({index}, newValue) }} }}")
        out.append(f"    public var unknownFields: {UNKNOWN} {{ get {{ storage.ref.unknown }} "
                   "set { storage.ref.unknown = newValue } }")
        out.append(f"    public init({memberwise_arguments(fields)}) {{")
        values = ", ".join(name for name, _ in fields)
        out += [f"        storage = ProbeRuntime.FieldStorage([{values}], unknown: unknownFields)", "    }", "}"]
    return out


def tuple_box(n, f):
    out = ["import XRPCRuntime", "import ProbeRuntime"]
    for s in range(n):
        fields = fields_of(s, n, f, nested=True)
        tuple_type = "(" + ", ".join(t for _, t in fields) + f", {UNKNOWN})"
        out.append(f"public struct S{s}: XRPCRuntime.LexiconObject {{")
        out.append(f"    var fields: ProbeRuntime.TupleBox<{tuple_type}>")
        for index, (name, t) in enumerate(fields + [("unknownFields", UNKNOWN)]):
            out.append(f"    public var {name}: {t} {{ get {{ fields.value.{index} }} "
                       f"_modify {{ yield &fields.value.{index} }} }}")
        out.append(f"    public init({memberwise_arguments(fields)}) {{")
        values = ", ".join(name for name, _ in fields)
        out += [f"        self.fields = .init(({values}, unknownFields))", "    }"]
        out.append("    public init(reading reader: inout XRPCRuntime.LexiconObjectReader) throws {")
        reads = ", ".join(reader_call(name, t) for name, t in fields)
        out += [f"        self.fields = .init(({reads}, reader.remainingFields))", "    }"]
        writer(out, fields)
        out.append("}")
    return out


def swiftc(arguments):
    result = subprocess.run(["swiftc", "-Onone", "-g", "-swift-version", "6", "-parse-as-library"] + arguments,
                            capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"swiftc {' '.join(arguments[:4])}... failed:\n{result.stderr[:3000]}")


def ir_instructions(path):
    count = 0
    with open(path) as ir:
        for line in ir:
            if line.startswith("  ") and not line.startswith("   ") and not line.lstrip().startswith("#dbg"):
                count += 1
    return count


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--structs", type=int, default=300)
    parser.add_argument("--fields", type=int, default=4)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    modules = glob.glob(os.path.join(root, ".build", "*", "debug", "Modules"))
    if not modules or not os.path.exists(os.path.join(modules[0], "XRPCRuntime.swiftmodule")):
        sys.exit("build XRPCRuntime first: swift build --target XRPCRuntime")
    with tempfile.TemporaryDirectory() as tmp:
        cache = ["-module-cache-path", os.path.join(tmp, "cache")]
        helper = os.path.join(tmp, "ProbeRuntime.swift")
        with open(helper, "w") as file:
            file.write(PROBE_RUNTIME)
        swiftc(["-emit-module", "-module-name", "ProbeRuntime", "-I", modules[0], helper,
                "-emit-module-path", os.path.join(tmp, "ProbeRuntime.swiftmodule")] + cache)
        shapes = [("synthesized", synthesized), ("lexgen", lexgen_shape), ("generic-storage", generic_storage),
                  ("tuple-box", tuple_box)]
        print(f"{args.structs} structs x {args.fields} fields (+ a nested struct field except in 'synthesized'), "
              f"-Onone -g, fastest of {args.runs} after a warm-up compile")
        for name, shape in shapes:
            path = os.path.join(tmp, name + ".swift")
            with open(path, "w") as file:
                file.write("\n".join(shape(args.structs, args.fields)) + "\n")
            common = ["-module-name", "Probe", "-I", modules[0], "-I", tmp, path] + cache
            obj = os.path.join(tmp, name + ".o")
            swiftc(["-c", "-o", obj] + common)
            times = []
            for _ in range(args.runs):
                start = time.monotonic()
                swiftc(["-c", "-o", obj] + common)
                times.append(time.monotonic() - start)
            ir = os.path.join(tmp, name + ".ll")
            swiftc(["-emit-ir", "-o", ir] + common)
            best = min(times)
            print(f"{name:16s} {best:6.2f} s  ({1000 * best / args.structs:5.1f} ms per struct)  "
                  f"object {os.path.getsize(obj) / 1e6:5.1f} MB  IR {ir_instructions(ir):8d} instructions")


main()
