/// Accumulates generated Swift text line by line, with indentation.
struct CodeWriter {
    private(set) var text = ""
    private var indentLevel = 0

    init() {
        text.reserveCapacity(16_384)
    }

    /// Writes one line at the current indentation; an empty string writes an empty line.
    mutating func line(_ content: String) {
        if !content.isEmpty {
            for _ in 0..<indentLevel { text += "    " }
            text += content
        }
        text += "\n"
    }

    /// Writes doc comment lines (`/// ...`); nothing when `lines` is empty.
    mutating func documentation(_ lines: [String]) {
        for docLine in lines {
            let trimmed = docLine.trimmingTrailingWhitespace
            line(trimmed.isEmpty ? "///" : "/// " + trimmed)
        }
    }

    /// Writes `do {`, the body, `} catch {`, the handler, then `}`.
    mutating func doCatch(_ body: (inout CodeWriter) -> Void, handler: (inout CodeWriter) -> Void) {
        line("do {")
        indentLevel += 1
        body(&self)
        indentLevel -= 1
        line("} catch {")
        indentLevel += 1
        handler(&self)
        indentLevel -= 1
        line("}")
    }

    /// Writes `header {`, the body one level deeper, then `}`.
    mutating func block(_ header: String, _ body: (inout CodeWriter) -> Void) {
        line(header + " {")
        indentLevel += 1
        body(&self)
        indentLevel -= 1
        line("}")
    }
}

extension String {
    var trimmingTrailingWhitespace: String {
        var copy = self
        while copy.last?.isWhitespace == true { copy.removeLast() }
        return copy
    }

    /// The string as a Swift string literal, with quotes.
    var swiftLiteral: String {
        var result = "\""
        for scalar in unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    result += "\\u{\(String(scalar.value, radix: 16))}"
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }
}

extension String {
    /// The string as a single-line Swift raw string literal (`#"..."#`), with as many `#` as it takes
    /// for nothing inside to end the literal or start an escape. Falls back to ``swiftLiteral`` when
    /// the string holds a line break or a control character, which a single-line literal cannot.
    var swiftRawLiteral: String {
        guard !unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else { return swiftLiteral }
        var hashes = "#"
        while contains("\"" + hashes) || contains("\\" + hashes) { hashes += "#" }
        return hashes + "\"" + self + "\"" + hashes
    }
}
