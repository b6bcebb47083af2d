import ArgumentParser
import Flows
import ParleyCore

extension BundleCommand {
    /// `parley bundle show`: print the JSON of the DSL flows compiled into this binary.
    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print a compiled DSL flow's JSON (or list the flow ids), to preview or pipe into parley render.")

        @Argument(help: "The flow id; omit to list every compiled flow id.")
        var flow: String?

        func run() async throws {
            guard let flow else {
                for shipped in ShippedFlows.all { print(shipped.id) }
                return
            }
            guard let found = ShippedFlows.all.first(where: { $0.id.isScalarEqual(to: flow) }) else {
                throw BundleFailure.input(
                    "no compiled flow \"\(flow)\"; known: \(ShippedFlows.all.map(\.id).joined(separator: ", "))")
            }
            print(found.canonicalString)
        }
    }
}
