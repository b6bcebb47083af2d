import Synchronization

/// Counters and histograms rendered in the Prometheus text exposition format
/// (`GET /metrics`, DESIGN.md "HTTP API").
///
/// One lock guards the counters; recording is a dictionary update, cheap next to any request.
/// Label values are escaped per the exposition format. What is recorded is a ``Metric``, so its
/// HELP and TYPE always come with it.
public final class MetricsRegistry: Sendable {
    /// Upper bounds (seconds) of the request-latency histogram buckets.
    public static let latencyBuckets: [Double] = [
        0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5,
    ]

    /// One line of a family kept outside the registry.
    typealias Sample = (family: Metric, line: String)

    private struct SeriesKey: Hashable {
        let metric: Metric
        /// Names and values, as the caller passed them: looked up as is (the caller's array,
        /// often on its stack), copied only when a new series is stored. Flattening them into a
        /// `[String]` first cost every counted answer a heap array (~1k instructions).
        let labels: [(String, String)]

        /// Hashes the metric and the label values' bytes, not the names: a metric's names are
        /// the same at every call, and hashing all of them cost more than the lookup (every
        /// answer counts its step by four labels). Equal keys still compare every label.
        func hash(into hasher: inout Hasher) {
            hasher.combine(metric)
            hasher.combine(labels.count)
            for (_, value) in labels {
                var value = value  // native strings are contiguous already: no copy
                value.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
                hasher.combine(UInt8(0xFF))  // never in UTF-8: ends each value
            }
        }

        static func == (lhs: SeriesKey, rhs: SeriesKey) -> Bool {
            guard lhs.metric == rhs.metric, lhs.labels.count == rhs.labels.count else { return false }
            for (left, right) in zip(lhs.labels, rhs.labels) where left != right { return false }
            return true
        }
    }

    /// A counter series' value, held by reference: ``counter(incrementing:labels:by:)`` hands it to
    /// a caller that counts the same series on every request (an answer's step), which then adds
    /// to it without building labels, hashing them or taking the registry's lock.
    final class Counter: Sendable {
        private let value = Atomic<UInt64>(0)

        fileprivate init() {}

        /// Adds `amount`.
        func add(_ amount: UInt64 = 1) { value.wrappingAdd(amount, ordering: .relaxed) }

        /// The current value.
        var total: UInt64 { value.load(ordering: .relaxed) }
    }

    /// Every counter series recorded so far; a series is in the table only once it has been
    /// counted (possibly by 0), so every entry is rendered.
    private let counters = Mutex<[SeriesKey: Counter]>([:])
    private let collectors = Mutex<[@Sendable () -> [Sample]]>([])

    /// An empty registry; every ``Metric`` is described when rendered.
    public init() {}

    /// Adds a source of series kept elsewhere (per-route counters, gauges); its lines are
    /// grouped under their family when rendering.
    func addCollector(_ collector: @escaping @Sendable () -> [Sample]) {
        collectors.withLock { $0.append(collector) }
    }

    /// Adds `amount` to a counter series.
    func increment(_ metric: Metric, labels: [(String, String)] = [], by amount: UInt64 = 1) {
        counter(incrementing: metric, labels: labels, by: amount)
    }

    /// Adds `amount` to a counter series and returns the series' counter, for a caller that keeps
    /// it to count the same series again (``Counter/add(_:)``).
    @discardableResult
    func counter(incrementing metric: Metric, labels: [(String, String)], by amount: UInt64 = 1) -> Counter {
        let key = SeriesKey(metric: metric, labels: labels)
        // Added under the lock, so a series never shows before its first count.
        return counters.withLock { counters in
            let counter: Counter
            if let known = counters[key] {
                counter = known
            } else {
                counter = Counter()
                counters[key] = counter
            }
            counter.add(amount)
            return counter
        }
    }

    /// The value of a counter series (0 when never incremented); for tests.
    func counter(_ metric: Metric, labels: [(String, String)] = []) -> UInt64 {
        let key = SeriesKey(metric: metric, labels: labels)
        return counters.withLock { $0[key]?.total ?? 0 }
    }

    /// Every family with its HELP and TYPE, families and series sorted for stable output.
    public func render() -> String {
        var families: [Metric: [String]] = [:]
        for collector in collectors.withLock({ $0 }) {
            for (family, line) in collector() { families[family, default: []].append(line) }
        }
        for (key, counter) in counters.withLock({ $0 }) {
            families[key.metric, default: []].append(
                "\(key.metric.name)\(Self.labelText(key.labels)) \(counter.total)")
        }
        var output = ""
        for metric in Metric.allCases.sorted(by: { $0.name < $1.name }) {
            output += "# HELP \(metric.name) \(metric.help)\n# TYPE \(metric.name) \(metric.kind.rawValue)\n"
            for line in (families[metric] ?? []).sorted() { output += line + "\n" }
        }
        return output
    }

    private static func labelText(_ labels: [(String, String)]) -> String {
        guard !labels.isEmpty else { return "" }
        return "{" + labels.map { "\($0.0)=\"\(escape($0.1))\"" }.joined(separator: ",") + "}"
    }

    /// Label values escape backslash, double quote and newline (exposition format).
    private static func escape(_ value: String) -> String {
        var result = ""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\\": result += "\\\\"
            case "\"": result += "\\\""
            case "\n": result += "\\n"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
