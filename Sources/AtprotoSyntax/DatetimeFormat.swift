import Foundation

// The `datetime` format (atproto.com/specs/lexicon): the intersection of RFC 3339, ISO 8601 and WHATWG,
// `YYYY-MM-DDTHH:MM:SS[.fraction](Z|+HH:MM|-HH:MM)`, uppercase `T` and `Z`, a required timezone, no `-00:00`.

/// The fields of a datetime string, checked for range.
struct DatetimeFields {
    var year: Int
    var month: Int
    var day: Int
    var hour: Int
    var minute: Int
    var second: Int
    /// The fraction of the second in nanoseconds (digits beyond the ninth are dropped).
    var nanosecond: Int
    /// The offset from UTC in minutes, positive east of Greenwich.
    var offsetMinutes: Int

    /// Whole seconds since the Unix epoch of the instant, in UTC.
    var epochSeconds: Int {
        let days = CivilCalendar.days(year: year, month: month, day: day)
        return days * 86_400 + hour * 3_600 + minute * 60 + second - offsetMinutes * 60
    }

    /// The outcome of parsing: the fields, or why the text is not a datetime.
    enum Parsed {
        case valid(DatetimeFields)
        case invalid(String)
    }

    /// Parses `bytes`: the fields, or why the text is not a datetime.
    static func parse(_ bytes: ByteScanner) -> Parsed {
        func failure(_ reason: String) -> Parsed { .invalid(reason) }
        if let reason = separatorError(bytes) { return failure(reason) }
        guard let year = bytes.decimal(at: 0, length: 4), let month = bytes.decimal(at: 5, length: 2),
            let day = bytes.decimal(at: 8, length: 2), let hour = bytes.decimal(at: 11, length: 2),
            let minute = bytes.decimal(at: 14, length: 2), let second = bytes.decimal(at: 17, length: 2)
        else { return failure("expected YYYY-MM-DDTHH:MM:SS with every field zero-padded") }
        var index = 19
        var nanosecond = 0
        if bytes.byte(at: index) == FormatByte.dot {
            index += 1
            let start = index
            while index < bytes.count, FormatByte.isDigit(bytes[index]) {
                if index - start < 9 { nanosecond = nanosecond * 10 + Int(bytes[index] &- 0x30) }
                index += 1
            }
            guard index > start else { return failure("the fractional seconds have no digits") }
            for _ in min(index - start, 9)..<9 { nanosecond *= 10 }
        }
        var offsetMinutes = 0
        switch bytes.byte(at: index) {
        case UInt8(ascii: "Z") where index + 1 == bytes.count:
            break
        case let sign? where (sign == FormatByte.plus || sign == FormatByte.hyphen) && index + 6 == bytes.count:
            guard let hours = bytes.decimal(at: index + 1, length: 2), bytes[index + 3] == FormatByte.colon,
                let minutes = bytes.decimal(at: index + 4, length: 2)
            else { return failure("the timezone offset must be +HH:MM or -HH:MM") }
            guard hours <= 23, minutes <= 59 else { return failure("the timezone offset is out of range") }
            guard sign == FormatByte.plus || hours + minutes > 0 else { return failure("\"-00:00\" is not allowed") }
            offsetMinutes = (hours * 60 + minutes) * (sign == FormatByte.plus ? 1 : -1)
        case nil:
            return failure("a timezone (\"Z\" or an offset) is required")
        default:
            return failure("expected fractional seconds, then \"Z\" or +HH:MM / -HH:MM, and nothing after")
        }
        guard (1...12).contains(month) else { return failure("the month is out of range") }
        guard day >= 1, day <= CivilCalendar.daysInMonth(year: year, month: month) else {
            return failure("the day is out of range for the month")
        }
        guard hour <= 23, minute <= 59, second <= 59 else { return failure("the time of day is out of range") }
        let fields = DatetimeFields(
            year: year, month: month, day: day, hour: hour, minute: minute, second: second,
            nanosecond: nanosecond, offsetMinutes: offsetMinutes)
        guard fields.epochSeconds >= CivilCalendar.days(year: 0, month: 1, day: 1) * 86_400 else {
            return failure("the instant in UTC is before year 0000")
        }
        return .valid(fields)
    }
}

extension DatetimeFields {
    /// Why the separators of `YYYY-MM-DDTHH:MM:SS` are not where they belong, if they are not.
    fileprivate static func separatorError(_ bytes: ByteScanner) -> String? {
        let expected: String
        if bytes.byte(at: 4) != FormatByte.hyphen {
            expected = "\"-\" after the year"
        } else if bytes.byte(at: 7) != FormatByte.hyphen {
            expected = "\"-\" after the month"
        } else if bytes.byte(at: 10) != UInt8(ascii: "T") {
            expected = "uppercase \"T\" between date and time"
        } else if bytes.byte(at: 13) != FormatByte.colon {
            expected = "\":\" after the hour"
        } else if bytes.byte(at: 16) != FormatByte.colon {
            expected = "\":\" after the minute"
        } else {
            return nil
        }
        return "expected \(expected) (YYYY-MM-DDTHH:MM:SS)"
    }
}

/// Conversions between proleptic Gregorian dates and days since 1970-01-01 (H. Hinnant's algorithms).
enum CivilCalendar {
    /// Days from 1970-01-01 to the date.
    static func days(year: Int, month: Int, day: Int) -> Int {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * ((month + 9) % 12) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The date `days` after 1970-01-01.
    static func date(days: Int) -> (year: Int, month: Int, day: Int) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// The number of days in the month of the year.
    static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
}

extension LexiconDatetime {
    /// `datetime`.
    public static var formatName: String { "datetime" }

    /// Checks the lexicon datetime syntax (`1985-04-12T23:20:50.123Z`): RFC 3339 with uppercase `T` and
    /// `Z`, a required timezone (`Z` or `±HH:MM`, not `-00:00`), fractional seconds of any length, fields
    /// in range (no leap second) and an instant not before year 0000 in UTC.
    public static func syntaxError(in value: String) -> String? {
        withBytes(of: value) { bytes in
            guard case .invalid(let reason) = DatetimeFields.parse(bytes) else { return nil }
            return reason
        }
    }

    /// The instant, or `nil` when the value is not valid datetime syntax. Parsed without a date formatter,
    /// so microseconds are kept as far as `Date`'s floating-point seconds allow (about 0.1 µs today).
    public var date: Date? {
        withBytes(of: rawValue) { bytes in
            guard case .valid(let fields) = DatetimeFields.parse(bytes) else { return nil }
            let sinceReferenceDate = fields.epochSeconds - 978_307_200
            return Date(timeIntervalSinceReferenceDate: Double(sinceReferenceDate) + Double(fields.nanosecond) / 1e9)
        }
    }

    /// The datetime for `date` in UTC with `fractionalDigits` (0-6, clamped) digits of seconds:
    /// `2024-01-01T00:00:00.000Z` with the default 3. Instants outside years 0000-9999 are clamped to them.
    public init(_ date: Date, fractionalDigits: Int = 3) {
        let digits = min(max(fractionalDigits, 0), 6)
        let scale = [1, 10, 100, 1_000, 10_000, 100_000, 1_000_000][digits]
        let lowest = Double(CivilCalendar.days(year: 0, month: 1, day: 1) * 86_400 - 978_307_200)
        let highest = Double(CivilCalendar.days(year: 10_000, month: 1, day: 1) * 86_400 - 978_307_200) - 1
        var seconds = date.timeIntervalSinceReferenceDate
        seconds = seconds.isNaN ? 0 : min(max(seconds, lowest), highest)
        let units = Int((seconds * Double(scale)).rounded()) + 978_307_200 * scale
        let whole = floorDivide(units, scale)
        let fraction = units - whole * scale
        let days = floorDivide(whole, 86_400)
        let (year, month, day) = CivilCalendar.date(days: days)
        let time = whole - days * 86_400
        var text = pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2) + "T" + pad(time / 3_600, 2) + ":"
        text += pad(time / 60 % 60, 2) + ":" + pad(time % 60, 2)
        if digits > 0 { text += "." + pad(fraction, digits) }
        self.init(rawValue: text + "Z")
    }

    /// The current time, with millisecond precision.
    public static func now() -> LexiconDatetime { LexiconDatetime(Date()) }
}

/// `value / divisor` rounded toward negative infinity (`divisor` is positive).
private func floorDivide(_ value: Int, _ divisor: Int) -> Int {
    let quotient = value / divisor
    return value % divisor < 0 ? quotient - 1 : quotient
}

/// `value` written in decimal with leading zeros to `width` digits.
private func pad(_ value: Int, _ width: Int) -> String {
    let digits = String(value)
    return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
}
