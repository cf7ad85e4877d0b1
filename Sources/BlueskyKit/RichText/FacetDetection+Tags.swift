extension Scanner {
    // MARK: Hashtags

    func tags() -> [DetectedFacet] {
        var found: [DetectedFacet] = []
        var lastEnd = 0
        var index = 0
        while index < count {
            let scalar = scalars[index]
            guard scalar == "#" || scalar == "\u{FF03}", prefixAllows(index, lastEnd: lastEnd, parenthesis: false)
            else {
                index += 1
                continue
            }
            let bodyStart = index + 1
            let bodyEnd = runEnd(from: bodyStart, while: { !CharacterClass.endsTag($0) })
            let isTag =
                bodyStart < bodyEnd && scalars[bodyStart] != "\u{FE0F}"
                && scalars[bodyStart..<bodyEnd].contains(where: CharacterClass.isTagCore)
            lastEnd = isTag ? bodyEnd : bodyStart
            defer { index = lastEnd }
            guard isTag else { continue }
            var tagEnd = bodyEnd
            while tagEnd > bodyStart, CharacterClass.isPunctuation(scalars[tagEnd - 1]) { tagEnd -= 1 }
            let tag = string(bodyStart..<tagEnd)
            guard tag.count <= RichTextLimits.tagGraphemes else { continue }
            found.append(DetectedFacet(bytes: bytes(index..<tagEnd), kind: .tag(tag)))
        }
        return found
    }

    // MARK: Cashtags

    func cashtags() -> [DetectedFacet] {
        var found: [DetectedFacet] = []
        var lastEnd = 0
        var index = 0
        while index < count {
            defer { index += 1 }
            guard scalars[index] == "$", prefixAllows(index, lastEnd: lastEnd, parenthesis: true),
                index + 1 < count, CharacterClass.isASCIILetter(scalars[index + 1])
            else { continue }
            var end = index + 2
            while end < count, end < index + 6, CharacterClass.isASCIIAlphanumeric(scalars[end]) { end += 1 }
            guard end == count || CharacterClass.endsCashtag(scalars[end]) else { continue }
            let ticker = string(index + 1..<end).uppercased()
            found.append(DetectedFacet(bytes: bytes(index..<end), kind: .tag("$" + ticker)))
            lastEnd = end
            index = end - 1
        }
        return found
    }
}

/// The character classes of the detection rules, as the official client's regular expressions
/// define them (JavaScript's `\s`, `\b`, `\d`, `\p{P}`).
enum CharacterClass {
    /// JavaScript's `\s`: Unicode white space and the byte order mark.
    static func isWhitespace(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09...0x0D, 0x20, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF:
            return true
        default: return false
        }
    }

    /// The invisible characters that end a hashtag as whitespace does.
    static func isInvisibleSeparator(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0xAD, 0x2060, 0x200A, 0x200B, 0x200C, 0x200D, 0x20E2: return true
        default: return false
        }
    }

    static func endsTag(_ scalar: Unicode.Scalar) -> Bool { isWhitespace(scalar) || isInvisibleSeparator(scalar) }

    /// A character a tag needs at least one of: not a digit, punctuation, whitespace or separator.
    static func isTagCore(_ scalar: Unicode.Scalar) -> Bool {
        !endsTag(scalar) && !("0"..."9").contains(scalar) && !isPunctuation(scalar)
    }

    /// Unicode's punctuation categories (`\p{P}`).
    static func isPunctuation(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation, .initialPunctuation,
            .finalPunctuation, .otherPunctuation:
            return true
        default: return false
        }
    }

    static func endsCashtag(_ scalar: Unicode.Scalar) -> Bool {
        isWhitespace(scalar) || ".,;:!?)\"'\u{2019}".unicodeScalars.contains(scalar)
    }

    static func isASCIILetter(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
    }

    static func isASCIIAlphanumeric(_ scalar: Unicode.Scalar) -> Bool {
        isASCIILetter(scalar) || ("0"..."9").contains(scalar)
    }

    /// A word character of a regular expression's `\b`: ASCII letters, digits and `_`.
    static func isWordCharacter(_ scalar: Unicode.Scalar) -> Bool { isASCIIAlphanumeric(scalar) || scalar == "_" }

    /// What a written handle is made of: ASCII letters, digits, `.` and `-`.
    static func isHandleCharacter(_ scalar: Unicode.Scalar) -> Bool {
        isASCIIAlphanumeric(scalar) || scalar == "." || scalar == "-"
    }

    static func lowercasedASCII(_ scalar: Unicode.Scalar) -> Character {
        ("A"..."Z").contains(scalar) ? Character(Unicode.Scalar(scalar.value + 32) ?? scalar) : Character(scalar)
    }

    /// Whether `name` ends in `.` and a top-level domain (compared as written: the list is lower case).
    static func endsInTopLevelDomain(_ name: String) -> Bool {
        guard let dot = name.lastIndex(of: ".") else { return false }
        return TopLevelDomains.contains(name[name.index(after: dot)...])
    }
}
