import ParleyCore

/// Reads the few tokens of a request body of a known, simple shape in one pass over its bytes, or
/// says it cannot: the fast path of a handler that falls back to ``JSONBody`` (``JSONParser``)
/// for everything else, so that every error and every unusual but valid body is the parser's.
///
/// It accepts a subset of what the parser accepts, each token the parser would read the same way:
/// *plain* strings (no backslash escape, no control character, valid UTF-8), so a string's value
/// is its bytes as they lie; `null`; and integers of 1 to 15 digits without a sign, a leading
/// zero, a fraction or an exponent. Anything else (or the end of the input) makes a reading
/// method return nil or false, and the caller gives up on the fast path.
///
/// Reads through a pointer to the body, valid only inside the closure of ``read(_:_:)``.
struct PlainJSONReader {
    private let bytes: UnsafePointer<UInt8>
    private let count: Int
    private var index = 0

    private init(bytes: UnsafePointer<UInt8>, count: Int) {
        self.bytes = bytes
        self.count = count
    }

    /// Runs `body` with a reader at the start of `input`; nil when `input` is empty.
    ///
    /// The reader's pointer does not outlive `input`'s `withUnsafeBufferPointer`: the reader is
    /// made here and only lent to `body` (`inout`), and what the callers keep is copied out of
    /// the bytes before `body` returns (into `String`s and an ``Answers`` storage).
    static func read<Result>(_ input: [UInt8], _ body: (inout PlainJSONReader) -> Result?) -> Result? {
        input.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress, !buffer.isEmpty else { return nil }
            var reader = PlainJSONReader(bytes: base, count: buffer.count)
            return body(&reader)
        }
    }

    /// How many bytes the input has.
    var inputCount: Int { count }

    /// Skips JSON whitespace (RFC 8259 §2: space, tab, line feed, carriage return).
    private mutating func skipWhitespace() {
        while index < count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    /// After any whitespace, consumes `byte` if it is next.
    mutating func take(_ byte: UInt8) -> Bool {
        skipWhitespace()
        guard index < count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    /// Whether only whitespace is left.
    mutating func isAtEnd() -> Bool {
        skipWhitespace()
        return index == count
    }

    /// After any whitespace, consumes `null` if it is next. What follows it is the caller's to
    /// check (a `,` or a `}`), as the parser checks it after the literal.
    mutating func takeNull() -> Bool {
        skipWhitespace()
        guard index + 4 <= count, bytes[index] == UInt8(ascii: "n"), bytes[index + 1] == UInt8(ascii: "u"),
            bytes[index + 2] == UInt8(ascii: "l"), bytes[index + 3] == UInt8(ascii: "l")
        else { return false }
        index += 4
        return true
    }

    /// After any whitespace, a plain string's UTF-8 (between its quotes), or nil: not a string,
    /// unterminated, or not plain. Its bytes are exactly the parser's string's: without an
    /// escape a string is the text between its quotes, which the parser checks as UTF-8 as
    /// this does (`String(validating:)`) when a byte is not ASCII.
    mutating func string() -> UnsafeBufferPointer<UInt8>? {
        skipWhitespace()
        guard index < count, bytes[index] == UInt8(ascii: "\"") else { return nil }
        let start = index + 1
        var at = Self.asciiRun(bytes, from: start, to: count)
        // Every byte ORed: below 0x80, the string is ASCII and valid as it lies.
        var high: UInt8 = 0
        while at < count {
            let byte = bytes[at]
            if byte == UInt8(ascii: "\"") {
                let text = UnsafeBufferPointer(start: bytes + start, count: at - start)
                if high >= 0x80, String(validating: text, as: UTF8.self) == nil { return nil }
                index = at + 1
                return text
            }
            // An escape or a control character (which the parser refuses): not plain.
            if byte < 0x20 || byte == UInt8(ascii: "\\") { return nil }
            high |= byte
            at += 1
        }
        return nil
    }

    /// Where the first byte from `start` on that ends a plain ASCII run is (a quote, a backslash,
    /// a control character or a byte above 0x7F), eight bytes at a time; somewhere before it when
    /// fewer than eight bytes are left. Most strings of a body are a word or two long, and end
    /// in the first word this reads: one test of it instead of three a byte (the byte loop cost
    /// ~1,000 instructions an answer's body). ``CanonicalJSON/escapeBits(_:)`` marks the quotes,
    /// backslashes and control characters, its lowest bit at the first of them, and the high bits
    /// mark bytes above 0x7F: the lowest bit of both is the first byte that ends the run.
    @inline(__always)
    private static func asciiRun(_ bytes: UnsafePointer<UInt8>, from start: Int, to end: Int) -> Int {
        let ones: UInt64 = 0x0101_0101_0101_0101
        var at = start
        while at + 8 <= end {
            let word = UInt64(littleEndian: UnsafeRawPointer(bytes + at).loadUnaligned(as: UInt64.self))
            let ends = CanonicalJSON.escapeBits(word) | (word & (ones &* 0x80))
            if ends != 0 { return at + ends.trailingZeroBitCount / 8 }
            at += 8
        }
        return at
    }

    /// A `String` of the UTF-8 of a plain string (valid, as ``string()`` checked): written into the
    /// string's own storage, so up to fifteen ASCII bytes become a small string with no copy made
    /// and checked first, as `String(decoding:as:)` does (~190 instructions for a step id).
    static func text(_ utf8: UnsafeBufferPointer<UInt8>) -> String {
        String(unsafeUninitializedCapacity: utf8.count) { buffer in
            guard let from = utf8.baseAddress, let to = buffer.baseAddress else { return 0 }
            UnsafeMutableRawPointer(to).copyMemory(from: from, byteCount: utf8.count)
            return utf8.count
        }
    }

    /// After any whitespace, a member's name and the `:` after it.
    private mutating func memberName() -> UnsafeBufferPointer<UInt8>? {
        guard let name = string(), take(UInt8(ascii: ":")) else { return nil }
        return name
    }

    /// After any whitespace, an object: its `{`, each member's name (and `:`) given to `member`,
    /// which reads the value after it and says whether it could, and its `}`. False when the
    /// next token is not an object or something in it is not what this or `member` reads.
    @inline(__always)
    mutating func object(_ member: (inout PlainJSONReader, UnsafeBufferPointer<UInt8>) -> Bool) -> Bool {
        guard take(UInt8(ascii: "{")) else { return false }
        if take(UInt8(ascii: "}")) { return true }
        repeat {
            guard let name = memberName(), member(&self, name) else { return false }
        } while take(UInt8(ascii: ","))
        return take(UInt8(ascii: "}"))
    }

    /// After any whitespace, a positive integer of at most 15 digits: the first not `0`, nothing
    /// after the digits that the parser reads as part of a number (`.`, `e`, `E`, `+`, `-`).
    /// Fifteen digits are well within `Int` and ``JSONNumber/intValue``'s bound (18).
    mutating func positiveInteger() -> Int? {
        skipWhitespace()
        guard index < count, bytes[index] >= UInt8(ascii: "1"), bytes[index] <= UInt8(ascii: "9") else {
            return nil
        }
        var value = 0
        var at = index
        while at < count, bytes[at] >= UInt8(ascii: "0"), bytes[at] <= UInt8(ascii: "9") {
            guard at - index < 15 else { return nil }
            value = value * 10 + Int(bytes[at] - UInt8(ascii: "0"))
            at += 1
        }
        if at < count {
            switch bytes[at] {
            case UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"), UInt8(ascii: "+"), UInt8(ascii: "-"):
                return nil
            default: break
            }
        }
        index = at
        return value
    }

    /// Whether a name read by ``object(_:)`` is `name` (an ASCII name compared byte by byte).
    static func isName(_ bytes: UnsafeBufferPointer<UInt8>, _ name: StaticString) -> Bool {
        guard bytes.count == name.utf8CodeUnitCount else { return false }
        let expected = name.utf8Start
        for offset in 0..<bytes.count where bytes[offset] != expected[offset] { return false }
        return true
    }
}
