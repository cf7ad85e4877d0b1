/// Stores a field out of line: the struct that holds it keeps one reference instead of the value.
///
/// The generator applies it to every field whose type is another generated struct, e.g.
/// `app.bsky.feed.defs#postView`'s `author`; users read and write the field as usual. It lets types
/// hold each other in cycles (`threadViewPost`'s `parent`), and it keeps each struct's copy and
/// destroy code to its own fields instead of the whole tree of nested types (measured: half the
/// object code of the standard SDK). Writing the field stores a new box, so copies never share changes.
///
/// Its members are inlinable so that generated code allocates each box with its concrete type:
/// called generically across modules, every box first looked its class's metadata up in the
/// runtime's cache (a tenth of a timeline page's typed decode).
@propertyWrapper
public struct _LexiconBoxed<Value: Sendable>: Sendable {
    @usableFromInline final class Storage: Sendable {
        @usableFromInline let value: Value
        @inlinable init(_ value: Value) { self.value = value }
    }

    @usableFromInline var storage: Storage

    /// Boxes a value.
    @inlinable public init(wrappedValue: Value) {
        storage = Storage(wrappedValue)
    }

    /// The boxed value.
    @inlinable public var wrappedValue: Value {
        get { storage.value }
        set { storage = Storage(newValue) }
    }
}

/// `_LexiconBoxed` for an optional field: `nil` takes no box, so an absent field costs no allocation.
@propertyWrapper
public struct _LexiconBoxedOptional<Wrapped: Sendable>: Sendable {
    @usableFromInline final class Storage: Sendable {
        @usableFromInline let value: Wrapped
        @inlinable init(_ value: Wrapped) { self.value = value }
    }

    @usableFromInline var storage: Storage?

    /// Boxes a value, or stores `nil`.
    @inlinable public init(wrappedValue: Wrapped?) {
        storage = wrappedValue.map(Storage.init)
    }

    /// The boxed value, or `nil`.
    @inlinable public var wrappedValue: Wrapped? {
        get { storage?.value }
        set { storage = newValue.map(Storage.init) }
    }
}
