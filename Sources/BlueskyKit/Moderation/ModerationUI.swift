// What one place in a UI does with a subject, with the causes behind each part of it.

/// The outcome of a decision in one ``ModerationContext``.
///
/// ```swift
/// let list = decision.ui(.contentList)
/// if list.filter { /* leave the post out */ }
/// else if list.blur { /* cover it with list.blurs[0]; no way to uncover when list.noOverride */ }
/// ```
public struct ModerationUI: Sendable, Hashable {
    /// Whether a cover put up here may not be lifted by the user.
    public var noOverride = false
    /// The causes that remove the subject from the list, highest priority first.
    public var filters: [ModerationCause] = []
    /// The causes that cover the subject, highest priority first.
    public var blurs: [ModerationCause] = []
    /// The causes that put a warning on the subject.
    public var alerts: [ModerationCause] = []
    /// The causes that put an informational notice on the subject.
    public var informs: [ModerationCause] = []

    /// Creates an outcome that does nothing.
    public init() {}

    /// Whether to leave the subject out of the list.
    public var filter: Bool { !filters.isEmpty }
    /// Whether to put the subject behind a cover.
    public var blur: Bool { !blurs.isEmpty }
    /// Whether to show a warning on the subject.
    public var alert: Bool { !alerts.isEmpty }
    /// Whether to show an informational notice on the subject.
    public var inform: Bool { !informs.isEmpty }

    /// Whether the outcome does nothing at all.
    public var isEmpty: Bool { !filter && !blur && !alert && !inform && !noOverride }

    mutating func add(_ cause: ModerationCause, action: ModerationAction?) {
        switch action {
        case .blur: blurs.append(cause)
        case .alert: alerts.append(cause)
        case .inform: informs.append(cause)
        case nil: break
        }
    }
}
