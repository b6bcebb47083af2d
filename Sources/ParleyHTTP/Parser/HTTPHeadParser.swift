/// Parses a request line and header section from bytes (RFC 9112 §2–§5). It never touches a
/// socket, so tests and the fuzzer feed it byte strings.
struct HTTPHeadParser: Sendable {
    /// The outcome of feeding the bytes received so far.
    enum Result: Hashable {
        /// More bytes are needed; nothing was consumed.
        case incomplete
        /// A complete head that took `consumed` bytes (leading empty lines included).
        case complete(HTTPRequestHead, consumed: Int)
    }

    let limits: HTTPParserLimits

    init(limits: HTTPParserLimits = HTTPParserLimits()) { self.limits = limits }

    /// Parses `bytes` (the unconsumed input) and throws the response status for invalid heads.
    func parse(_ bytes: UnsafeBufferPointer<UInt8>) throws(HTTPParseError) -> Result {
        var scanner = HTTPHeadScanner(limits: limits)
        return try parse(bytes, resuming: &scanner)
    }

    /// Parses `bytes`, which extend the bytes `scanner` saw before: only the new bytes are
    /// scanned, and a head that cannot be valid is refused at its first bad byte. The head is
    /// built once, when it is complete; then `scanner` must start afresh for the next request.
    func parse(_ bytes: UnsafeBufferPointer<UInt8>, resuming scanner: inout HTTPHeadScanner) throws(HTTPParseError)
        -> Result
    {
        var consumed = 0
        guard let head = try parseHead(bytes, resuming: &scanner, consumed: &consumed) else { return .incomplete }
        return .complete(head, consumed: consumed)
    }

    /// ``parse(_:resuming:)`` for the connection: the head, with its length in `consumed`, or
    /// nil while it is incomplete. No ``Result`` on the way: callgrind counted a copy and a
    /// destruction of the head (each string and array counted up and down) when the connection
    /// took it out of one.
    func parseHead(
        _ bytes: UnsafeBufferPointer<UInt8>, resuming scanner: inout HTTPHeadScanner, consumed: inout Int
    ) throws(HTTPParseError) -> HTTPRequestHead? {
        guard let length = try scanner.scan(bytes) else { return nil }
        consumed = length
        return try build(UnsafeBufferPointer(rebasing: bytes[0..<length]), scanned: scanner)
    }

    /// The head in `bytes`, which `scanner` found complete and valid byte by byte: `bytes` ends
    /// with the empty line, and the scanner knows where the request line's parts end. The head
    /// is made once, from its finished parts (filling in a made head copied it).
    private func build(_ bytes: UnsafeBufferPointer<UInt8>, scanned scanner: HTTPHeadScanner) throws(HTTPParseError)
        -> HTTPRequestHead
    {
        let start = scanner.requestLineStart
        let requestLineEnd = scanner.requestLineEnd
        if requestLineEnd - start > limits.maxRequestLineBytes + 1 { throw .uriTooLong }
        // The scanner stopped right after the LF of the empty line that ends the head.
        let headEnd = bytes.count - 1
        if headEnd - requestLineEnd > limits.maxHeaderBytes { throw .headersTooLarge }
        let line = try requestLine(bytes, scanned: scanner)
        let headers = try HTTPHeadParser.parseFields(
            bytes, from: requestLineEnd + 1, end: headEnd, maxCount: limits.maxHeaderCount)
        return HTTPRequestHead(method: line.method, target: line.target, version: line.version, headers: headers)
    }

    /// The request line the scanner validated, cut at the spaces it found (RFC 9112 §3).
    private func requestLine(_ bytes: UnsafeBufferPointer<UInt8>, scanned scanner: HTTPHeadScanner)
        throws(HTTPParseError) -> (method: String, target: String, version: HTTPVersion)
    {
        let methodEnd = scanner.methodEnd
        let targetEnd = scanner.targetEnd
        let methodBytes = UnsafeBufferPointer(rebasing: bytes[scanner.requestLineStart..<methodEnd])
        let method = KnownTokens.method(methodBytes) ?? String(decoding: methodBytes, as: UTF8.self)
        let target = String(decoding: UnsafeBufferPointer(rebasing: bytes[methodEnd + 1..<targetEnd]), as: UTF8.self)
        // The version and its CR are the nine bytes before the LF.
        let version = try parseVersion(UnsafeBufferPointer(rebasing: bytes[targetEnd + 1..<scanner.requestLineEnd - 1]))
        try HTTPHeadParser.checkTarget(target, method: method)
        return (method, target, version)
    }

    /// HTTP-version = "HTTP/" DIGIT "." DIGIT (RFC 9112 §2.3); only major version 1 is served.
    func parseVersion(_ text: UnsafeBufferPointer<UInt8>) throws(HTTPParseError) -> HTTPVersion {
        guard text.count == 8, text[0] == UInt8(ascii: "H"), text[1] == UInt8(ascii: "T"),
            text[2] == UInt8(ascii: "T"), text[3] == UInt8(ascii: "P"), text[4] == UInt8(ascii: "/"),
            text[6] == UInt8(ascii: "."),
            let major = decimalDigit(text[5]), let minor = decimalDigit(text[7])
        else { throw .badRequest("The HTTP version is malformed.") }
        guard major == 1 else { throw .unsupportedVersion }
        // RFC 9110 §6.2: a 1.x request with a higher minor version is handled as the highest we speak.
        return HTTPVersion(major: 1, minor: min(minor, 1))
    }

    private func decimalDigit(_ byte: UInt8) -> Int? {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") ? Int(byte - UInt8(ascii: "0")) : nil
    }

    /// request-target forms (RFC 9112 §3.2): origin-form, absolute-form, asterisk-form for
    /// OPTIONS; authority-form (CONNECT) is not implemented (→ 501).
    static func checkTarget(_ target: String, method: String) throws(HTTPParseError) {
        if method == "CONNECT" { throw .notImplemented("CONNECT is not supported.") }
        if target.utf8.first == UInt8(ascii: "/") { return }
        if target == "*" {
            guard method == "OPTIONS" else { throw .badRequest("The asterisk target is only valid for OPTIONS.") }
            return
        }
        let lower = target.lowercased()
        if lower.hasPrefix("http://") || lower.hasPrefix("https://") { return }
        throw .badRequest("The request target is malformed.")
    }
}
