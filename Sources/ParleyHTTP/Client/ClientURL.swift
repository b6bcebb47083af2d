/// An absolute `http` or `https` URL split into what a client needs: scheme, host, port and the
/// request target. Deliberately strict: no user info, no fragment-only tricks, no control bytes.
public struct ClientURL: Sendable, Hashable, CustomStringConvertible {
    /// `http` or `https`, lowercased.
    public let scheme: String
    /// The host name or numeric address, without IPv6 brackets, lowercased.
    public let host: String
    /// The port, explicit or the scheme's default.
    public let port: Int
    /// The origin-form request target (`/path?query`), `/` when the URL has no path.
    public let target: String
    /// The URL as given.
    public let description: String

    /// Whether the scheme is `https`.
    public var isSecure: Bool { scheme == "https" }

    /// The `Host` header value.
    public var hostHeader: String {
        let name = host.contains(":") ? "[\(host)]" : host
        return port == (isSecure ? 443 : 80) ? name : "\(name):\(port)"
    }

    /// Parses `text`; throws a sentence saying what is wrong.
    public init(_ text: String) throws(HTTPClientError) {
        guard !text.isEmpty, text.utf8.count <= 2000,
            text.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F })
        else { throw .invalidURL("the URL must be 1 to 2000 printable ASCII characters without spaces") }
        guard let colon = text.firstIndex(of: ":") else { throw .invalidURL("the URL has no scheme") }
        let scheme = text[..<colon].lowercased()
        guard scheme == "http" || scheme == "https" else {
            throw .invalidURL("the scheme must be https (or http), not \"\(scheme)\"")
        }
        let rest = text[text.index(after: colon)...]
        guard rest.hasPrefix("//") else { throw .invalidURL("the URL must be absolute (scheme://host/…)") }
        let afterSlashes = rest.dropFirst(2)
        let authorityEnd = afterSlashes.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? afterSlashes.endIndex
        let authority = afterSlashes[..<authorityEnd]
        guard !authority.contains("@") else { throw .invalidURL("the URL must not carry user information") }
        var target = String(afterSlashes[authorityEnd...].prefix { $0 != "#" })
        if target.isEmpty || target.hasPrefix("?") { target = "/" + target }
        let (host, portText) = try Self.split(authority)
        let port: Int
        if let portText {
            guard let value = Int(portText), (1...65535).contains(value), portText.allSatisfy(\.isASCII) else {
                throw .invalidURL("the port must be a number from 1 to 65535")
            }
            port = value
        } else {
            port = scheme == "https" ? 443 : 80
        }
        guard !host.isEmpty else { throw .invalidURL("the URL has no host") }
        self.scheme = scheme
        self.host = host.lowercased()
        self.port = port
        self.target = target
        self.description = text
    }

    /// `host[:port]` or `[v6][:port]`.
    private static func split(_ authority: Substring) throws(HTTPClientError) -> (String, Substring?) {
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { throw .invalidURL("unclosed [ in the host") }
            let host = String(authority[authority.index(after: authority.startIndex)..<close])
            guard IPAddress(host) != nil, !host.contains(".") || host.contains(":") else {
                throw .invalidURL("the bracketed host is not an IPv6 address")
            }
            let after = authority[authority.index(after: close)...]
            if after.isEmpty { return (host, nil) }
            guard after.hasPrefix(":") else { throw .invalidURL("unexpected text after the IPv6 address") }
            return (host, after.dropFirst())
        }
        if let colon = authority.lastIndex(of: ":") {
            return (String(authority[..<colon]), authority[authority.index(after: colon)...])
        }
        return (String(authority), nil)
    }
}
