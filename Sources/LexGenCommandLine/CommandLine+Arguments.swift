/// A usage error: bad or missing arguments. Printed with a hint and exit code 64.
package struct UsageError: Error, CustomStringConvertible {
    package var description: String
    package init(_ description: String) { self.description = description }
}

/// Parsed options of one subcommand: positional arguments, `--name value` options and `--flag`s.
package struct ParsedArguments {
    package var positional: [String] = []
    package var options: [String: String] = [:]
    /// Every value of each value option, in order (`options` keeps the last).
    package var allValues: [String: [String]] = [:]
    package var flags: Set<String> = []

    /// Parses `arguments` given the option names that take a value and the flags this command knows.
    package init(_ arguments: [String], valueOptions: Set<String>, flagOptions: Set<String>) throws {
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            guard argument.hasPrefix("-"), argument != "-" else {
                positional.append(argument)
                continue
            }
            var name = argument
            var inlineValue: String?
            if let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            if valueOptions.contains(name) {
                let value: String
                if let inlineValue {
                    value = inlineValue
                } else {
                    guard index < arguments.count else { throw UsageError("\(name) needs a value") }
                    value = arguments[index]
                    index += 1
                }
                options[name] = value
                allValues[name, default: []].append(value)
            } else if flagOptions.contains(name), inlineValue == nil {
                flags.insert(name)
            } else {
                throw UsageError("unknown option \(name)")
            }
        }
    }
}

/// `text` as one shell word: as it is when it holds only safe characters, else in single quotes.
package func shellQuoted(_ text: String) -> String {
    let safe = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789@%+=:,./_-")
    if !text.isEmpty, text.allSatisfy({ safe.contains($0) }) { return text }
    return "'" + text.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
}
