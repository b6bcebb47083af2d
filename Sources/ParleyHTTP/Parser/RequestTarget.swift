/// The parts of a request-target a router needs: the raw path, its percent-decoded segments
/// and the decoded query items (RFC 3986 §3.3–§3.4, RFC 9112 §3.2).
struct RequestTarget: Sendable, Hashable {
    /// The path as sent, still percent-encoded; `/` for asterisk-form.
    var path: String
    /// The path split on `/` and percent-decoded; the leading empty segment is dropped.
    var segments: [String]
    /// `name=value` pairs from the query, `+` read as space, in order, duplicates kept.
    var query: [(name: String, value: String)]

    static func == (lhs: RequestTarget, rhs: RequestTarget) -> Bool {
        lhs.path == rhs.path && lhs.segments == rhs.segments
            && lhs.query.elementsEqual(rhs.query, by: { $0.name == $1.name && $0.value == $1.value })
    }

    func hash(into hasher: inout Hasher) { hasher.combine(path) }

    /// Splits and decodes `target`; a malformed escape or invalid UTF-8 throws 400.
    init(_ target: String) throws(HTTPParseError) {
        var text = Substring(target)
        if target == "*" { text = "/" }
        if text.first != "/", let colon = text.firstIndex(of: ":") {
            // absolute-form: the path starts at the first "/" after "scheme://authority".
            let rest = text[colon...].dropFirst(3)
            text = rest.firstIndex(where: { $0 == "/" || $0 == "?" }).map { rest[$0...] } ?? "/"
            if text.first == "?" { text = "/" + text }
        }
        if let hash = text.firstIndex(of: "#") { text = text[..<hash] }
        let queryText: Substring
        if let question = text.firstIndex(of: "?") {
            queryText = text[text.index(after: question)...]
            text = text[..<question]
        } else {
            queryText = ""
        }
        path = String(text)
        var segments = text.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map { $0 }
        if segments.last == "" && segments.count > 1 { segments.removeLast() }
        var decoded: [String] = []
        decoded.reserveCapacity(segments.count)
        for segment in segments { decoded.append(try RequestTarget.percentDecoded(segment, plusIsSpace: false)) }
        self.segments = decoded == [""] ? [] : decoded
        var items: [(name: String, value: String)] = []
        for pair in queryText.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = try RequestTarget.percentDecoded(parts[0], plusIsSpace: true)
            let value = parts.count > 1 ? try RequestTarget.percentDecoded(parts[1], plusIsSpace: true) : ""
            items.append((name, value))
        }
        query = items
    }

    /// Decodes `%XX` escapes; a `%` not followed by two hex digits, or bytes that are not
    /// UTF-8, are rejected rather than passed through.
    static func percentDecoded(_ text: Substring, plusIsSpace: Bool) throws(HTTPParseError) -> String {
        let utf8 = text.utf8
        if !utf8.contains(UInt8(ascii: "%")) && !(plusIsSpace && utf8.contains(UInt8(ascii: "+"))) {
            return String(text)
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count)
        var iterator = utf8.makeIterator()
        while let byte = iterator.next() {
            if byte == UInt8(ascii: "%") {
                guard let high = iterator.next().flatMap(ByteClass.hexValue),
                    let low = iterator.next().flatMap(ByteClass.hexValue)
                else { throw .badRequest("The request target has a malformed percent-escape.") }
                bytes.append(high << 4 | low)
            } else if plusIsSpace && byte == UInt8(ascii: "+") {
                bytes.append(UInt8(ascii: " "))
            } else {
                bytes.append(byte)
            }
        }
        guard let string = String(validating: bytes, as: UTF8.self) else {
            throw .badRequest("The request target is not valid UTF-8 once decoded.")
        }
        return string
    }
}
