import Foundation

/// Binary data-model input (DAG-CBOR, a CID, a CAR file) that could not be read: what is wrong and
/// at which byte.
public struct BinaryDecodingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of problem, for code to act on; ``message`` says more.
    public var kind: Kind
    /// The byte offset of the problem from the start of the input (for a CID string, of the text).
    public var offset: Int
    /// What is wrong, for a person to read.
    public var message: String

    /// Creates an error.
    public init(_ kind: Kind, at offset: Int, _ message: String) {
        self.kind = kind
        self.offset = offset
        self.message = message
    }

    public var description: String { "byte \(offset): \(message)" }

    /// The same error with its offset moved by `base`, for input read from inside a larger one.
    package func shifted(by base: Int) -> BinaryDecodingError {
        BinaryDecodingError(kind, at: offset + base, message)
    }

    /// A kind of problem. The set is open: new kinds may be added, so match with `==`, not `switch`.
    public struct Kind: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// A short name of the kind.
        public var rawValue: String

        /// Wraps a name.
        public init(rawValue: String) {
            self.rawValue = rawValue
        }

        public var description: String { rawValue }

        /// The input ends inside a value.
        public static let truncated = Kind(rawValue: "truncated")
        /// Bytes follow a complete value where none may.
        public static let trailingBytes = Kind(rawValue: "trailingBytes")
        /// An indefinite-length string, array or map, or a stray "break" byte.
        public static let indefiniteLength = Kind(rawValue: "indefiniteLength")
        /// Bytes that are not CBOR at all, such as a reserved header value.
        public static let malformed = Kind(rawValue: "malformed")
        /// A length, integer or tag not written in its shortest form.
        public static let nonCanonical = Kind(rawValue: "nonCanonical")
        /// An integer outside the signed 64-bit range.
        public static let integerOutOfRange = Kind(rawValue: "integerOutOfRange")
        /// A float, which the atproto data model does not allow.
        public static let float = Kind(rawValue: "float")
        /// A simple value other than `false`, `true` and `null` (e.g. `undefined`).
        public static let unsupportedSimpleValue = Kind(rawValue: "unsupportedSimpleValue")
        /// A tag other than 42 (a CID link).
        public static let unsupportedTag = Kind(rawValue: "unsupportedTag")
        /// A map key that is not a text string.
        public static let nonStringMapKey = Kind(rawValue: "nonStringMapKey")
        /// Map keys not in canonical order (shorter first, then bytewise).
        public static let unsortedMapKeys = Kind(rawValue: "unsortedMapKeys")
        /// The same map key twice.
        public static let duplicateMapKey = Kind(rawValue: "duplicateMapKey")
        /// A text string that is not valid UTF-8.
        public static let invalidUTF8 = Kind(rawValue: "invalidUTF8")
        /// Arrays and maps nested deeper than the decoder allows.
        public static let tooDeep = Kind(rawValue: "tooDeep")
        /// More than a limit the caller set allows (``CARFile/Limits``: blocks, a block's size).
        public static let limitExceeded = Kind(rawValue: "limitExceeded")
        /// A malformed CID, in binary or as text.
        public static let invalidCID = Kind(rawValue: "invalidCID")
        /// A malformed or non-minimal unsigned varint.
        public static let invalidVarint = Kind(rawValue: "invalidVarint")
        /// A CAR header that is not `{version: 1, roots: [CID...]}`.
        public static let invalidCARHeader = Kind(rawValue: "invalidCARHeader")
        /// A block whose bytes do not hash to its CID.
        public static let hashMismatch = Kind(rawValue: "hashMismatch")
        /// A CID whose hash function cannot be checked here (only SHA-256 and identity can).
        public static let unsupportedHash = Kind(rawValue: "unsupportedHash")
    }
}

extension ContiguousBytes {
    /// Calls `body` with the bytes, keeping the error type, which `withUnsafeBytes` does not.
    /// Inlinable, so that a call with `Data` or `[UInt8]` is specialised for it.
    @inlinable
    package func withBytes<T>(
        _ body: (UnsafeRawBufferPointer) throws(BinaryDecodingError) -> T
    ) throws(BinaryDecodingError) -> T {
        try withUnsafeBytes { buffer in
            Result { () throws(BinaryDecodingError) -> T in try body(buffer) }
        }.get()
    }
}
