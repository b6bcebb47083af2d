import Foundation
import ParleyCore
import Testing

@testable import ParleyServer

/// `/metrics` describes what it records and records what it describes (issue 29): recording
/// takes a ``Metric``, so its HELP and TYPE come with it; these tests hold the other half.
@Suite(.timeLimit(.minutes(10))) struct MetricCatalogueTests {
    /// The service's sources, without the catalogue itself.
    static func serviceSources() throws -> [(file: String, text: String)] {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/ParleyServer")
        let files = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" && $0.lastPathComponent != "Metric.swift" }
        return try (files ?? []).map { ($0.lastPathComponent, try String(contentsOf: $0, encoding: .utf8)) }
    }

    @Test func everyMetricIsRenderedWithItsHelpAndType() {
        let text = MetricsRegistry().render()
        for metric in Metric.allCases {
            #expect(text.contains("# HELP \(metric.name) \(metric.help)\n"), "\(metric.name)")
            #expect(text.contains("# TYPE \(metric.name) \(metric.kind.rawValue)\n"), "\(metric.name)")
        }
    }

    /// A series is recorded by `increment(.name…)`, or sampled by a collector from `Metric.name`.
    @Test func everyDescribedMetricIsRecordedSomewhere() throws {
        let sources = try Self.serviceSources()
        #expect(sources.count > 50, "found the sources")
        // Code only: a commented-out recording records nothing.
        let recordings = sources.map(\.text).joined(separator: "\n")
            .replacingOccurrences(of: #"//[^\n]*"#, with: "", options: .regularExpression)
        for metric in Metric.allCases {
            let name = String(describing: metric)
            let pattern = #"increment\(\s*\.\#(name)\b|Metric\.\#(name)\b"#
            let recorded = recordings.range(of: pattern, options: .regularExpression) != nil
            #expect(recorded, "\(metric.name) is described but nothing records it")
        }
    }

    /// No series name is written out anywhere but the catalogue, so nothing is recorded around it.
    @Test func noSeriesIsNamedOutsideTheCatalogue() throws {
        for (file, text) in try Self.serviceSources() {
            for metric in Metric.allCases {
                #expect(!text.contains("\"\(metric.name)"), "\(file) names \(metric.name) as a string")
            }
        }
    }

    @Test func screenCacheLookupsAreCountedByResult() {
        let registry = MetricsRegistry()
        let cache = ScreenCache(limit: 2)
        registry.addCollector { cache.lookupLines() }
        let key = ScreenCache.Key(
            flow: ScalarKey("f"), version: 1, step: ScalarKey("s"), fingerprint: "1.0", locale: nil)
        _ = cache.entry(key)
        cache.store(
            ScreenCache.Entry(body: [], etag: "\"e\"", served: "step", substitutions: [], headers: [:]), for: key)
        _ = cache.entry(key)
        _ = cache.entry(key)
        let text = registry.render()
        #expect(text.contains(#"parley_screen_cache_total{result="hit"} 2"#), "\(text)")
        #expect(text.contains(#"parley_screen_cache_total{result="miss"} 1"#), "\(text)")
    }
}
