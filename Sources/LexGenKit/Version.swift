/// The generator's version, printed by `lexgen --version`.
public enum LexGenVersion {
    /// The version string.
    public static let current = "0.1.0"
}
