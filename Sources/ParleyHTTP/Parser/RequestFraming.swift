/// How a request's body is delimited and whether the connection stays open after it,
/// derived from the head by RFC 9112 §6 and §9 and RFC 9110 §10.1.1.
struct RequestFraming: Sendable, Hashable {
    /// How the body is delimited.
    enum Body: Sendable, Hashable {
        case none
        case length(Int)
        case chunked
    }

    var body: Body
    /// Whether the connection may carry another request after this one (RFC 9112 §9.3).
    var keepAlive: Bool
    /// Whether the client waits for `100 Continue` before sending the body (RFC 9110 §10.1.1).
    var expectContinue: Bool

    /// Derives the framing or throws the status to answer with.
    init(head: borrowing HTTPRequestHead) throws(HTTPParseError) {
        let headers = head.headers
        let isHTTP11 = head.version == .http1_1
        // One pass finds the fields that frame a request; most requests carry only Host of them,
        // so the list parsing below runs only for a field that is there.
        var hosts = 0
        var host: String?
        var hasTransferEncoding = false
        var hasContentLength = false
        var hasConnection = false
        var hasExpect = false
        for field in headers.fields {
            switch field.name.utf8.count {
            case 4 where field.name.isASCIICaseInsensitiveEqual(to: "Host"):
                hosts += 1
                if host == nil { host = field.value }
            case 6 where field.name.isASCIICaseInsensitiveEqual(to: "Expect"): hasExpect = true
            case 10 where field.name.isASCIICaseInsensitiveEqual(to: "Connection"): hasConnection = true
            case 14 where field.name.isASCIICaseInsensitiveEqual(to: "Content-Length"): hasContentLength = true
            case 17 where field.name.isASCIICaseInsensitiveEqual(to: "Transfer-Encoding"): hasTransferEncoding = true
            default: break
            }
        }
        // RFC 9112 §3.2: an HTTP/1.1 request carries exactly one Host field.
        if hosts > 1 { throw .badRequest("The Host header must appear only once.") }
        if isHTTP11 && hosts == 0 { throw .badRequest("HTTP/1.1 requests must carry a Host header.") }
        if let host, Self.isMalformedHost(host) {
            throw .badRequest("The Host header is malformed.")
        }

        if hasTransferEncoding {
            // RFC 9112 §6.1: both present is a smuggling vector; reject. HTTP/1.0 has no chunked coding.
            if hasContentLength { throw .badRequest("Content-Length and Transfer-Encoding must not both be sent.") }
            if !isHTTP11 { throw .badRequest("Transfer-Encoding is not valid in HTTP/1.0.") }
            body = try RequestFraming.transferCoding(headers)
        } else if hasContentLength {
            let length = try RequestFraming.contentLength(headers)
            body = length == 0 ? .none : .length(length)
        } else {
            body = .none
        }

        var keepAlive = isHTTP11
        for option in hasConnection ? headers.listElements(for: "Connection") : [] {
            if option.isASCIICaseInsensitiveEqual(to: "close") { keepAlive = false }
            if option.isASCIICaseInsensitiveEqual(to: "keep-alive") && !isHTTP11 { keepAlive = true }
        }
        self.keepAlive = keepAlive

        var expectContinue = false
        for expectation in hasExpect ? headers.listElements(for: "Expect") : [] {
            // RFC 9110 §10.1.1: 100-continue is the only defined expectation; others → 417.
            guard expectation.isASCIICaseInsensitiveEqual(to: "100-continue") else { throw .expectationFailed }
            expectContinue = isHTTP11
        }
        self.expectContinue = expectContinue && body != .none
    }

    /// Transfer-Encoding must be exactly `chunked` (RFC 9112 §6.1, §7): any other coding is not
    /// implemented (→ 501); a repeated or empty coding is malformed (→ 400).
    static func transferCoding(_ headers: HTTPHeaders) throws(HTTPParseError) -> Body {
        let codings = headers.listElements(for: "Transfer-Encoding")
        var chunkedCount = 0
        for coding in codings {
            if coding.isEmpty { throw .badRequest("Transfer-Encoding has an empty element.") }
            guard coding.isASCIICaseInsensitiveEqual(to: "chunked") else {
                throw .notImplemented("Transfer coding \(coding) is not supported.")
            }
            chunkedCount += 1
        }
        guard chunkedCount == 1 else { throw .badRequest("chunked must be applied exactly once.") }
        return .chunked
    }

    /// Content-Length = 1*DIGIT (RFC 9110 §8.6); repeated values must all be identical,
    /// anything else is rejected (RFC 9112 §6.3 item 5).
    static func contentLength(_ headers: HTTPHeaders) throws(HTTPParseError) -> Int {
        // What every client sends: one field of 1 to 18 digits, read where it lies. Splitting it
        // as a list (by `Character`) cost ~3,700 instructions a request with a body.
        let (single, repeated) = headers.single("Content-Length")
        if !repeated, let single, let value = digitsValue(single) { return value }
        var result: Int?
        for element in headers.listElements(for: "Content-Length") {
            guard !element.isEmpty, element.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }) else {
                throw .badRequest("Content-Length is malformed.")
            }
            // 18 digits always fit an Int; a longer length is larger than any body we accept.
            guard element.utf8.count <= 18, let value = Int(element) else { throw .bodyTooLarge }
            if let previous = result, previous != value { throw .badRequest("Content-Length values conflict.") }
            result = value
        }
        return result ?? 0
    }

    /// The value of 1 to 18 ASCII digits (no sign, no whitespace); nil for anything else.
    private static func digitsValue(_ text: String) -> Int? {
        func value(_ bytes: some Collection<UInt8>) -> Int? {
            guard !bytes.isEmpty, bytes.count <= 18 else { return nil }
            var result = 0
            for byte in bytes {
                guard byte >= 48, byte <= 57 else { return nil }
                result = result * 10 + Int(byte - 48)
            }
            return result
        }
        return text.utf8.withContiguousStorageIfAvailable { value($0) } ?? value(text.utf8)
    }

    /// Whether a Host value holds a space, a tab or a slash: a scan of its bytes in place (the
    /// UTF-8 view's iterator took as long as the rest of the framing).
    private static func isMalformedHost(_ host: String) -> Bool {
        func malformed(_ byte: UInt8) -> Bool { byte == 32 || byte == 9 || byte == UInt8(ascii: "/") }
        return host.utf8.withContiguousStorageIfAvailable { $0.contains(where: malformed) }
            ?? host.utf8.contains(where: malformed)
    }
}

extension Substring {
    func isASCIICaseInsensitiveEqual(to other: String) -> Bool {
        String(self).isASCIICaseInsensitiveEqual(to: other)
    }
}
