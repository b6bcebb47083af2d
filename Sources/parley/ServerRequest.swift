import ParleyHTTP

/// One `POST` from a command (`publish`, `release`) to a Parley server, on ParleyHTTP's own
/// client rather than URLSession: FoundationNetworking would link libcurl and its ~20 shared
/// libraries into the server's binary too, and their pages count in every server's memory
/// (issue 15, "Memory"). Blocking, which a command-line run can afford.
struct ServerRequest {
    /// The server's base URL as given (`http://host:port`, maybe with a path prefix).
    let base: String
    /// `Authorization: Bearer …`.
    let token: String

    /// A response body larger than this is refused rather than printed half.
    static let maxResponseBytes = 16 << 20

    /// Checks `base` is an absolute http(s) URL, so a typo fails before any work is done.
    init(base: String, token: String) throws(HTTPClientError) {
        _ = try ClientURL(base)
        self.base = base.hasSuffix("/") ? String(base.dropLast()) : base
        self.token = token
    }

    /// Sends `POST base/path` with `headers` and `body` to the first of the host's addresses
    /// that accepts a connection (only a refused connect moves on: once a request was sent it
    /// is never sent twice); the status and the body as text.
    func post(_ path: String, headers: HTTPHeaders = [:], body: [UInt8] = []) throws -> (status: Int, text: String) {
        let url = try ClientURL(base + path)
        var settings = HTTPClientSettings()
        settings.maxResponseBytes = Self.maxResponseBytes
        let client = try HTTPClient(settings: settings)
        var all = headers
        all.add("Authorization", "Bearer \(token)")
        var failure = HTTPClientError.resolution("\(url.host) has no addresses")
        for address in try HostResolver.resolve(url.host) {
            let response: HTTPClientResponse
            do {
                response = try client.send("POST", url, headers: all, body: body, to: address)
            } catch .connect(let detail) {
                failure = .connect(detail)
                continue
            }
            guard !response.truncated else {
                throw HTTPClientError.io("the response is larger than \(Self.maxResponseBytes) bytes")
            }
            return (response.status, String(decoding: response.body, as: UTF8.self))
        }
        throw failure
    }
}
