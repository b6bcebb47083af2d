import Flows
import ParleyCore
import Testing

/// Every flow in `Flows/`: round trip, identity rules, references, and
/// servability for cores 1.0–2.0 (DESIGN.md "Capabilities and version gating").
@Suite(.timeLimit(.minutes(10))) struct ShippedFlowsTests {
    static let flows = ShippedFlows.all
    static let ids = flows.map(\.id)

    static func flow(_ id: String) -> Flow { flows.first { $0.id == id }! }

    @Test func thereAreAtLeastThreeFlowsWithDistinctIds() {
        #expect(Self.flows.count >= 3)
        #expect(Set(Self.flows.map(\.id)).count == Self.flows.count)
    }

    /// Every shipped flow is lint-clean (the same linter as `parley lint` and publishing).
    @Test(arguments: ids)
    func lintClean(_ id: String) {
        let problems = FlowLinter().lint(flow: Self.flow(id).json)
        #expect(problems.isEmpty, "\(id): \(problems.map(\.description).joined(separator: "\n"))")
    }

    /// A bundle of every shipped flow is lint-clean too.
    @Test func bundleLintClean() {
        let bundle = ParleyCore.Bundle(channel: "production", flows: Self.flows)
        #expect(FlowLinter().lint(bundle: bundle.json).isEmpty)
    }

    /// Building the DSL twice gives the same bytes (bundles must be deterministic).
    @Test func buildingIsDeterministic() {
        #expect(ShippedFlows.all.map(\.canonicalBytes) == Self.flows.map(\.canonicalBytes))
    }

    /// DSL → JSON → decode → equal.
    @Test(arguments: ids)
    func roundTrips(_ id: String) throws {
        let flow = Self.flow(id)
        #expect(try Flow.decode(flow.canonicalBytes) == flow)
        #expect(try Flow.decode(flow.canonicalBytes).canonicalBytes == flow.canonicalBytes)
    }

    /// Node ids unique per screen (fallbacks included); fieldIds unique per
    /// flow (a node and its fallbacks count once); fallbacks keep the fieldId.
    @Test(arguments: ids)
    func identityRules(_ id: String) {
        let flow = Self.flow(id)
        var fieldIds: [String] = []
        for screen in flow.steps.map(\.screen) + [flow.upgrade].compactMap({ $0 }) {
            var ids: [String] = []
            func visit(_ node: Node) {
                ids.append(node.id)
                node.children.forEach(visit)
                if let fallback = node.fallback {
                    #expect(fallback.fieldId == node.fieldId, "\(flow.id)/\(node.id): fallback changes the fieldId")
                    visit(fallback)
                }
            }
            visit(screen.root)
            #expect(Set(ids).count == ids.count, "\(flow.id)/\(screen.id) has duplicate node ids: \(ids)")
            fieldIds += screen.inputs.compactMap(\.fieldId)
        }
        #expect(Set(fieldIds).count == fieldIds.count, "\(flow.id) has duplicate fieldIds: \(fieldIds)")
    }

    /// `start` and every `goto` name a step; predicates, `equalsField`,
    /// `requiredIf` and network `include` name fields of the flow.
    @Test(arguments: ids)
    func referencesResolve(_ id: String) {
        let flow = Self.flow(id)
        let stepIds = flow.steps.map(\.id)
        #expect(Set(stepIds).count == stepIds.count)
        #expect(stepIds.contains(flow.start))
        let fields = Set(flow.steps.flatMap { $0.screen.inputs.compactMap(\.fieldId) })
        for step in flow.steps {
            for transition in step.next {
                #expect(stepIds.contains(transition.goto), "\(flow.id)/\(step.id) goes to a missing step")
                let read = Set(transition.when?.fields ?? [])
                #expect(read.isSubset(of: fields))
            }
            for node in step.screen.nodes {
                for rule in node.validation {
                    switch rule.check {
                    case .equalsField(let field): #expect(fields.contains(field))
                    case .requiredIf(let predicate): #expect(Set(predicate.fields).isSubset(of: fields))
                    default: break
                    }
                }
                if case .network(let request) = node.action?.kind {
                    #expect(Set(request.include).isSubset(of: fields))
                }
            }
        }
        #expect(flow.upgrade != nil, "\(flow.id) needs an upgrade screen")
    }

    /// The servability matrix (ParleyCore's gate, every core from 1.0 to 2.1):
    /// every step of every flow is served natively or via fallbacks, never the
    /// upgrade screen, and the upgrade screens themselves render on 1.0.
    @Test(arguments: ids)
    func servableFromCore1(_ id: String) {
        let matrix = Servability().analyze(Self.flow(id))
        #expect(matrix.cores.map(\.description).first == "1.0.0")
        #expect(matrix.cores.map(\.description).last == "2.1.0")
        #expect(matrix.problems.isEmpty, "\(matrix.problems)")
        for (step, row) in zip(matrix.steps, matrix.rows) {
            #expect(
                row.allSatisfy { $0 == .native || $0 == .viaFallbacks },
                "\(id)/\(step) needs an upgrade:\n\(matrix.text)")
        }
    }

    /// On 1.0 cores the 1.1/1.2 components really are replaced by their fallbacks.
    @Test func oldCoresGetFallbacks() {
        #expect(Servability().analyze(ShippedFlows.chatSupport).status(step: "topic", core: .floor) == .viaFallbacks)
        #expect(
            Servability().analyze(ShippedFlows.passportIntake).status(step: "document", core: .floor) == .viaFallbacks)
    }
}
