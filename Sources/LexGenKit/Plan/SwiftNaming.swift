import AtprotoSyntax
import LexGenSchema

/// Every rule that turns lexicon names into Swift names, in one place.
///
/// - A lexicon's type is its NSID in PascalCase without dots: `app.bsky.feed.post` -> `AppBskyFeedPost`.
/// - Defs and inline types are PascalCase (`postView` -> `PostView`); names Swift reserves after a dot
///   (`Type`, `Protocol`, `Self`...) get a trailing `_`.
/// - Properties, arguments and constants are lowerCamelCase identifiers: characters that cannot appear
///   in an identifier separate words (`most-likes` -> `mostLikes`, `!hide` -> `hide`), a leading digit
///   gets a `_` prefix, Swift keywords are written in backticks, and names that would clash with
///   members every value has (`self`, `none`, `some`, `unknownFields`, `hashValue`...) get a trailing `_`.
/// - Union cases are the member's full reference in lowerCamelCase without `main`:
///   `app.bsky.embed.images#view` -> `appBskyEmbedImagesView`.
public enum SwiftNaming {
    /// The Swift type of a lexicon document.
    public static func documentTypeName(_ nsid: String) -> String {
        pascalCase(nsid)
    }

    /// A nested type name for a def or an inline type.
    public static func typeName(_ name: String) -> String {
        let base = pascalCase(name)
        return reservedTypeNames.contains(base) ? base + "_" : base
    }

    /// The client namespace type of an NSID segment (`feed` -> `Feed`). A segment that starts with a
    /// digit (`4-2`, which NSIDs allow) would give the type the name of its property (`_42`), so its
    /// type is `Namespace_42`: `client.com.example._42.getThing()`.
    public static func namespaceTypeName(_ segment: String) -> String {
        let name = typeName(segment)
        return name.hasPrefix("_") ? "Namespace" + name : name
    }

    /// A property, argument or static member name, escaped for use in declarations and expressions.
    public static func identifier(_ name: String) -> String {
        escaped(bareIdentifier(name))
    }

    /// The identifier before keyword escaping; what name scopes compare.
    static func bareIdentifier(_ name: String) -> String {
        let base = lowerCamelCase(name)
        return reservedMemberNames.contains(base) ? base + "_" : base
    }

    /// Wraps a keyword in backticks.
    static func escaped(_ bare: String) -> String {
        keywords.contains(bare) ? "`\(bare)`" : bare
    }

    /// The case name of a union member.
    public static func unionCaseName(_ reference: DefReference) -> String {
        let text = reference.name == "main" ? reference.nsid : reference.nsid + "." + reference.name
        return identifier(text)
    }

    /// The bare name of a constant for a `knownValues` or `enum` entry (escape with ``escaped(_:)``);
    /// values that name a def (`app.bsky.feed.defs#requestLess`) use the def's name.
    public static func valueConstantName(_ value: String) -> String {
        var text = value
        if let hash = value.lastIndex(of: "#"), NSID(rawValue: String(value[..<hash])).isValid {
            text = String(value[value.index(after: hash)...])
        } else if NSID(rawValue: value).isValid, let dot = value.lastIndex(of: ".") {
            text = String(value[value.index(after: dot)...])
        }
        let name = bareIdentifier(text)
        return name.isEmpty || name == "_" ? "value" : name
    }

    /// PascalCase: splits at every character that is not a letter or digit, capitalizes each word.
    public static func pascalCase(_ text: String) -> String {
        var result = ""
        var capitalizeNext = true
        for scalar in text.unicodeScalars {
            let isWordCharacter = scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar))
            if !isWordCharacter {
                capitalizeNext = true
                continue
            }
            if capitalizeNext {
                result += String(scalar).uppercased()
                capitalizeNext = false
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        if result.isEmpty { return "Value" }
        if let first = result.unicodeScalars.first, ("0"..."9").contains(first) { result = "_" + result }
        return result
    }

    /// lowerCamelCase: PascalCase with the leading capitals lowered (`URLValue` -> `urlValue`, `NSFW` -> `nsfw`).
    public static func lowerCamelCase(_ text: String) -> String {
        let pascal = pascalCase(text)
        if pascal.hasPrefix("_") { return pascal }
        let characters = Array(pascal)
        var upperRun = 0
        while upperRun < characters.count, characters[upperRun].isUppercase { upperRun += 1 }
        if upperRun == 0 { return pascal }
        if upperRun == characters.count { return pascal.lowercased() }
        let lowered = upperRun == 1 ? 1 : upperRun - 1
        return String(characters[..<lowered]).lowercased() + String(characters[lowered...])
    }

    /// Type names that cannot be nested types or that read badly after a dot.
    static let reservedTypeNames: Set<String> = ["Type", "Protocol", "Self", "Any", "Sendable", "Error"]

    /// Member names that every generated value already has, or that mislead in expressions.
    static let reservedMemberNames: Set<String> = [
        "self", "Self", "init", "none", "some", "unknownFields", "lexiconJSON", "hashValue", "hash", "write",
        "Type", "Protocol",
    ]

    /// Swift keywords: usable as names only in backticks.
    static let keywords: Set<String> = [
        "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "inout",
        "internal", "let", "open", "operator", "private", "precedencegroup", "protocol", "public", "rethrows",
        "static", "struct", "subscript", "typealias", "var", "break", "case", "catch", "continue", "default",
        "defer", "do", "else", "fallthrough", "for", "guard", "if", "in", "repeat", "return", "throw", "switch",
        "where", "while", "Any", "as", "await", "false", "is", "nil", "super", "throws", "true", "try", "_",
        "consume", "copy", "discard", "borrowing", "consuming", "async", "package", "macro", "some", "any",
    ]
}

/// Hands out names within one Swift scope so that no two declarations share one.
struct NameScope {
    private var taken: Set<String>

    init(reserved: Set<String> = []) {
        taken = reserved
    }

    /// Returns `base` if it is free, else `base` with `Value`, `Value2`, ... appended.
    mutating func claim(_ base: String) -> String {
        if taken.insert(base).inserted { return base }
        var candidate = base + "Value"
        var counter = 2
        while !taken.insert(candidate).inserted {
            candidate = base + "Value\(counter)"
            counter += 1
        }
        return candidate
    }

    /// Whether a name is taken.
    func contains(_ name: String) -> Bool { taken.contains(name) }
}
