/// The isolation of generated code: `nonisolated`, whatever the default isolation of the module that
/// compiles it.
///
/// A module built with MainActor default isolation (`.defaultIsolation(MainActor.self)`, the default
/// of Xcode 26 app targets) infers `@MainActor` on every declaration that says nothing else. Generated
/// types would then be main-actor isolated: their conformances to the runtime's `Sendable` protocols
/// (`LexiconObject`, `LexiconValidatable`, `Hashable` through `LexiconValue`) cross into main-actor
/// code and do not compile, and nothing could decode or validate off the main actor. So the renderers
/// write `nonisolated` before every type, protocol and extension a generated file declares, nested
/// ones included; members follow their type or extension. In a module without a default (the SDK's)
/// the modifier changes nothing. Swift 6.1, the package's minimum, accepts it on types and extensions;
/// typealiases and enum cases have no isolation and take none.
///
/// What the compiler refuses (Swift 6.2 and 6.3): a property wrapper on a stored property of a
/// `Sendable` type that is `nonisolated` (said on the type, or taken from a `nonisolated` protocol
/// it conforms to), because the wrapper's backing storage would be a `nonisolated var` ("'nonisolated'
/// cannot be applied to mutable stored properties"). So generated code has no property wrappers: a
/// boxed field is a computed property over a stored box (``SwiftRenderer/renderProperty(_:into:)``).
enum GeneratedIsolation {
    /// The modifier with its trailing space, as the renderers write it.
    static let modifier = "nonisolated "
}
