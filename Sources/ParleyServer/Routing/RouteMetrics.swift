import Synchronization

/// Request counts by status and a latency histogram for one route, behind
/// the route's own lock so routes never contend with each other.
final class RouteMetrics: Sendable {
    private struct State {
        var statuses: [Int: UInt64] = [:]
        var buckets = [UInt64](repeating: 0, count: MetricsRegistry.latencyBuckets.count)
        var count: UInt64 = 0
        var sum: Double = 0
    }

    let route: ServiceRoute
    private let state = Mutex(State())

    init(route: ServiceRoute) { self.route = route }

    func record(status: Int, seconds: Double) {
        state.withLock { state in
            state.statuses[status, default: 0] += 1
            if let index = MetricsRegistry.latencyBuckets.firstIndex(where: { seconds <= $0 }) {
                state.buckets[index] += 1
            }
            state.count += 1
            state.sum += seconds
        }
    }

    /// Lines for ``Metric/httpRequests`` and the ``Metric/httpRequestDuration`` histogram.
    func lines() -> [MetricsRegistry.Sample] {
        let snapshot = state.withLock { $0 }
        let labels = "route=\"\(route.path)\",method=\"\(route.method)\""
        let requests = snapshot.statuses.sorted { $0.key < $1.key }.map {
            Metric.httpRequests.sample($0.value, labels: "\(labels),status=\"\($0.key)\"")
        }
        let histogram = Metric.httpRequestDuration.name
        var durations: [String] = []
        var cumulative: UInt64 = 0
        for (index, bound) in MetricsRegistry.latencyBuckets.enumerated() {
            cumulative += snapshot.buckets[index]
            durations.append("\(histogram)_bucket{\(labels),le=\"\(bound)\"} \(cumulative)")
        }
        durations.append("\(histogram)_bucket{\(labels),le=\"+Inf\"} \(snapshot.count)")
        durations.append("\(histogram)_sum{\(labels)} \(snapshot.sum)")
        durations.append("\(histogram)_count{\(labels)} \(snapshot.count)")
        return requests + [(Metric.httpRequestDuration, durations.joined(separator: "\n"))]
    }
}
