import Foundation

/// Arithmetic on Unix times in whole seconds where one side comes from a caller (a token's `exp`, a
/// configured lifetime): every result is clamped to `Int`'s range instead of trapping, so that a
/// claim such as `exp = -2^63` is refused like any other expired token rather than ending the process.
/// Package-visible: service auth on both sides (the verifier in XRPCServer, the token request in
/// XRPCAgents) uses it.
package enum UnixSeconds {
    /// `date` in whole seconds, rounded down; a date beyond `Int`'s range is its nearest end, and a
    /// NaN clock reads as the end of time (every token has expired).
    package static func of(_ date: Date) -> Int {
        clamped(date.timeIntervalSince1970.rounded(.down))
    }

    /// `seconds` as an `Int`, clamped to its range (NaN as `Int.max`).
    package static func clamped(_ seconds: Double) -> Int {
        guard !seconds.isNaN else { return .max }
        // 2^63 is exactly representable; every Double below it converts without trapping.
        if seconds >= 9_223_372_036_854_775_808.0 { return .max }
        if seconds <= -9_223_372_036_854_775_808.0 { return .min }
        return Int(seconds)
    }

    /// `a + b`, or the end of `Int`'s range it would pass.
    package static func adding(_ a: Int, _ b: Int) -> Int {
        let (sum, overflow) = a.addingReportingOverflow(b)
        guard overflow else { return sum }
        return b > 0 ? .max : .min
    }

    /// `a - b`, or the end of `Int`'s range it would pass.
    package static func subtracting(_ a: Int, _ b: Int) -> Int {
        let (difference, overflow) = a.subtractingReportingOverflow(b)
        guard overflow else { return difference }
        return b < 0 ? .max : .min
    }

    /// The whole seconds of `duration`, clamped to `Int`'s range.
    package static func of(_ duration: Duration) -> Int {
        Int(clamping: duration.components.seconds)
    }
}
