/// Stores a field out of line, so a struct can hold a value of a type that (through other types)
/// holds the struct again.
///
/// The generator applies it to the fields that close a cycle of lexicon types, e.g.
/// `app.bsky.feed.defs#threadViewPost`'s `parent`; users read and write the field as usual.
@propertyWrapper
public struct Boxed<Value: Sendable>: Sendable {
    private final class Storage: Sendable {
        let value: Value
        init(_ value: Value) { self.value = value }
    }

    private var storage: Storage

    /// Boxes a value.
    public init(wrappedValue: Value) {
        storage = Storage(wrappedValue)
    }

    /// The boxed value.
    public var wrappedValue: Value {
        get { storage.value }
        set { storage = Storage(newValue) }
    }
}
