/// Stores a field out of line: the struct that holds it keeps one reference instead of the value.
///
/// The generator applies it to every field whose type is another generated struct, e.g.
/// `app.bsky.feed.defs#postView`'s `author`; users read and write the field as usual. It lets types
/// hold each other in cycles (`threadViewPost`'s `parent`), and it keeps each struct's copy and
/// destroy code to its own fields instead of the whole tree of nested types (measured: half the
/// object code of the standard SDK). Writing the field stores a new box, so copies never share changes.
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

/// ``Boxed`` for an optional field: `nil` takes no box, so an absent field costs no allocation.
@propertyWrapper
public struct BoxedOptional<Wrapped: Sendable>: Sendable {
    private final class Storage: Sendable {
        let value: Wrapped
        init(_ value: Wrapped) { self.value = value }
    }

    private var storage: Storage?

    /// Boxes a value, or stores `nil`.
    public init(wrappedValue: Wrapped?) {
        storage = wrappedValue.map(Storage.init)
    }

    /// The boxed value, or `nil`.
    public var wrappedValue: Wrapped? {
        get { storage?.value }
        set { storage = newValue.map(Storage.init) }
    }
}
