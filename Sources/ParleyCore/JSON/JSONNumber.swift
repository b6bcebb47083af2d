/// An exact decimal number: `sign × digits × 10^exponent`.
///
/// Parsed from the number grammar of docs/rules.md, which is JSON's:
/// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`. Nothing here goes through
/// binary floating point, so `0.0075` is exactly a multiple of `0.0001`.
/// Values are normalised (no leading or trailing zeros in `digits`, zero is
/// `0` with exponent 0 and no sign), so equal numbers have equal fields.
public struct JSONNumber: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Largest accepted magnitude of an exponent as written; larger ones are refused
    /// so arithmetic on exponents can never overflow (documented in the README).
    public static let maximumExponentMagnitude = 1_000_000_000_000

    /// Whether the value is below zero.
    public let isNegative: Bool
    /// Significant decimal digits, ASCII, no leading or trailing zeros ("0" for zero).
    public let digits: [UInt8]
    /// Power of ten the digits are scaled by.
    public let exponent: Int

    /// Whether the value is zero.
    public var isZero: Bool { digits == [0x30] }

    /// Parses the number grammar of docs/rules.md exactly; `nil` for anything else
    /// (leading `+`, spaces, separators, `.5`, `1.`, non-ASCII digits…).
    public init?(parsing text: some StringProtocol) {
        self.init(utf8: Array(text.utf8))
    }

    /// Parses the grammar from UTF-8 bytes.
    public init?(utf8 bytes: [UInt8]) {
        var index = 0
        let count = bytes.count
        func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
        var negative = false
        if index < count, bytes[index] == 0x2D {
            negative = true
            index += 1
        }
        guard index < count, isDigit(bytes[index]) else { return nil }
        let integerStart = index
        if bytes[index] == 0x30 {
            index += 1
        } else {
            while index < count, isDigit(bytes[index]) { index += 1 }
        }
        var significand = Array(bytes[integerStart..<index])
        var scale = 0
        if index < count, bytes[index] == 0x2E {
            index += 1
            let fractionStart = index
            while index < count, isDigit(bytes[index]) { index += 1 }
            guard index > fractionStart else { return nil }
            significand += bytes[fractionStart..<index]
            scale = index - fractionStart
        }
        var written = 0
        if index < count, bytes[index] == 0x65 || bytes[index] == 0x45 {
            index += 1
            var exponentNegative = false
            if index < count, bytes[index] == 0x2B || bytes[index] == 0x2D {
                exponentNegative = bytes[index] == 0x2D
                index += 1
            }
            let exponentStart = index
            while index < count, isDigit(bytes[index]) {
                if written > Self.maximumExponentMagnitude { return nil }
                written = written * 10 + Int(bytes[index] - 0x30)
                index += 1
            }
            guard index > exponentStart, written <= Self.maximumExponentMagnitude else { return nil }
            if exponentNegative { written = -written }
        }
        guard index == count else { return nil }
        self.init(negative: negative, significand: significand, exponent: written - scale)
    }

    /// An exact integer.
    public init(_ value: Int) {
        let magnitude = value.magnitude
        self.init(negative: value < 0, significand: Array(String(magnitude).utf8), exponent: 0)
    }

    /// Normalises a raw significand.
    init(negative: Bool, significand: [UInt8], exponent: Int) {
        var first = 0
        while first < significand.count - 1, significand[first] == 0x30 { first += 1 }
        var last = significand.count
        var exponent = exponent
        while last - 1 > first, significand[last - 1] == 0x30 {
            last -= 1
            exponent += 1
        }
        let trimmed = Array(significand[first..<last])
        if trimmed == [0x30] {
            self.isNegative = false
            self.digits = trimmed
            self.exponent = 0
        } else {
            self.isNegative = negative
            self.digits = trimmed
            self.exponent = exponent
        }
    }

    /// Exponent of the leading digit (scientific notation): `digits.count - 1 + exponent`.
    public var adjustedExponent: Int { digits.count - 1 + exponent }

    /// Whether the value has no fractional part.
    public var isInteger: Bool { exponent >= 0 }

    /// The value as an `Int` when it is an integer that fits, else `nil`.
    public var intValue: Int? {
        guard isInteger, adjustedExponent < 18 else { return nil }
        var result = 0
        for digit in digits { result = result * 10 + Int(digit - 0x30) }
        for _ in 0..<exponent { result *= 10 }
        return isNegative ? -result : result
    }

    /// Canonical text: plain digits for moderate magnitudes, otherwise
    /// `d.ddde±x`. Deterministic, so canonical JSON is byte-stable.
    public var description: String {
        var text = isNegative ? "-" : ""
        let digitText = String(decoding: digits, as: UTF8.self)
        let adjusted = adjustedExponent
        if exponent >= 0, adjusted < 21 {
            text += digitText + String(repeating: "0", count: exponent)
        } else if exponent < 0, adjusted >= -7 {
            if adjusted >= 0 {
                let split = digits.count + exponent
                text += String(decoding: digits[..<split], as: UTF8.self) + "."
                text += String(decoding: digits[split...], as: UTF8.self)
            } else {
                text += "0." + String(repeating: "0", count: -adjusted - 1) + digitText
            }
        } else {
            text += String(decoding: digits[..<1], as: UTF8.self)
            if digits.count > 1 { text += "." + String(decoding: digits[1...], as: UTF8.self) }
            text += adjusted < 0 ? "e-\(-adjusted)" : "e+\(adjusted)"
        }
        return text
    }

    public static func < (lhs: JSONNumber, rhs: JSONNumber) -> Bool {
        compare(lhs, rhs) < 0
    }

    /// Three-way exact comparison: negative, zero or positive.
    public static func compare(_ lhs: JSONNumber, _ rhs: JSONNumber) -> Int {
        if lhs.isNegative != rhs.isNegative { return lhs.isNegative ? -1 : 1 }
        let magnitude = compareMagnitude(lhs, rhs)
        return lhs.isNegative ? -magnitude : magnitude
    }

    /// Compares absolute values without expanding exponents.
    static func compareMagnitude(_ lhs: JSONNumber, _ rhs: JSONNumber) -> Int {
        if lhs.isZero || rhs.isZero { return (lhs.isZero ? 0 : 1) - (rhs.isZero ? 0 : 1) }
        if lhs.adjustedExponent != rhs.adjustedExponent {
            return lhs.adjustedExponent < rhs.adjustedExponent ? -1 : 1
        }
        let length = max(lhs.digits.count, rhs.digits.count)
        for position in 0..<length {
            let left = position < lhs.digits.count ? lhs.digits[position] : 0x30
            let right = position < rhs.digits.count ? rhs.digits[position] : 0x30
            if left != right { return left < right ? -1 : 1 }
        }
        return 0
    }
}
