import ArgumentParser
import Flows
import Foundation
import ParleyCore
import ParleyCrypto

extension BundleCommand {
    /// `parley bundle build`: lint every flow, then write a deterministic bundle.
    struct Build: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Lint every flow and write a deterministic bundle; prints its digest.",
            discussion: """
                Flows are the DSL flows compiled into this binary (the Flows target), then the
                designer-authored <flows>/json/*.json files sorted by file name. The output is the
                bundle's canonical JSON bytes, so the same sources always give the same file and digest.
                Any lint problem in any flow refuses the whole bundle.
                """)

        @Option(help: "The flows folder; its json/ subfolder holds designer-authored flows.")
        var flows: String = "Flows"

        @Option(help: "Release channel, e.g. production.")
        var channel: String

        @Option(help: "Source commit recorded in the bundle's source.commit.")
        var commit: String?

        @Option(help: "Where to write the bundle.")
        var out: String

        func validate() throws {
            guard !channel.isEmpty else { throw ValidationError("--channel must not be empty") }
        }

        func run() async throws {
            let sources = try BundleSources.collect(flowsFolder: flows)
            var report: [String] = []
            for source in sources {
                for problem in BundleLinting.problems(in: source.flow) { report.append("\(source.origin): \(problem)") }
            }
            report += Self.duplicateIds(in: sources)
            try Self.refuse(report)
            var sourceObject = JSONObject()
            if let commit { sourceObject["commit"] = .string(commit) }
            let bundle: JSONValue = [
                "schema": .string(SchemaVersion.bundle.description), "channel": .string(channel),
                "source": .object(sourceObject), "flows": .array(sources.map(\.flow)),
            ]
            // Bundle-level checks (e.g. the flow count limit) on the exact document that is written.
            try Self.refuse(BundleLinting.problems(inBundle: bundle).map { "(bundle): \($0)" })
            let bytes = CanonicalJSON.encode(bundle)
            try BundleFiles.write(bytes, to: out)
            print(BundleSignature.label(BundleSignature.digest(ofCanonicalBytes: bytes)))
            FileHandle.standardError.write(Data("wrote \(out): \(sources.count) flow(s), channel \(channel)\n".utf8))
        }

        /// Flow ids used by more than one source, named by origin.
        static func duplicateIds(in sources: [BundleSources]) -> [String] {
            var report: [String] = []
            var seen: [ScalarKey: String] = [:]
            for source in sources {
                guard let id = source.flow["id"]?.stringValue else { continue }
                if let first = seen[ScalarKey(id)] {
                    report.append(
                        "\(source.origin): flow id \"\(id)\" is also used by \(first) [\(LintCode.duplicateFlowId.rawValue)]"
                    )
                } else {
                    seen[ScalarKey(id)] = source.origin
                }
            }
            return report
        }

        /// Throws when there is anything to report.
        static func refuse(_ report: [String]) throws(BundleFailure) {
            guard report.isEmpty else {
                throw .lint(
                    "refusing to build a bundle with \(report.count) problem(s):\n" + report.joined(separator: "\n"))
            }
        }
    }
}
