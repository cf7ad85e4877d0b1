// The `language` format: a well-formed BCP 47 language tag (RFC 5646 section 2.1, the `Language-Tag` rule).

extension LexiconLanguageTag {
    /// `language`.
    public static var formatName: String { "language" }

    /// The grandfathered tags of RFC 5646, lowercased; most do not follow the `langtag` rule.
    private static let grandfathered: Set<String> = [
        "en-gb-oed", "i-ami", "i-bnn", "i-default", "i-enochian", "i-hak", "i-klingon", "i-lux", "i-mingo",
        "i-navajo", "i-pwn", "i-tao", "i-tay", "i-tsu", "sgn-be-fr", "sgn-be-nl", "sgn-ch-de", "art-lojban",
        "cel-gaulish", "no-bok", "no-nyn", "zh-guoyu", "zh-hakka", "zh-min", "zh-min-nan", "zh-xiang",
    ]

    /// Checks that the value is a well-formed BCP 47 tag: `language[-extlang][-script][-region]*(-variant)
    /// *(-extension)[-privateuse]`, a private-use tag (`x-...`) or a grandfathered tag. Well-formed, not
    /// valid: repeated variants or extension singletons are accepted, and subtags are not looked up in the
    /// registry. As atproto expects, the primary language subtag is 2 or 3 lowercase letters (the 4-letter
    /// and 5-8-letter forms RFC 5646 reserves are rejected); other subtags and `x` may be any case.
    public static func syntaxError(in value: String) -> String? {
        withBytes(of: value) { bytes in
            guard bytes.count > 0 else { return "is empty" }
            if let (_, byte) = bytes.firstByte(failing: { FormatByte.isAlphanumeric($0) || $0 == FormatByte.hyphen }) {
                return "\(FormatByte.describe(byte)) is not allowed in a language tag"
            }
            var subtags: [ByteScanner] = []
            var start = 0
            while start <= bytes.count {
                let end = bytes.firstIndex(of: FormatByte.hyphen, from: start)
                guard end > start else { return "has an empty subtag" }
                guard end - start <= 8 else { return "has a subtag longer than 8 characters" }
                subtags.append(bytes.slice(start..<end))
                start = end + 1
            }
            guard let reason = langtagError(subtags) else { return nil }
            let isGrandfathered =
                FormatByte.isLower(bytes[0]) && grandfathered.contains(FormatByte.lowercased(bytes.string))
            return isGrandfathered ? nil : reason
        }
    }

    /// Why the subtags (each 1-8 ASCII letters or digits) do not make a `langtag` or private-use tag.
    private static func langtagError(_ subtags: [ByteScanner]) -> String? {
        if isPrivateUseSingleton(subtags[0]) {
            return subtags.count > 1 ? nil : "a private-use tag needs a subtag after \"x\""
        }
        guard (2...3).contains(subtags[0].count), subtags[0].firstByte(failing: FormatByte.isLower) == nil else {
            return "the primary language subtag must be 2 or 3 lowercase letters"
        }
        var index = 1
        var extlangs = 0
        while extlangs < 3, index < subtags.count, subtags[index].count == 3, isLetters(subtags[index]) {
            index += 1
            extlangs += 1
        }
        if index < subtags.count, subtags[index].count == 4, isLetters(subtags[index]) { index += 1 }
        if index < subtags.count, isRegion(subtags[index]) { index += 1 }
        while index < subtags.count, isVariant(subtags[index]) { index += 1 }
        while index < subtags.count, subtags[index].count == 1, !isPrivateUseSingleton(subtags[index]) {
            index += 1
            let first = index
            while index < subtags.count, subtags[index].count >= 2 { index += 1 }
            guard index > first else { return "an extension needs a subtag of 2-8 characters after its singleton" }
        }
        if index < subtags.count, isPrivateUseSingleton(subtags[index]) {
            return index + 1 < subtags.count ? nil : "a private-use section needs a subtag after \"x\""
        }
        guard index == subtags.count else {
            return "the subtag \"\(subtags[index].string)\" is not a valid script, region, variant or extension here"
        }
        return nil
    }

    private static func isLetters(_ subtag: ByteScanner) -> Bool {
        subtag.firstByte(failing: FormatByte.isLetter) == nil
    }

    private static func isPrivateUseSingleton(_ subtag: ByteScanner) -> Bool {
        subtag.count == 1 && FormatByte.lowercased(subtag[0]) == UInt8(ascii: "x")
    }

    /// `2ALPHA / 3DIGIT`.
    private static func isRegion(_ subtag: ByteScanner) -> Bool {
        (subtag.count == 2 && isLetters(subtag))
            || (subtag.count == 3 && subtag.firstByte(failing: FormatByte.isDigit) == nil)
    }

    /// `5*8alphanum / (DIGIT 3alphanum)` (every subtag here is already alphanumeric).
    private static func isVariant(_ subtag: ByteScanner) -> Bool {
        subtag.count >= 5 || (subtag.count == 4 && FormatByte.isDigit(subtag[0]))
    }

    /// The primary language subtag (`pt` in `pt-BR`), lowercased: the text before the first `-`.
    public var primaryLanguage: String {
        FormatByte.lowercased(String(decoding: rawValue.utf8.prefix { $0 != FormatByte.hyphen }, as: UTF8.self))
    }
}
