/// A strict RFC 8259 parser from UTF-8 bytes to ``JSONValue``.
///
/// Strict where ambiguity would hurt: duplicate object keys, lone surrogates,
/// invalid UTF-8, control characters in strings and trailing data are errors.
/// Nesting depth is bounded (``Limits/maximumDepth``) so hostile input cannot
/// exhaust the stack; everything else is linear in the input.
public struct JSONParser {
    /// Bounds the parser enforces.
    public struct Limits: Sendable {
        /// Deepest array/object nesting accepted. Default 128.
        public var maximumDepth: Int
        /// Creates limits; the defaults are documented per property.
        public init(maximumDepth: Int = 128) { self.maximumDepth = maximumDepth }
    }

    /// The input, read through a pointer: an array subscript is a call per byte in a debug
    /// build (every test parses every response), a pointer's is not. Valid only during ``parse(_:limits:)``.
    private let bytes: UnsafePointer<UInt8>
    private let count: Int
    private let limits: Limits
    private var index = 0
    private var depth = 0

    private init(bytes: UnsafePointer<UInt8>, count: Int, limits: Limits) {
        self.bytes = bytes
        self.count = count
        self.limits = limits
    }

    /// Parses one JSON document.
    public static func parse(_ bytes: [UInt8], limits: Limits = Limits()) throws(JSONParseError) -> JSONValue {
        let parsed = bytes.withUnsafeBufferPointer { buffer -> Result<JSONValue, JSONParseError> in
            // An empty array may have no storage; one byte of whitespace parses the same (no value).
            guard let base = buffer.baseAddress, !buffer.isEmpty else {
                return Result { () throws(JSONParseError) in try parse(pointer: [0x20], count: 0, limits: limits) }
            }
            return Result { () throws(JSONParseError) in try parse(pointer: base, count: buffer.count, limits: limits) }
        }
        return try parsed.get()
    }

    private static func parse(pointer: UnsafePointer<UInt8>, count: Int, limits: Limits) throws(JSONParseError)
        -> JSONValue
    {
        var parser = JSONParser(bytes: pointer, count: count, limits: limits)
        parser.skipWhitespace()
        let value = try parser.parseValue()
        parser.skipWhitespace()
        guard parser.index == count else { throw parser.error("unexpected data after the JSON value") }
        return value
    }

    /// Parses one JSON document from a string.
    public static func parse(_ text: String, limits: Limits = Limits()) throws(JSONParseError) -> JSONValue {
        try parse(Array(text.utf8), limits: limits)
    }

    private mutating func skipWhitespace() {
        while index < count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    private mutating func parseValue() throws(JSONParseError) -> JSONValue {
        guard index < count else { throw error("unexpected end of input, expected a value") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): return try parseLiteral("true", .bool(true))
        case UInt8(ascii: "f"): return try parseLiteral("false", .bool(false))
        case UInt8(ascii: "n"): return try parseLiteral("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw error("unexpected character, expected a value")
        }
    }

    private mutating func parseLiteral(_ word: StaticString, _ value: JSONValue) throws(JSONParseError) -> JSONValue {
        let length = word.utf8CodeUnitCount
        guard index + length <= count else { throw error("invalid literal") }
        let expected = UnsafeBufferPointer(start: word.utf8Start, count: length)
        for offset in 0..<length where bytes[index + offset] != expected[offset] {
            throw error("invalid literal")
        }
        index += length
        return value
    }

    private mutating func enter() throws(JSONParseError) {
        depth += 1
        if depth > limits.maximumDepth { throw error("nesting deeper than \(limits.maximumDepth) levels") }
    }

    private mutating func parseObject() throws(JSONParseError) -> JSONValue {
        try enter()
        index += 1
        var object = JSONObject()
        skipWhitespace()
        if index < count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            depth -= 1
            return .object(object)
        }
        // Room for the few members most objects have, allocated once.
        object.reserveCapacity(4)
        while true {
            skipWhitespace()
            guard index < count, bytes[index] == UInt8(ascii: "\"") else {
                throw error("expected a string key")
            }
            let keyStart = index
            let key = try parseString()
            guard let position = object.insertionIndex(for: key) else {
                index = keyStart
                throw error("duplicate key \"\(key)\"")
            }
            skipWhitespace()
            guard index < count, bytes[index] == UInt8(ascii: ":") else { throw error("expected ':'") }
            index += 1
            skipWhitespace()
            object.insert(key, try parseValue(), at: position)
            skipWhitespace()
            guard index < count else { throw error("unexpected end of input in an object") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            guard bytes[index] == UInt8(ascii: "}") else { throw error("expected ',' or '}'") }
            index += 1
            depth -= 1
            return .object(object)
        }
    }

    private mutating func parseArray() throws(JSONParseError) -> JSONValue {
        try enter()
        index += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if index < count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            depth -= 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            elements.append(try parseValue())
            skipWhitespace()
            guard index < count else { throw error("unexpected end of input in an array") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            guard bytes[index] == UInt8(ascii: "]") else { throw error("expected ',' or ']'") }
            index += 1
            depth -= 1
            return .array(elements)
        }
    }

    private mutating func parseNumber() throws(JSONParseError) -> JSONValue {
        let start = index
        while index < count, Self.isNumberByte(bytes[index]) { index += 1 }
        guard let number = JSONNumber(utf8: UnsafeBufferPointer(start: bytes + start, count: index - start))
        else {
            index = start
            throw error("invalid number (or exponent beyond ±\(JSONNumber.maximumExponentMagnitude))")
        }
        return .number(number)
    }

    private static func isNumberByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."),
            UInt8(ascii: "e"), UInt8(ascii: "E"):
            return true
        default:
            return false
        }
    }

    private mutating func parseString() throws(JSONParseError) -> String {
        index += 1
        var output: [UInt8] = []
        var escaped = false
        var runStart = index
        // Every byte of the string ORed: below 0x80, it is ASCII and valid as it lies.
        var high: UInt8 = 0
        while true {
            guard index < count else { throw error("unterminated string") }
            let byte = bytes[index]
            high |= byte
            if byte == UInt8(ascii: "\"") {
                if escaped { output += run(from: runStart) }
                index += 1
                break
            }
            if byte < 0x20 { throw error("control character in a string must be escaped") }
            if byte == UInt8(ascii: "\\") {
                output += run(from: runStart)
                escaped = true
                try parseEscape(into: &output)
                runStart = index
                continue
            }
            index += 1
        }
        // Without escapes (most strings) the text is read where it lies, with no copy first; an
        // ASCII run needs no validation (`String(validating:)` cost ~950 instructions a member
        // name of a request body), anything else is validated.
        if !escaped, high < 0x80 {
            return String(decoding: run(from: runStart, to: index - 1), as: UTF8.self)
        }
        let text =
            escaped
            ? String(validating: output, as: UTF8.self)
            : String(validating: run(from: runStart, to: index - 1), as: UTF8.self)
        guard let string = text else { throw error("string is not valid UTF-8") }
        return string
    }

    /// The input from `start` up to the current position (or `end`).
    private func run(from start: Int, to end: Int? = nil) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: bytes + start, count: (end ?? index) - start)
    }

    private mutating func parseEscape(into output: inout [UInt8]) throws(JSONParseError) {
        index += 1
        guard index < count else { throw error("unterminated escape") }
        let escaped = bytes[index]
        index += 1
        switch escaped {
        case UInt8(ascii: "\""): output.append(0x22)
        case UInt8(ascii: "\\"): output.append(0x5C)
        case UInt8(ascii: "/"): output.append(0x2F)
        case UInt8(ascii: "b"): output.append(0x08)
        case UInt8(ascii: "f"): output.append(0x0C)
        case UInt8(ascii: "n"): output.append(0x0A)
        case UInt8(ascii: "r"): output.append(0x0D)
        case UInt8(ascii: "t"): output.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = try parseHex4()
            if (0xD800...0xDBFF).contains(scalar) {
                guard index + 1 < count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
                else { throw error("lone high surrogate") }
                index += 2
                let low = try parseHex4()
                guard (0xDC00...0xDFFF).contains(low) else { throw error("high surrogate without low surrogate") }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00...0xDFFF).contains(scalar) {
                throw error("lone low surrogate")
            }
            guard let unicode = Unicode.Scalar(scalar) else { throw error("invalid \\u escape") }
            output += Array(String(Character(unicode)).utf8)
        default:
            index -= 1
            throw error("invalid escape")
        }
    }

    private mutating func parseHex4() throws(JSONParseError) -> UInt32 {
        guard index + 4 <= count else { throw error("truncated \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let nibble: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): nibble = UInt32(byte - 0x30)
            case UInt8(ascii: "a")...UInt8(ascii: "f"): nibble = UInt32(byte - 0x61 + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): nibble = UInt32(byte - 0x41 + 10)
            default: throw error("invalid hex digit in \\u escape")
            }
            value = value << 4 | nibble
            index += 1
        }
        return value
    }

    /// Builds an error at the current position, computing line and column lazily.
    private func error(_ reason: String) -> JSONParseError {
        let position = min(index, count)
        var line = 1
        var column = 1
        for byte in UnsafeBufferPointer(start: bytes, count: position) {
            if byte == 0x0A {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        return JSONParseError(line: line, column: column, offset: position, reason: reason)
    }
}
