import Synchronization

/// Request counts by status and a latency histogram for one route, behind
/// the route's own lock so routes never contend with each other.
final class RouteMetrics: Sendable {
    private struct State {
        /// Counts by status, in order of first use: a route answers with a handful of statuses,
        /// so a scan finds one sooner than a dictionary hashes its key.
        var statuses: [(status: Int, count: UInt64)] = []
        var buckets = [UInt64](repeating: 0, count: MetricsRegistry.latencyBuckets.count)
        var count: UInt64 = 0
        var sum: Double = 0
    }

    let route: ServiceRoute
    private let state = Mutex(State())

    init(route: ServiceRoute) { self.route = route }

    func record(status: Int, seconds: Double) {
        state.withLock { state in
            if let index = state.statuses.firstIndex(where: { $0.status == status }) {
                state.statuses[index].count += 1
            } else {
                state.statuses.append((status, 1))
            }
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
        let requests = snapshot.statuses.sorted { $0.status < $1.status }.map {
            Metric.httpRequests.sample($0.count, labels: "\(labels),status=\"\($0.status)\"")
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
