/// The limits the parser enforces on every request; the server fills them from
/// `HTTPServerConfiguration`, where each is documented with its default.
struct HTTPParserLimits: Sendable, Hashable {
    /// Longest request line, CRLF excluded (→ 414).
    var maxRequestLineBytes: Int = 8192
    /// Largest header section after the request line, CRLFs included (→ 431).
    var maxHeaderBytes: Int = 16384
    /// Most header field lines (→ 431).
    var maxHeaderCount: Int = 100
    /// Longest chunk-size line, extensions included (→ 400).
    var maxChunkLineBytes: Int = 4096
}
