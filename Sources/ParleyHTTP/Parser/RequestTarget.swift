/// The parts of a request-target a router needs: the raw path, its percent-decoded segments
/// and the decoded query items (RFC 3986 §3.3–§3.4, RFC 9112 §3.2).
///
/// Split on the UTF-8 bytes, never on `Character`s: every delimiter is ASCII, and walking
/// grapheme clusters made one `String` per character (a third of a cache-hot screen's cost).
struct RequestTarget: Sendable, Hashable {
    /// The path as sent, still percent-encoded; `/` for asterisk-form.
    var path: String
    /// The decoded segments of a path that needs decoding (a `%` escape, or a form other than
    /// origin-form); nil for a plain path, whose segments are read from ``path`` itself: a
    /// cache-hot request made a string per segment and an array of them only to be routed.
    var decodedSegments: [String]?
    /// The path split on `/` and percent-decoded; the leading empty segment is dropped.
    var segments: [String] { decodedSegments ?? PlainPath.segments(of: path) }
    /// `name=value` pairs from the query, `+` read as space, in order, duplicates kept.
    var query: [(name: String, value: String)]

    static func == (lhs: RequestTarget, rhs: RequestTarget) -> Bool {
        lhs.path == rhs.path && lhs.segments == rhs.segments
            && lhs.query.elementsEqual(rhs.query, by: { $0.name == $1.name && $0.value == $1.value })
    }

    func hash(into hasher: inout Hasher) { hasher.combine(path) }

    /// Splits and decodes `target`; a malformed escape or invalid UTF-8 throws 400.
    init(_ target: String) throws(HTTPParseError) {
        var bytes = target
        let parsed = bytes.withUTF8 { bytes in
            Result { () throws(HTTPParseError) in try RequestTarget(utf8: bytes, target: target) }
        }
        self = try parsed.get()
    }

    /// `target` is the string `bytes` come from: a path that is the whole target shares it.
    private init(utf8 bytes: UnsafeBufferPointer<UInt8>, target: String) throws(HTTPParseError) {
        // The path is bytes[start..<end], behind a "/" of its own when `slashFirst`.
        var start = 0
        var end = bytes.count
        var slashFirst = false
        if end == 1 && bytes[0] == Self.asterisk {
            (start, slashFirst) = (1, true)  // asterisk-form: the path is "/"
        } else if bytes.first != Self.slash, let colon = Self.index(of: Self.colon, in: bytes, 0..<end) {
            // absolute-form: the path starts at the first "/" or "?" after "scheme://authority".
            let authority = min(colon + 3, end)
            if let found = Self.index(in: bytes, authority..<end, where: { $0 == Self.slash || $0 == Self.question }) {
                (start, slashFirst) = (found, bytes[found] == Self.question)
            } else {
                (start, slashFirst) = (end, true)
            }
        }
        // One pass finds where the path ends, the fragment, and what splitting needs to know.
        var pathEnd = -1
        var slashes = 0
        var escaped = false
        var index = start
        while index < end {
            switch bytes[index] {
            case Self.hash: end = index
            case Self.question where pathEnd < 0: pathEnd = index
            case Self.slash where pathEnd < 0: slashes += 1
            case Self.percent where pathEnd < 0: escaped = true
            default: break
            }
            index += 1
        }
        var queryStart = end
        if pathEnd < 0 { pathEnd = end } else { queryStart = pathEnd + 1 }
        let pathBytes = UnsafeBufferPointer(rebasing: bytes[start..<pathEnd])
        if start == 0 && pathEnd == bytes.count && !slashFirst {
            path = target  // no query or fragment: the same string, no copy
        } else {
            let rawPath = String(decoding: pathBytes, as: UTF8.self)
            path = slashFirst ? "/" + rawPath : rawPath
        }
        let plain = !escaped && !slashFirst && pathBytes.first == Self.slash
        decodedSegments =
            plain ? nil : try Self.segments(pathBytes, slashFirst: slashFirst, slashes: slashes, escaped: escaped)
        query = queryStart < end ? try Self.queryItems(UnsafeBufferPointer(rebasing: bytes[queryStart..<end])) : []
    }

    /// The path split on "/" with the piece before the first "/" dropped (empty for a path that
    /// starts with one), a trailing empty segment dropped, each decoded; `/` has none.
    /// `slashes` counts the path's `/`; `escaped`: it holds a `%` (else no piece is decoded).
    private static func segments(_ path: UnsafeBufferPointer<UInt8>, slashFirst: Bool, slashes: Int, escaped: Bool)
        throws(HTTPParseError) -> [String]
    {
        var decoded: [String] = []
        // One allocation for the whole list: appending grew it two or three times per request.
        decoded.reserveCapacity(slashes + 1)
        var pieceStart = 0
        var first = !slashFirst
        var index = 0
        while true {
            if index == path.count || path[index] == slash {
                if !first {
                    let piece = UnsafeBufferPointer(rebasing: path[pieceStart..<index])
                    decoded.append(
                        escaped
                            ? try percentDecoded(piece, plusIsSpace: false)
                            : String(decoding: piece, as: UTF8.self))
                }
                first = false
                if index == path.count { break }
                pieceStart = index + 1
            }
            index += 1
        }
        // A non-empty raw segment never decodes to "", so an empty string is an empty segment.
        if decoded.count > 1 && decoded[decoded.count - 1].isEmpty { decoded.removeLast() }
        if decoded.count == 1 && decoded[0].isEmpty { return [] }
        return decoded
    }

    /// `&`-separated `name=value` items, empty items skipped, `+` as space.
    private static func queryItems(_ query: UnsafeBufferPointer<UInt8>) throws(HTTPParseError)
        -> [(name: String, value: String)]
    {
        var items: [(name: String, value: String)] = []
        var itemStart = 0
        for index in 0...query.count where index == query.count || query[index] == ampersand {
            defer { itemStart = index + 1 }
            guard index > itemStart else { continue }
            let item = UnsafeBufferPointer(rebasing: query[itemStart..<index])
            guard let equals = Self.index(of: Self.equals, in: item, 0..<item.count) else {
                items.append((try percentDecoded(item, plusIsSpace: true), ""))
                continue
            }
            let name = try percentDecoded(UnsafeBufferPointer(rebasing: item[..<equals]), plusIsSpace: true)
            let value = try percentDecoded(UnsafeBufferPointer(rebasing: item[(equals + 1)...]), plusIsSpace: true)
            items.append((name, value))
        }
        return items
    }

    /// Decodes `%XX` escapes; a `%` not followed by two hex digits, or bytes that are not
    /// UTF-8, are rejected rather than passed through.
    static func percentDecoded(_ text: UnsafeBufferPointer<UInt8>, plusIsSpace: Bool) throws(HTTPParseError)
        -> String
    {
        if !text.contains(where: { $0 == percent || (plusIsSpace && $0 == plus) }) {
            return String(decoding: text, as: UTF8.self)  // split at ASCII bytes: still valid UTF-8
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.count)
        var index = 0
        while index < text.count {
            let byte = text[index]
            index += 1
            if byte == percent {
                guard index + 1 < text.count, let high = ByteClass.hexValue(text[index]),
                    let low = ByteClass.hexValue(text[index + 1])
                else { throw .badRequest("The request target has a malformed percent-escape.") }
                bytes.append(high << 4 | low)
                index += 2
            } else if plusIsSpace && byte == plus {
                bytes.append(space)
            } else {
                bytes.append(byte)
            }
        }
        guard let string = String(validating: bytes, as: UTF8.self) else {
            throw .badRequest("The request target is not valid UTF-8 once decoded.")
        }
        return string
    }

    private static func index(of byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Int? {
        index(in: bytes, range, where: { $0 == byte })
    }

    private static func index(
        in bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, where matches: (UInt8) -> Bool
    ) -> Int? {
        var index = range.lowerBound
        while index < range.upperBound {
            if matches(bytes[index]) { return index }
            index += 1
        }
        return nil
    }

    private static let slash = UInt8(ascii: "/")
    private static let asterisk = UInt8(ascii: "*")
    private static let colon = UInt8(ascii: ":")
    private static let question = UInt8(ascii: "?")
    private static let hash = UInt8(ascii: "#")
    private static let ampersand = UInt8(ascii: "&")
    private static let equals = UInt8(ascii: "=")
    private static let percent = UInt8(ascii: "%")
    private static let plus = UInt8(ascii: "+")
    private static let space = UInt8(ascii: " ")
}
