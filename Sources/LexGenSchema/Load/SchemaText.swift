/// Writes a lexicon document as the compact JSON that generated code embeds for runtime validation.
///
/// Descriptions are left out (validation does not read them, and they are most of a document's
/// bytes); a property that happens to be named `description` is kept. Keys are sorted (UTF-8 bytes),
/// so the text is the same whether the lexicon came from a file or from a record, which keeps no key
/// order.
enum SchemaText {
    static func minified(_ root: JSONNode) -> String {
        var text = ""
        write(root, isPropertyMap: false, into: &text)
        return text
    }

    private static func write(_ node: JSONNode, isPropertyMap: Bool, into text: inout String) {
        switch node.value {
        case .null: text += "null"
        case .bool(let flag): text += flag ? "true" : "false"
        case .number(let literal, _): text += literal
        case .string(let string): writeString(string, into: &text)
        case .array(let items):
            text += "["
            for (index, item) in items.enumerated() {
                if index > 0 { text += "," }
                write(item, isPropertyMap: false, into: &text)
            }
            text += "]"
        case .object(let fields):
            text += "{"
            var first = true
            for (key, value) in fields.sorted(by: { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }) {
                if !isPropertyMap, key == "description", case .string = value.value { continue }
                if !first { text += "," }
                first = false
                writeString(key, into: &text)
                text += ":"
                write(value, isPropertyMap: !isPropertyMap && key == "properties", into: &text)
            }
            text += "}"
        }
    }

    private static func writeString(_ string: String, into text: inout String) {
        text += "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: text.unicodeScalars.append(scalar)
            }
        }
        text += "\""
    }
}
