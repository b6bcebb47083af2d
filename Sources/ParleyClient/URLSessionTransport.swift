public import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The default transport: Foundation's `URLSession` (FoundationNetworking on Linux).
public struct URLSessionTransport: ParleyTransport {
    /// The service's base URL, e.g. `https://parley.example.com`.
    public let baseURL: URL
    /// Longest a request may take before it counts as a (transient) failure.
    public let timeout: TimeInterval
    /// Longest a followed stream may stay silent before it counts as dead and is reopened: the
    /// server sends a heartbeat every 15 s (docs/live-sessions.md), so three are missing.
    public let streamIdleTimeout: TimeInterval
    let session: URLSession

    /// A transport to `baseURL` on its own ephemeral `URLSession` (no cookies or cache: snapshots are private).
    public init(baseURL: URL, timeout: TimeInterval = 30, streamIdleTimeout: TimeInterval = 45) {
        self.baseURL = baseURL
        self.timeout = timeout
        self.streamIdleTimeout = streamIdleTimeout
        session = URLSession(configuration: .ephemeral)
    }

    /// Sends the request; any HTTP status is returned, only failures to exchange throw.
    public func send(_ request: ParleyRequest) async throws -> ParleyResponse {
        let (data, response) = try await session.data(for: try urlRequest(request, timeout: timeout))
        let (status, headers) = try Self.head(response)
        return ParleyResponse(status: status, headers: headers, body: [UInt8](data))
    }

    /// The Foundation request for `request`, below ``baseURL``.
    func urlRequest(_ request: ParleyRequest, timeout: TimeInterval) throws -> URLRequest {
        guard let url = URL(string: baseURL.absoluteString.trimmingSuffix("/") + request.path) else {
            throw ParleyClientError.invalidRequest("cannot form a URL from \(request.path)")
        }
        var urlRequest = URLRequest(url: url, timeoutInterval: timeout)
        urlRequest.httpMethod = request.method
        for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
        urlRequest.httpBody = request.body.map { Data($0) }
        return urlRequest
    }

    /// Status and lowercased headers of an HTTP response.
    static func head(_ response: URLResponse) throws -> (status: Int, headers: [String: String]) {
        guard let http = response as? HTTPURLResponse else {
            throw ParleyClientError.invalidResponse("not an HTTP response")
        }
        var headers: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String { headers[name.lowercased()] = value }
        }
        return (http.statusCode, headers)
    }
}

extension String {
    fileprivate func trimmingSuffix(_ suffix: String) -> String {
        hasSuffix(suffix) ? String(dropLast(suffix.count)) : self
    }
}
