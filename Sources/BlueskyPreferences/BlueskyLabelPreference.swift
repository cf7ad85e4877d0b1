/// What the user wants done with content carrying a label.
public enum BlueskyLabelPreference: String, Sendable, Hashable, CaseIterable {
    /// Show the content as if unlabeled.
    case ignore
    /// Show the content with a warning or behind a cover.
    case warn
    /// Remove the content from lists and cover it elsewhere.
    case hide

    /// Reads a stored preference value; the legacy `show` is `ignore`, anything unknown is `nil`.
    public init?(storedValue: String) {
        if storedValue == "show" {
            self = .ignore
        } else {
            self.init(rawValue: storedValue)
        }
    }
}
