import Foundation
import ParleyCore
import ParleyHTTP

/// Reads a request's JSON body: media type checked, parse errors with line and column.
enum JSONBody {
    /// The parsed body; 415 for a non-JSON media type, 400 for malformed JSON.
    static func parse(_ request: HTTPRequest) throws(HTTPError) -> JSONValue {
        try check(request)
        return try parse(checked: request)
    }

    /// What is checked before the body is read: 415 for a non-JSON media type, 400 for an empty
    /// body. A handler that reads a body of its own shape first (``AnswerRequest``) checks these
    /// first too, then falls back to ``object(checked:)``.
    static func check(_ request: HTTPRequest) throws(HTTPError) {
        if let type = request.headers["Content-Type"], !isJSON(type) {
            throw ServiceProblem.unsupportedMediaType(type)
        }
        guard !request.body.isEmpty else {
            throw ServiceProblem.malformedBody("the body is empty; send a JSON document")
        }
    }

    /// The parsed body of a request ``check(_:)`` passed; 400 for malformed JSON.
    private static func parse(checked request: HTTPRequest) throws(HTTPError) -> JSONValue {
        let value: JSONValue
        do {
            value = try JSONParser.parse(request.body)
        } catch {
            throw ServiceProblem.malformedBody("not valid JSON: \(error)")
        }
        // Postgres text and jsonb cannot hold U+0000: refuse it here (400) rather than
        // failing the INSERT of a flow, bundle or submit (500).
        if mayEscapeNul(request.body), containsNul(value), let pointer = nulPointer(in: value, at: .root) {
            throw ServiceProblem.malformedBody("U+0000 cannot be stored; found in a string or key at \"\(pointer)\"")
        }
        return value
    }

    /// Whether a media type is JSON: its essence (RFC 9110 §8.3.1, before any parameters, without
    /// surrounding whitespace, case-insensitive) is `application/json` or ends in `+json`.
    /// Compared as bytes: this runs on every write.
    static func isJSON(_ type: String) -> Bool {
        // What clients send almost always: two small strings compare as their bits.
        if type == "application/json" { return true }
        let isSpace = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        var essence = Array(type.utf8.prefix { $0 != UInt8(ascii: ";") })
        while let last = essence.last, isSpace(last) { essence.removeLast() }
        let start = essence.firstIndex { !isSpace($0) } ?? essence.endIndex
        let lowered = essence[start...].map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }
        return lowered.elementsEqual("application/json".utf8) || lowered.reversed().starts(with: "nosj+".utf8)
    }

    /// Whether the text has `\u0000` in it: the parser refuses raw control characters in
    /// strings, so that escape is the only way a parsed string or member name can hold U+0000.
    /// One pass over bytes instead of a walk over every string of the value; a match (even one
    /// that is an escaped backslash followed by `u0000`) only sends the value to the exact check.
    static func mayEscapeNul(_ body: [UInt8]) -> Bool {
        body.withUnsafeBufferPointer { bytes in
            guard bytes.count >= 6 else { return false }
            let raw = UnsafeRawBufferPointer(bytes)
            let ones: UInt64 = 0x0101_0101_0101_0101
            var index = 0
            while index <= bytes.count - 6 {
                // Eight bytes without a backslash at once (a body rarely has one): the classic
                // "has a zero byte" test of the word XOR backslashes, exact either way.
                if index + 8 <= bytes.count {
                    let word = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self) ^ (ones &* 0x5C)
                    if (word &- ones) & ~word & (ones &* 0x80) == 0 {
                        index += 8
                        continue
                    }
                }
                if bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u"),
                    bytes[index + 2] == UInt8(ascii: "0"), bytes[index + 3] == UInt8(ascii: "0"),
                    bytes[index + 4] == UInt8(ascii: "0"), bytes[index + 5] == UInt8(ascii: "0")
                {
                    return true
                }
                index += 1
            }
            return false
        }
    }

    /// Whether any string or member name holds U+0000 (the cheap check; ``nulPointer`` says where).
    private static func containsNul(_ value: JSONValue) -> Bool {
        switch value {
        case .string(let text): return text.utf8.contains(0)
        case .array(let items): return items.contains(where: containsNul)
        case .object(let object): return object.contains { $0.key.utf8.contains(0) || containsNul($0.value) }
        case .null, .bool, .number: return false
        }
    }

    /// Where the first string or member name containing U+0000 is, if any.
    private static func nulPointer(in value: JSONValue, at pointer: JSONPointer) -> JSONPointer? {
        switch value {
        case .string(let text): return text.utf8.contains(0) ? pointer : nil
        case .array(let items):
            for (index, item) in items.enumerated() {
                if let found = nulPointer(in: item, at: pointer.appending(index)) { return found }
            }
            return nil
        case .object(let object):
            for member in object {
                let child = pointer.appending(member.key)
                if member.key.utf8.contains(0) { return child }
                if let found = nulPointer(in: member.value, at: child) { return found }
            }
            return nil
        case .null, .bool, .number: return nil
        }
    }

    /// The body as a JSON object.
    static func object(_ request: HTTPRequest) throws(HTTPError) -> JSONObject {
        try check(request)
        return try object(checked: request)
    }

    /// The body of a request ``check(_:)`` passed, as a JSON object.
    static func object(checked request: HTTPRequest) throws(HTTPError) -> JSONObject {
        let value = try parse(checked: request)
        guard case .object(let object) = value else {
            throw ServiceProblem.malformedBody("the body must be a JSON object, found \(value.kindDescription)")
        }
        return object
    }
}
