public import ParleyCore

/// Where and as whom a ``ParleySession`` talks: the transport, the client
/// core's version (sent as `Parley-Core`), extra headers and the retry policy.
public struct ParleyEndpoint: Sendable {
    /// How requests travel.
    public let transport: any ParleyTransport
    /// The client core's version, e.g. `1.2.0`.
    public let core: String
    /// Sent with every request (e.g. `Parley-Client-Key`).
    public let headers: [String: String]
    /// Retries of transient failures.
    public let retry: RetryPolicy

    /// An endpoint; `core` defaults to the newest core this ParleyCore implements.
    public init(
        transport: any ParleyTransport, core: String = CoreVersion.newest.description,
        headers: [String: String] = [:], retry: RetryPolicy = RetryPolicy()
    ) {
        self.transport = transport
        self.core = core
        self.headers = headers
        self.retry = retry
    }

    /// Sends `request`, retrying connection errors, 502/503/504 and `idempotency-in-flight`
    /// 409s with backoff (the request, and so its `Idempotency-Key`, unchanged). Cancellation
    /// stops the wait at once.
    func exchange(_ request: ParleyRequest) async throws -> ParleyResponse {
        var request = request
        request.headers["Parley-Core"] = core
        for (name, value) in headers { request.headers[name] = value }
        var retry = 0
        while true {
            try Task.checkCancellation()
            var lastFailure = ""
            do {
                let response = try await transport.send(request)
                guard Self.isTransient(response) else { return response }
                lastFailure = "status \(response.status)"
            } catch let error as CancellationError {
                throw error
            } catch {
                lastFailure = "no exchange"
            }
            retry += 1
            if retry >= self.retry.attempts {
                throw ParleyClientError(.exhausted, "gave up after \(retry) attempts (\(lastFailure))")
            }
            try await Task.sleep(for: self.retry.delay(beforeRetry: retry))
        }
    }

    static func isTransient(_ response: ParleyResponse) -> Bool {
        switch response.status {
        case 502, 503, 504: return true
        case 409: return ProblemDocument(response)?.type == "urn:parley:problem:idempotency-in-flight"
        default: return false
        }
    }
}

/// The members of a problem document the client reads.
struct ProblemDocument {
    let type: String
    let detail: String
    let json: JSONValue

    init?(_ response: ParleyResponse) {
        guard response.headers["content-type"]?.hasPrefix("application/problem+json") == true,
            let json = try? JSONParser.parse(response.body), let type = json["type"]?.stringValue
        else { return nil }
        self.type = type
        detail = json["detail"]?.stringValue ?? ""
        self.json = json
    }
}
