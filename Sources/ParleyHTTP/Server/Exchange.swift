/// One request in progress on a connection: the request as far as read, and how it ends.
///
/// A class: the state machine keeps it while the I/O side answers it, and a struct handed out
/// as a copy retained and released every string and array of the request and the route (some
/// forty reference counts per request). Its variables skip the dynamic exclusivity check, as
/// `Connection.machine` does: only the connection's loop thread touches an exchange, and no
/// access to one reaches back into it.
final class Exchange {
    @exclusivity(unchecked) var request: HTTPRequest
    /// The route matched from the head, kept so nothing matches the request again.
    let route: HTTPRoute
    /// Whether the connection may serve another request after this one.
    @exclusivity(unchecked) var keepAlive: Bool
    /// An HTTP/1.0 client asked for keep-alive, so the response must confirm it.
    let announceKeepAlive: Bool
    /// Content-Length bytes still to read.
    @exclusivity(unchecked) var remaining: Int
    /// Set for chunked bodies.
    @exclusivity(unchecked) var decoder: ChunkedDecoder?
    /// Monotonic time the head was complete, for the access log.
    let startedAt: UInt64

    init(request: HTTPRequest, route: HTTPRoute, keepAlive: Bool, announceKeepAlive: Bool, startedAt: UInt64) {
        self.request = request
        self.route = route
        self.keepAlive = keepAlive
        self.announceKeepAlive = announceKeepAlive
        remaining = 0
        decoder = nil
        self.startedAt = startedAt
    }

    /// Whether the whole body has arrived.
    var bodyComplete: Bool { decoder.map(\.isComplete) ?? (remaining == 0) }
}
