import ParleyHTTP

/// Counts every response of its route by status, with its latency; outermost, so refusals by
/// authentication and mapped errors are counted too. The clock starts on the loop, so a
/// request that goes off the loop counts its wait for a responder thread.
struct MetricsMiddleware: HTTPMiddleware {
    let metrics: RouteMetrics

    func respond(to request: HTTPRequest, context: ServiceRequestContext, next: HTTPNext<ServiceRequestContext>)
        -> HTTPReply
    {
        let start = MonotonicClock.nanoseconds()
        let loop = context.http.loopIndex
        // An answer on the loop is recorded here, through this middleware's own reference: handing
        // `metrics` to `HTTPReply.map` retained it, an object every loop shares, on every request.
        switch next(request, context) {
        case .now(let response):
            metrics.record(status: response.status.code, seconds: Self.seconds(since: start), loop: loop)
            return .now(response)
        case .offLoop(let work):
            let metrics = metrics
            return .offLoop {
                let response = try await work()
                metrics.record(status: response.status.code, seconds: Self.seconds(since: start), loop: loop)
                return response
            }
        }
    }

    /// Its off-loop work only awaits the rest of the chain's, which renders every error.
    var addsNoOffLoopErrors: Bool { true }

    private static func seconds(since start: UInt64) -> Double {
        Double(MonotonicClock.nanoseconds() &- start) * 1e-9
    }
}
