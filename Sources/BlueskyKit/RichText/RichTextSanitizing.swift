extension RichText {
    /// Which ends of the text ``sanitized(trimming:collapsingBlankLines:)`` trims.
    public enum Trimming: Sendable, Hashable {
        /// Keep the text's ends.
        case none
        /// Trailing whitespace and newlines go (what the official client does before posting).
        case end
        /// Leading and trailing whitespace and newlines go.
        case both
    }

    /// The text cleaned up as the official client cleans it before posting, facets moved along:
    ///
    /// - Runs of blank lines collapse: a line break followed by two or more line breaks with only
    ///   whitespace or invisible characters (zero-width space, joiners, soft hyphen, word joiner)
    ///   between them becomes one blank line (`\n\n`).
    /// - The text is trimmed at the ends `trimming` names.
    ///
    /// Each collapse is a delete followed by an insert (``deleteBytes(in:)``, ``insert(_:atByte:)``),
    /// so a facet over a run keeps the text that is left of it and one inside a run goes.
    public func sanitized(trimming: Trimming = .end, collapsingBlankLines: Bool = true) -> RichText {
        var result = self
        if collapsingBlankLines { result.collapseBlankLines() }
        if trimming != .none {
            let scalars = result.text.unicodeScalars
            let trailing = scalars.reversed().prefix(while: CharacterClass.isWhitespace)
            let trailingBytes = trailing.reduce(0) { $0 + UTF8.width($1) }
            result.deleteBytes(in: (result.utf8Count - trailingBytes)..<result.utf8Count)
            if trimming == .both {
                let leading = result.text.unicodeScalars.prefix(while: CharacterClass.isWhitespace)
                result.deleteBytes(in: 0..<leading.reduce(0) { $0 + UTF8.width($1) })
            }
        }
        return result
    }

    /// Collapses each run of three or more line breaks (with only whitespace and invisible
    /// characters between them) to `\n\n`, from the first to the last.
    mutating func collapseBlankLines() {
        // The runs are found in one pass over the original text: a collapse never makes a new run
        // before the point it reaches, so the runs after it are the original's, shifted.
        let scanner = Scanner(text)
        var runs: [Range<Int>] = []
        var index = 0
        while index < scanner.count {
            guard Self.isLineBreak(scanner.scalars[index]) else {
                index += 1
                continue
            }
            var breaks = 0
            var lastBreak = index
            var position = index
            while position < scanner.count, Self.isBlank(scanner.scalars[position]) {
                if Self.isLineBreak(scanner.scalars[position]) {
                    breaks += 1
                    lastBreak = position
                }
                position += 1
            }
            if breaks >= 3 {
                runs.append(scanner.offsets[index]..<scanner.offsets[lastBreak + 1])
                index = lastBreak + 1
            } else {
                index = position
            }
        }
        var shift = 0
        for run in runs {
            let start = run.lowerBound - shift
            replaceBytes(in: start..<(run.upperBound - shift), with: "\n\n")
            shift += run.count - 2
        }
    }

    static func isLineBreak(_ scalar: Unicode.Scalar) -> Bool { scalar == "\n" || scalar == "\r" }

    static func isBlank(_ scalar: Unicode.Scalar) -> Bool {
        CharacterClass.isWhitespace(scalar) || [0xAD, 0x2060, 0x200D, 0x200C, 0x200B].contains(scalar.value)
    }
}
