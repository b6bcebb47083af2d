import Glibc
import ParleyHTTP

/// Counts every response of its route by status, with its latency; outermost, so refusals by
/// authentication and mapped errors are counted too. A fast path that declines (nil) is not
/// counted: the off-loop run that follows is.
struct MetricsMiddleware: ServiceMiddleware {
    let metrics: RouteMetrics

    func respond(
        to request: HTTPRequest, context: ServiceRequestContext, next: Next
    ) async throws -> HTTPResponse {
        let start = Self.monotonicNanoseconds()
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
        let start = Self.monotonicNanoseconds()
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
        metrics.record(status: status, seconds: Double(Self.monotonicNanoseconds() &- start) * 1e-9)
    }

    /// CLOCK_MONOTONIC in nanoseconds: one vDSO call, where `ContinuousClock` and splitting its
    /// `Duration` into components cost several times that on every request.
    private static func monotonicNanoseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) &* 1_000_000_000 &+ UInt64(now.tv_nsec)
    }
}
