/// An HTTP/1.1 client on our own sockets, for webhook deliveries: one request per connection,
/// to an address the caller already resolved and checked (so a policy decision can never be
/// undone by a second DNS lookup), with https verified against the URL's host name. Redirects are
/// returned, never followed. Every call blocks its thread: run it off the event loops.
public struct HTTPClient: Sendable {
    /// Timeouts and caps.
    public let settings: HTTPClientSettings
    private let tls: ClientTLSContext

    /// A client; throws when the trusted certificates cannot be loaded.
    public init(settings: HTTPClientSettings = HTTPClientSettings()) throws(HTTPClientError) {
        self.settings = settings
        tls = try ClientTLSContext(trustedCertificatesFile: settings.trustedCertificatesFile)
    }

    /// Sends `method url` with `headers` and `body` to `address` (one of the URL host's resolved
    /// addresses) and reads the response. `Host`, `Content-Length` and `Connection: close` are added.
    public func send(
        _ method: String, _ url: ClientURL, headers: HTTPHeaders = [:], body: [UInt8] = [], to address: IPAddress
    ) throws(HTTPClientError) -> HTTPClientResponse {
        let socket = try ClientSocket(address: address, port: url.port, timeout: settings.connectTimeout)
        let stream = try ClientStream(
            socket: socket, tls: url.isSecure ? tls : nil, host: url.host, timeout: settings.ioTimeout)
        var head = "\(method) \(url.target) HTTP/1.1\r\nHost: \(url.hostHeader)\r\n"
        for field in headers where !Self.framing.contains(field.name.lowercased()) {
            guard Self.isSafe(field.name), Self.isSafe(field.value) else {
                throw .io("refusing to send a header field with control characters")
            }
            head += "\(field.name): \(field.value)\r\n"
        }
        head += "Content-Length: \(body.count)\r\nConnection: close\r\n\r\n"
        try stream.write(Array(head.utf8) + body)
        var reader = ResponseReader(stream: stream, settings: settings)
        return try reader.read(method: method)
    }

    private static let framing: Set<String> = ["host", "content-length", "connection", "transfer-encoding"]

    private static func isSafe(_ text: String) -> Bool {
        !text.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }
    }
}
