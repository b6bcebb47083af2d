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
        return next(request, context).map(with: (metrics, start, context.http.loopIndex)) { response, started in
            started.0.record(
                status: response.status.code, seconds: Double(MonotonicClock.nanoseconds() &- started.1) * 1e-9,
                loop: started.2)
        }
    }
}
