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
    /// `Int64`, like ``exponent``, so 32-bit targets (WebAssembly) read the same numbers.
    public static let maximumExponentMagnitude: Int64 = 1_000_000_000_000

    /// Whether the value is below zero.
    public let isNegative: Bool
    /// Significant decimal digits, ASCII, no leading or trailing zeros ("0" for zero).
    public let digits: [UInt8]
    /// Power of ten the digits are scaled by (`Int64` everywhere: `Int` is 32 bits on WebAssembly).
    public let exponent: Int64

    /// Whether the value is zero.
    public var isZero: Bool { digits == [0x30] }

    /// Parses the number grammar of docs/rules.md exactly; `nil` for anything else
    /// (leading `+`, spaces, separators, `.5`, `1.`, non-ASCII digits…).
    public init?(parsing text: some StringProtocol) {
        self.init(utf8: Array(text.utf8))
    }

    /// Parses the grammar from UTF-8 bytes.
    public init?(utf8 bytes: [UInt8]) {
        self.init(utf8Bytes: bytes)
    }

    /// Parses the grammar from UTF-8 bytes where they lie (the JSON parser's input: copying a
    /// number's bytes into an array first cost an allocation per number of every request body).
    init?(utf8 bytes: UnsafeBufferPointer<UInt8>) {
        self.init(utf8Bytes: bytes)
    }

    private init?<Bytes: RandomAccessCollection<UInt8>>(utf8Bytes bytes: Bytes) where Bytes.Index == Int {
        var index = bytes.startIndex
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
        var written: Int64 = 0
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
                written = written * 10 + Int64(bytes[index] - 0x30)
                index += 1
            }
            guard index > exponentStart, written <= Self.maximumExponentMagnitude else { return nil }
            if exponentNegative { written = -written }
        }
        guard index == count else { return nil }
        self.init(negative: negative, significand: significand, exponent: written - Int64(scale))
    }

    /// An exact integer.
    public init(_ value: Int) {
        let magnitude = value.magnitude
        self.init(negative: value < 0, significand: Array(String(magnitude).utf8), exponent: 0)
    }

    /// Normalises a raw significand.
    init(negative: Bool, significand: [UInt8], exponent: Int64) {
        var first = 0
        while first < significand.count - 1, significand[first] == 0x30 { first += 1 }
        var last = significand.count
        var exponent = exponent
        while last - 1 > first, significand[last - 1] == 0x30 {
            last -= 1
            exponent += 1
        }
        // Most numbers need no trimming: their digits are kept as they are, not copied again.
        let trimmed = first == 0 && last == significand.count ? significand : Array(significand[first..<last])
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
    public var adjustedExponent: Int64 { Int64(digits.count) - 1 + exponent }

    /// Whether the value has no fractional part.
    public var isInteger: Bool { exponent >= 0 }

    /// The value as an `Int` when it is an integer that fits, else `nil` (below 10^18 on
    /// 64-bit targets, 10^9 on 32-bit ones; the rule interpreter reads counts with ``countValue``).
    public var intValue: Int? {
        guard isInteger, adjustedExponent < (Int.bitWidth == 64 ? 18 : 9) else { return nil }
        var result = 0
        for digit in digits { result = result * 10 + Int(digit - 0x30) }
        for _ in 0..<exponent { result *= 10 }
        return isNegative ? -result : result
    }

    /// The value as a count (a length bound) when it is an integer from 0 to
    /// ``maximumCount``, the same on every platform, else `nil`.
    public var countValue: Int? {
        guard !isNegative, isInteger, adjustedExponent < 10 else { return nil }
        var value: Int64 = 0
        for digit in digits { value = value * 10 + Int64(digit - 0x30) }
        for _ in 0..<exponent { value *= 10 }
        return value <= Int64(Self.maximumCount) ? Int(value) : nil
    }

    /// Largest count a rule accepts (`minLength`, `maxLength`): 2,147,483,647, so that a
    /// 32-bit core (WebAssembly) reads every screen a 64-bit one does.
    public static let maximumCount = Int(Int32.max)

    /// Canonical text: plain digits for moderate magnitudes, otherwise
    /// `d.ddde±x`. Deterministic, so canonical JSON is byte-stable.
    public var description: String {
        var text = isNegative ? "-" : ""
        let digitText = String(decoding: digits, as: UTF8.self)
        let adjusted = adjustedExponent
        if exponent >= 0, adjusted < 21 {
            text += digitText + String(repeating: "0", count: Int(exponent))
        } else if exponent < 0, adjusted >= -7 {
            if adjusted >= 0 {
                let split = digits.count + Int(exponent)
                text += String(decoding: digits[..<split], as: UTF8.self) + "."
                text += String(decoding: digits[split...], as: UTF8.self)
            } else {
                text += "0." + String(repeating: "0", count: Int(-adjusted - 1)) + digitText
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
