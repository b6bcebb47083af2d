import Synchronization

/// Counters and histograms rendered in the Prometheus text exposition format
/// (`GET /metrics`, DESIGN.md "HTTP API").
///
/// One lock guards all series; recording is a dictionary update, cheap next to
/// any request. Label values are escaped per the exposition format.
public final class MetricsRegistry: Sendable {
    /// Upper bounds (seconds) of the request-latency histogram buckets.
    public static let latencyBuckets: [Double] = [
        0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5,
    ]

    private struct SeriesKey: Hashable {
        let name: String
        let labels: [String]
    }

    private struct Histogram {
        var buckets: [UInt64]
        var count: UInt64 = 0
        var sum: Double = 0
    }

    private struct State {
        var counters: [SeriesKey: UInt64] = [:]
        var histograms: [SeriesKey: Histogram] = [:]
        var help: [String: (type: String, text: String)] = [:]
    }

    private let state = Mutex(State())
    private let collectors = Mutex<[@Sendable () -> [(family: String, line: String)]]>([])

    /// Creates an empty registry with Parley's metric descriptions.
    public init() {
        describe("parley_http_requests_total", type: "counter", "HTTP requests by route, method and status.")
        describe(
            "parley_http_request_duration_seconds", type: "histogram", "HTTP request latency by route, in seconds.")
        describe(
            "parley_gating_substitutions_total", type: "counter",
            "Nodes substituted, dropped or escalated while gating, by core version, component type and outcome.")
        describe(
            "parley_submit_rejections_total", type: "counter",
            "Answers the server rejected, by rule and client core version. A core whose users keep "
                + "getting rejections its own core should have caught is drifting.")
        describe("parley_screen_cache_total", type: "counter", "Gated-screen cache lookups by result (hit or miss).")
        describe(
            "parley_sessions_started_total", type: "counter", "Sessions started, by flow and pinned version.")
        describe(
            "parley_session_steps_total", type: "counter",
            "Steps answered in sessions by flow, version, step and outcome (valid, invalid): with the sessions "
                + "started and completed, the funnel that shows where users drop off.")
        describe(
            "parley_session_completions_total", type: "counter", "Sessions completed, by flow and pinned version.")
        describe(
            "parley_session_expirations_total", type: "counter",
            "Sessions expired after their idle TTL, by flow and pinned version (counted by the sweeping process).")
    }

    /// Adds a source of series kept elsewhere (e.g. per-route counters); its lines are
    /// grouped under their family when rendering.
    public func addCollector(_ collector: @escaping @Sendable () -> [(family: String, line: String)]) {
        collectors.withLock { $0.append(collector) }
    }

    /// Registers HELP and TYPE lines for a metric family.
    public func describe(_ name: String, type: String, _ text: String) {
        state.withLock { $0.help[name] = (type, text) }
    }

    /// Adds `amount` to a counter series.
    public func increment(_ name: String, labels: [(String, String)] = [], by amount: UInt64 = 1) {
        let key = SeriesKey(name: name, labels: Self.flatten(labels))
        state.withLock { $0.counters[key, default: 0] += amount }
    }

    /// Records one observation in a histogram series.
    public func observe(_ name: String, labels: [(String, String)] = [], seconds: Double) {
        let key = SeriesKey(name: name, labels: Self.flatten(labels))
        state.withLock { state in
            var histogram =
                state.histograms[key] ?? Histogram(buckets: Array(repeating: 0, count: Self.latencyBuckets.count))
            for (index, bound) in Self.latencyBuckets.enumerated() where seconds <= bound {
                histogram.buckets[index] += 1
            }
            histogram.count += 1
            histogram.sum += seconds
            state.histograms[key] = histogram
        }
    }

    /// The value of a counter series (0 when never incremented); for tests and readiness.
    public func counter(_ name: String, labels: [(String, String)] = []) -> UInt64 {
        let key = SeriesKey(name: name, labels: Self.flatten(labels))
        return state.withLock { $0.counters[key] ?? 0 }
    }

    /// Every series in the Prometheus text format, families and series sorted for stable output.
    public func render() -> String {
        let snapshot = state.withLock { ($0.counters, $0.histograms, $0.help) }
        var families: [String: [String]] = [:]
        for collector in collectors.withLock({ $0 }) {
            for (family, line) in collector() { families[family, default: []].append(line) }
        }
        for (key, value) in snapshot.0 {
            families[key.name, default: []].append("\(key.name)\(Self.labelText(key.labels)) \(value)")
        }
        for (key, histogram) in snapshot.1 {
            var lines: [String] = []
            for (index, bound) in Self.latencyBuckets.enumerated() {
                let labels = key.labels + ["le", Self.format(bound)]
                lines.append("\(key.name)_bucket\(Self.labelText(labels)) \(histogram.buckets[index])")
            }
            lines.append("\(key.name)_bucket\(Self.labelText(key.labels + ["le", "+Inf"])) \(histogram.count)")
            lines.append("\(key.name)_sum\(Self.labelText(key.labels)) \(histogram.sum)")
            lines.append("\(key.name)_count\(Self.labelText(key.labels)) \(histogram.count)")
            families[key.name, default: []].append(lines.joined(separator: "\n"))
        }
        var output = ""
        for name in Set(families.keys).union(snapshot.2.keys).sorted() {
            if let help = snapshot.2[name] {
                output += "# HELP \(name) \(help.text)\n# TYPE \(name) \(help.type)\n"
            }
            for line in (families[name] ?? []).sorted() { output += line + "\n" }
        }
        return output
    }

    private static func flatten(_ labels: [(String, String)]) -> [String] {
        labels.flatMap { [$0.0, $0.1] }
    }

    private static func labelText(_ flat: [String]) -> String {
        guard !flat.isEmpty else { return "" }
        var parts: [String] = []
        var index = 0
        while index + 1 < flat.count {
            parts.append("\(flat[index])=\"\(escape(flat[index + 1]))\"")
            index += 2
        }
        return "{" + parts.joined(separator: ",") + "}"
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

    private static func format(_ bound: Double) -> String {
        bound == bound.rounded() ? String(Int(bound)) : String(bound)
    }
}
