/// One pass of the four gating rules of docs/gating.md over a screen, node by node.
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
    private let capabilities: CapabilitySet
    private let base: JSONPointer
    /// Where the gate is in the tree, cheap to push and pop.
    private var path: [GatingLocation.Step] = []
    private var report: [GatingReportEntry] = []
    private var deferred: [DeferredRule] = []
    private var escalated = false
    private var keptSubmits = 0
    private var pendingForward: [(entry: Int, problem: GatingReason.Problem)] = []

    init(capabilities: CapabilitySet, base: JSONPointer) {
        self.capabilities = capabilities
        self.base = base
    }

    /// What gating did to one node: nothing (serve the original value, no
    /// copy), a replacement, or removal.
    private enum Result {
        case unchanged
        case replaced(Node)
        case removed
    }

    /// Gates the screen (consumes the run).
    mutating func run(_ screen: Screen) -> GatedScreen {
        path = [.root]
        let root: Node?
        switch gate(screen.root, parent: nil, isRoot: true, original: nil) {
        case .unchanged: root = screen.root
        case .replaced(let node): root = node
        case .removed: root = nil
        }
        for (entry, problem) in pendingForward {
            let dropped = report[entry]
            let stillForward = keptSubmits > 0
            report[entry] = GatingReportEntry(
                nodeId: dropped.nodeId, decision: stillForward ? .dropped : .escalated, location: dropped.location,
                why: GatingReason(problem: problem, outcome: stillForward ? .anotherSubmitRemains : .onlyWayForward))
            if !stillForward { escalated = true }
        }
        return GatedScreen(
            screen: Screen(id: screen.id, title: screen.title, root: root ?? Node(type: .vstack, id: screen.root.id)),
            report: report, deferred: deferred, needsUpgrade: escalated)
    }

    private mutating func gate(_ node: Node, parent: ComponentType?, isRoot: Bool, original: Node?) -> Result {
        let assessment = Assessment.of(node, parent: parent, capabilities: capabilities)
        guard let problem = assessment.problem else {
            return keep(node, parent: parent, assessment: assessment, original: original)
        }
        if let fallback = node.fallback {
            record(node, .substituted, problem, .substituted(fallbackId: fallback.id))
            path.append(.fallback)
            defer { path.removeLast() }
            let result = gate(fallback, parent: parent, isRoot: isRoot, original: original ?? node)
            if case .unchanged = result { return .replaced(fallback) }
            return result
        }
        let needs = Needs(node)
        if needs.input {
            record(node, .escalated, problem, .collectsAnswer)
            escalated = true
        } else if isRoot {
            record(node, .escalated, problem, .isRoot)
            escalated = true
        } else if case .unresolvedTemplate = problem {
            // Dropping a text that recalls answers would change what the screen says.
            record(node, .escalated, problem, .templateWithoutFallback)
            escalated = true
        } else if needs.forward {
            pendingForward.append((report.count, problem))
            record(node, .dropped, problem, .anotherSubmitRemains)
        } else {
            record(node, .dropped, problem, .decorative)
        }
        return .removed
    }

    /// Rule 1: serves the node, stripped of what the core lacks, with gated children.
    private mutating func keep(_ node: Node, parent: ComponentType?, assessment: Assessment, original: Node?)
        -> Result
    {
        var changed = node.hasFallback || !assessment.strippedProperties.isEmpty
        var properties = node.properties
        for (name, problem) in assessment.strippedProperties {
            properties[name] = nil
            record(node, .propertyRemoved, problem, .stripped, property: name)
        }
        for (name, text, problem) in assessment.templateFallbacks {
            properties[name] = .string(text)
            record(node, .templateFallback, problem, .templateFallback, property: name)
            changed = true
        }
        var action: Action? = nil
        if let effective = assessment.action {
            action = effective.hasFallback ? Action(effective.kind) : effective
            if case .submit = effective.kind { keptSubmits += 1 }
            changed = changed || effective.hasFallback
            if let problem = assessment.actionFallbackProblem {
                record(node, .actionFallback, problem, .usingFallbackAction(effective.typeName), property: "action")
                changed = true
            }
        } else if let problem = assessment.actionRemovedProblem {
            record(node, .propertyRemoved, problem, .stripped, property: "action")
            changed = true
        }
        let validation = gateRules(node, assessment: assessment, original: original)
        changed = changed || validation.count != node.validation.count
        var children: [Node]? = nil
        // Indexing (not `for child in`) lets the child be passed borrowed, without a copy.
        for position in node.children.indices {
            path.append(.child(position))
            let result = gate(node.children[position], parent: node.type, isRoot: false, original: nil)
            path.removeLast()
            switch result {
            case .unchanged:
                children?.append(node.children[position])
            case .replaced(let gated):
                if children == nil { children = Self.prefix(node.children, position) }
                children?.append(gated)
            case .removed:
                if children == nil { children = Self.prefix(node.children, position) }
            }
        }
        guard changed || children != nil else { return .unchanged }
        return .replaced(
            Node(
                type: node.type, id: node.id, properties: properties, validation: validation, action: action,
                children: children ?? node.children, visibleWhen: node.visibleWhen))
    }

    private static func prefix(_ children: [Node], _ count: Int) -> [Node] {
        var result: [Node] = []
        result.reserveCapacity(children.count)
        result.append(contentsOf: children[..<count])
        return result
    }

    /// The rules the served node carries; records what the client will not run.
    /// For a fallback the server enforces the *original* node's rules (docs/wire-format.md
    /// "Screen"), so every original rule the served node does not carry is deferred.
    private mutating func gateRules(_ node: Node, assessment: Assessment, original: Node?) -> [Rule] {
        var kept = node.validation
        if let problem = assessment.validationRemovedProblem {
            record(node, .propertyRemoved, problem, .stripped, property: "validation")
            kept = []
        } else if node.validation.contains(where: { !capabilities.supports(rule: $0) }) {
            kept = node.validation.filter { capabilities.supports(rule: $0) }
        }
        if let original {
            let field = node.fieldId ?? original.fieldId ?? node.id
            for rule in original.validation where !kept.contains(rule) {
                deferred.append(DeferredRule(field: field, rule: rule.name))
            }
        } else if assessment.validationRemovedProblem == nil, kept.count != node.validation.count {
            let field = node.fieldId ?? node.id
            for rule in node.validation where !capabilities.supports(rule: rule) {
                deferred.append(DeferredRule(field: field, rule: rule.name))
            }
        }
        return kept
    }

    private mutating func record(
        _ node: Node, _ decision: GatingReportEntry.Decision, _ problem: GatingReason.Problem,
        _ outcome: GatingReason.Outcome, property: String? = nil
    ) {
        report.append(
            GatingReportEntry(
                nodeId: node.id, decision: decision,
                location: GatingLocation(base: base, steps: path, property: property),
                why: GatingReason(problem: problem, outcome: outcome)))
    }
}
