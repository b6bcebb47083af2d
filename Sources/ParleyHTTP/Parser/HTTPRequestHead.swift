/// A parsed request line and header section, before the body is read.
struct HTTPRequestHead: Sendable, Hashable {
    /// The method token, case-sensitive (RFC 9110 §9.1).
    var method: String
    /// The request-target as sent.
    var target: String
    /// The protocol version.
    var version: HTTPVersion
    /// The header fields in order, duplicates kept.
    var headers: HTTPHeaders
}
