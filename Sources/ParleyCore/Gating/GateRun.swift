/// One pass of DESIGN.md's four gating rules over a screen, node by node.
///
/// 1. supported → keep, gate its children;
/// 2. unsupported with `fallback` → gate the fallback in its place;
/// 3. unsupported and decorative → drop;
/// 4. unsupported input, the root, or the only way forward → escalate (upgrade screen).
///
/// A node is *unsupported* when the core lacks its type, an *essential*
/// property it uses, or every action in its action's fallback chain. It is
/// *decorative* when no node of its subtree collects an answer (input type or
/// `fieldId`) and none carries a `submit` action. A subtree that carries a
/// `submit` is dropped only if the gated screen keeps another `submit`: the
/// *way forward* is a submit action, and a screen that had one keeps one or
/// needs the upgrade screen.
struct GateRun {
    /// Where the gate is in the tree, cheap to push and pop; a pointer is only
    /// built when something is reported.
    private enum PathStep {
        case root
        case child(Int)
        case fallback
    }

    private let capabilities: CapabilitySet
    private let base: JSONPointer
    private var path: [PathStep] = []
    private var report: [GatingReportEntry] = []
    private var deferred: [DeferredRule] = []
    private var escalated = false
    private var keptSubmits = 0
    private var pendingForward: [(entry: Int, problem: String)] = []

    init(capabilities: CapabilitySet, base: JSONPointer) {
        self.capabilities = capabilities
        self.base = base
    }

    /// Gates the screen (consumes the run).
    mutating func run(_ screen: Screen) -> GatedScreen {
        path = [.root]
        let root = gate(screen.root, parent: nil, isRoot: true, original: nil)
        for (entry, problem) in pendingForward {
            let dropped = report[entry]
            let stillForward = keptSubmits > 0
            report[entry] = GatingReportEntry(
                nodeId: dropped.nodeId, pointer: dropped.pointer, decision: stillForward ? .dropped : .escalated,
                reason: stillForward
                    ? "\(problem); another submit action remains on the screen, so it is not needed"
                    : "\(problem), and it is the only way forward (no other submit action remains)")
            if !stillForward { escalated = true }
        }
        return GatedScreen(
            screen: Screen(id: screen.id, title: screen.title, root: root ?? Node(type: .vstack, id: screen.root.id)),
            report: report, deferred: deferred, needsUpgrade: escalated)
    }

    private mutating func gate(_ node: Node, parent: ComponentType?, isRoot: Bool, original: Node?) -> Node? {
        let assessment = Assessment(node, parent: parent, capabilities: capabilities)
        guard let problem = assessment.problem else {
            return keep(node, parent: parent, assessment: assessment, original: original)
        }
        if let fallback = node.fallback {
            record(node, .substituted, "\(problem); serving its fallback \"\(fallback.id)\"")
            path.append(.fallback)
            defer { path.removeLast() }
            return gate(fallback, parent: parent, isRoot: isRoot, original: original ?? node)
        }
        let needs = Needs(node)
        if needs.input {
            record(node, .escalated, "\(problem), and it collects an answer the step needs")
            escalated = true
        } else if isRoot {
            record(node, .escalated, "\(problem), and it is the screen's root")
            escalated = true
        } else if needs.forward {
            pendingForward.append((report.count, problem))
            record(node, .dropped, problem)
        } else {
            record(node, .dropped, "\(problem); it is decorative")
        }
        return nil
    }

    private mutating func keep(_ node: Node, parent: ComponentType?, assessment: Assessment, original: Node?)
        -> Node
    {
        var properties = node.properties
        for (name, reason) in assessment.strippedProperties {
            properties[name] = nil
            record(node, .propertyRemoved, reason, extra: ["properties", name])
        }
        var action: Action? = nil
        if let effective = assessment.action {
            action = Action(effective.kind)
            if case .submit = effective.kind { keptSubmits += 1 }
            if let reason = assessment.actionFallbackReason {
                record(node, .actionFallback, reason, extra: ["properties", "action"])
            }
        } else if node.action != nil, let reason = assessment.actionRemovedReason {
            record(node, .propertyRemoved, reason, extra: ["properties", "action"])
        }
        let validation = gateRules(node, assessment: assessment, original: original)
        var children: [Node] = []
        if !node.children.isEmpty {
            children.reserveCapacity(node.children.count)
            for (position, child) in node.children.enumerated() {
                path.append(.child(position))
                if let gated = gate(child, parent: node.type, isRoot: false, original: nil) { children.append(gated) }
                path.removeLast()
            }
        }
        return Node(
            type: node.type, id: node.id, properties: properties, validation: validation, action: action,
            children: children)
    }

    /// The rules the served node carries; records what the client will not run.
    /// For a fallback the server enforces the *original* node's rules (DESIGN.md
    /// "Screen"), so every original rule the served node does not carry is deferred.
    private mutating func gateRules(_ node: Node, assessment: Assessment, original: Node?) -> [Rule] {
        var kept = node.validation
        if let reason = assessment.validationRemovedReason {
            record(node, .propertyRemoved, reason, extra: ["properties", "validation"])
            kept = []
        } else if node.validation.contains(where: { !capabilities.supports(rule: $0) }) {
            kept = node.validation.filter { capabilities.supports(rule: $0) }
        }
        let field = node.fieldId ?? original?.fieldId ?? node.id
        if let original {
            for rule in original.validation where !kept.contains(rule) {
                deferred.append(DeferredRule(field: field, rule: rule.name))
            }
        } else if assessment.validationRemovedReason == nil, kept.count != node.validation.count {
            for rule in node.validation where !capabilities.supports(rule: rule) {
                deferred.append(DeferredRule(field: field, rule: rule.name))
            }
        }
        return kept
    }

    private mutating func record(
        _ node: Node, _ decision: GatingReportEntry.Decision, _ reason: String, extra: [String] = []
    ) {
        var tokens = base.tokens
        for step in path {
            switch step {
            case .root: tokens.append("root")
            case .child(let position): tokens += ["children", String(position)]
            case .fallback: tokens.append("fallback")
            }
        }
        report.append(
            GatingReportEntry(
                nodeId: node.id, pointer: JSONPointer(tokens: tokens + extra), decision: decision, reason: reason))
    }
}
