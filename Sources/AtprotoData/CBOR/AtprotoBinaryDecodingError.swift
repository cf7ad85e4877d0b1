import AtprotoSyntax
import Foundation

/// Binary data-model input (DAG-CBOR, a CID, a CAR file) that could not be read: what is wrong and
/// at which byte.
public struct AtprotoBinaryDecodingError: AtprotoError, Hashable {
    /// The kind of problem, for code to act on; ``message`` says more.
    public var code: Code
    /// The byte offset of the problem from the start of the input (for a CID string, of the text).
    public var offset: Int
    /// What is wrong, for a person to read.
    public var message: String

    /// Creates an error.
    public init(_ code: Code, offset: Int, message: String) {
        self.code = code
        self.offset = offset
        self.message = message
    }

    public var description: String { "byte \(offset): \(message)" }

    /// The same error with its offset moved by `base`, for input read from inside a larger one.
    package func shifted(by base: Int) -> AtprotoBinaryDecodingError {
        AtprotoBinaryDecodingError(code, offset: offset + base, message: message)
    }

    /// A kind of problem. An open set: new codes may be added, so a `switch` needs a `default`.
    public struct Code: AtprotoErrorCode {
        /// The code's name.
        public let rawValue: String
        /// Wraps a code's name.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The input ends inside a value.
        public static let truncated: Code = "truncated"
        /// Bytes follow a complete value where none may.
        public static let trailingBytes: Code = "trailingBytes"
        /// An indefinite-length string, array or map, or a stray "break" byte.
        public static let indefiniteLength: Code = "indefiniteLength"
        /// Bytes that are not CBOR at all, such as a reserved header value.
        public static let malformed: Code = "malformed"
        /// A length, integer or tag not written in its shortest form.
        public static let nonCanonical: Code = "nonCanonical"
        /// An integer outside the signed 64-bit range.
        public static let integerOutOfRange: Code = "integerOutOfRange"
        /// A float, which the atproto data model does not allow.
        public static let float: Code = "float"
        /// A simple value other than `false`, `true` and `null` (e.g. `undefined`).
        public static let unsupportedSimpleValue: Code = "unsupportedSimpleValue"
        /// A tag other than 42 (a CID link).
        public static let unsupportedTag: Code = "unsupportedTag"
        /// A map key that is not a text string.
        public static let nonStringMapKey: Code = "nonStringMapKey"
        /// Map keys not in canonical order (shorter first, then bytewise).
        public static let unsortedMapKeys: Code = "unsortedMapKeys"
        /// The same map key twice.
        public static let duplicateMapKey: Code = "duplicateMapKey"
        /// A text string that is not valid UTF-8.
        public static let invalidUTF8: Code = "invalidUTF8"
        /// Arrays and maps nested deeper than the decoder allows.
        public static let tooDeep: Code = "tooDeep"
        /// More than a limit the caller set allows (``CARFile/Limits``: blocks, a block's size).
        public static let limitExceeded: Code = "limitExceeded"
        /// A malformed CID, in binary or as text.
        public static let invalidCID: Code = "invalidCID"
        /// A malformed or non-minimal unsigned varint.
        public static let invalidVarint: Code = "invalidVarint"
        /// A CAR header that is not `{version: 1, roots: [CID...]}`.
        public static let invalidCARHeader: Code = "invalidCARHeader"
        /// A block whose bytes do not hash to its CID.
        public static let hashMismatch: Code = "hashMismatch"
        /// A CID whose hash function cannot be checked here (only SHA-256 and identity can).
        public static let unsupportedHash: Code = "unsupportedHash"
    }
}

extension ContiguousBytes {
    /// Calls `body` with the bytes, keeping the error type, which `withUnsafeBytes` does not.
    /// Inlinable, so that a call with `Data` or `[UInt8]` is specialised for it.
    @inlinable
    package func withBytes<T>(
        _ body: (UnsafeRawBufferPointer) throws(AtprotoBinaryDecodingError) -> T
    ) throws(AtprotoBinaryDecodingError) -> T {
        try withUnsafeBytes { buffer in
            Result { () throws(AtprotoBinaryDecodingError) -> T in try body(buffer) }
        }.get()
    }
}
