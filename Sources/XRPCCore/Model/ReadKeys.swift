/// The keys an object reader has read, for objects of more than sixteen fields read from a tree
/// (smaller ones note their reads as bits, and readers over the text note nothing here).
///
/// Its storage is made on the first key noted: a reader is made for every object decoded, and
/// keeping room for keys inline (sixteen strings, as before) cost every one of them its
/// initialization and destruction, most of all on the text path, which never uses it.
@usableFromInline struct ReadKeys: Sendable {
    @usableFromInline init() {}

    /// The keys noted, in order; `nil` until the first.
    private var keys: [String]?

    /// How many keys are noted.
    var count: Int { keys?.count ?? 0 }

    @usableFromInline mutating func append(_ key: String) {
        if keys == nil {
            keys = []
            keys?.reserveCapacity(32)
        }
        keys?.append(key)
    }

    @usableFromInline mutating func removeLast() {
        guard keys?.isEmpty == false else { return }
        keys?.removeLast()
    }

    @usableFromInline func contains(_ key: String) -> Bool {
        keys?.contains(key) ?? false
    }
}
