/// Request counts by status and a latency histogram for one route, kept per event loop
/// (``LoopShards``): routes never contend with each other, and one route's requests on two
/// loops never write the same cache line.
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
    private let state = LoopShards { State() }

    init(route: ServiceRoute) { self.route = route }

    /// Counts one response of loop `loop` (the request context's `loopIndex`).
    func record(status: Int, seconds: Double, loop: Int) {
        state.withLock(loop: loop) { state in
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
        let snapshot = merged()
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

    /// Every loop's counts added up.
    private func merged() -> State {
        var total = State()
        for part in state.snapshots() {
            for (status, count) in part.statuses {
                if let index = total.statuses.firstIndex(where: { $0.status == status }) {
                    total.statuses[index].count += count
                } else {
                    total.statuses.append((status, count))
                }
            }
            for index in total.buckets.indices { total.buckets[index] += part.buckets[index] }
            total.count += part.count
            total.sum += part.sum
        }
        return total
    }
}
