import ParleyCore
import Testing

/// Random screens × random core versions (fixed seed): the gated screen holds
/// only what the core supports, keeps every input, and gating is idempotent.
@Suite(.timeLimit(.minutes(10))) struct GatingPropertyTests {
    /// SplitMix64: a tiny deterministic generator, so a failure reproduces.
    struct Random {
        var state: UInt64

        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }

        mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
        mutating func chance(_ percent: Int) -> Bool { below(100) < percent }
        mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }
    }

    static let versions = [
        "0.9.0", "1.0.0", "1.0.3", "1.1.0-beta.1", "1.1.0", "1.2.0-rc.2", "1.2.0", "1.2.9+build.1", "2.0.0-alpha",
        "2.0.0",
        "3.0.0",
    ]

    @Test func gatedScreensHoldOnlySupportedThingsKeepInputsAndAreIdempotent() throws {
        var random = Random(state: 0x5EED_6A7E)
        var upgrades = 0
        var substitutions = 0
        for iteration in 0..<400 {
            var generator = ScreenGenerator(random: random)
            let screen = generator.screen()
            random = generator.random
            let core = try CoreVersion(parsing: random.pick(Self.versions))
            let capabilities =
                random.chance(20)
                ? CapabilitySet.custom(
                    core: core, removing: [random.pick(CapabilityRegistry.entries).capability])
                : CapabilitySet(core: core)
            let gate = Gate(capabilities: capabilities)
            let gated = gate.gate(screen)
            let label = "iteration \(iteration), \(capabilities.fingerprintInput), screen \(screen.canonicalString)"
            #expect(gate.gate(screen).canonicalBytes == gated.canonicalBytes, "deterministic: \(label)")
            substitutions += gated.report.filter { $0.decision == .substituted }.count
            if gated.needsUpgrade {
                upgrades += 1
                #expect(gated.report.contains { $0.decision == .escalated }, "\(label)")
                continue
            }
            #expect(!gated.report.contains { $0.decision == .escalated }, "\(label)")
            Self.expectOnlySupported(gated.screen.root, parent: nil, capabilities, label)
            let kept = Set(gated.screen.nodes.compactMap(\.fieldId))
            for field in screen.nodes.compactMap(\.fieldId) {
                #expect(kept.contains(field), "input \(field) lost: \(label)")
            }
            let again = gate.gate(gated.screen)
            #expect(again.screen == gated.screen, "idempotent: \(label)")
            #expect(again.report.isEmpty && again.deferred.isEmpty && !again.needsUpgrade, "idempotent: \(label)")
        }
        #expect(upgrades > 20 && upgrades < 300, "the generator should exercise both outcomes (\(upgrades) upgrades)")
        #expect(substitutions > 50, "the generator should exercise fallbacks (\(substitutions))")
    }

    static func expectOnlySupported(_ node: Node, parent: ComponentType?, _ set: CapabilitySet, _ label: String) {
        #expect(set.supports(component: node.type), "\(node.id): \(label)")
        #expect(node.fallback == nil, "\(node.id) keeps a fallback: \(label)")
        for key in node.properties.keys {
            let supported =
                set.supports(property: key, of: node.type)
                || parent.map { set.supports(childProperty: key, under: $0) } == true
            #expect(supported, "\(node.id).\(key): \(label)")
        }
        if !node.validation.isEmpty { #expect(set.supports(property: "validation", of: node.type), "\(label)") }
        for rule in node.validation { #expect(set.supports(rule: rule), "\(node.id) rule \(rule.name): \(label)") }
        if let action = node.action {
            #expect(set.supports(action: action) && action.fallback == nil, "\(node.id) action: \(label)")
        }
        for child in node.children { expectOnlySupported(child, parent: node.type, set, label) }
    }
}
