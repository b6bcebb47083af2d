import ParleyHTTP

/// Counts every response of its route by status, with its latency; outermost, so refusals by
/// authentication and mapped errors are counted too. A fast path that declines (nil) is not
/// counted: the off-loop run that follows is.
struct MetricsMiddleware: ServiceMiddleware {
    let metrics: RouteMetrics

    func respond(
        to request: HTTPRequest, context: ServiceRequestContext, next: Next
    ) async throws -> HTTPResponse {
        let start = MonotonicClock.nanoseconds()
        do {
            let response = try await next(request, context)
            record(response.status.code, since: start)
            return response
        } catch {
            record(500, since: start)
            throw error
        }
    }

    func respondInline(
        to request: HTTPRequest, context: ServiceRequestContext, next: InlineNext
    ) throws -> HTTPResponse? {
        let start = MonotonicClock.nanoseconds()
        do {
            guard let response = try next(request, context) else { return nil }
            record(response.status.code, since: start)
            return response
        } catch {
            record(500, since: start)
            throw error
        }
    }

    private func record(_ status: Int, since start: UInt64) {
        metrics.record(status: status, seconds: Double(MonotonicClock.nanoseconds() &- start) * 1e-9)
    }
}
