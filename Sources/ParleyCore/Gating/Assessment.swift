/// What one node needs from a capability set: whether it can be served at all
/// (``problem``), and if so which properties to strip and which action to use.
struct Assessment {
    typealias Problem = GatingReason.Problem

    /// Why the node is unsupported, or `nil` when it can be kept.
    private(set) var problem: Problem?
    /// Non-essential properties the core lacks, with why.
    private(set) var strippedProperties: [(name: String, problem: Problem)] = []
    /// The first action of the node's action chain the core supports.
    private(set) var action: Action?
    /// Set when ``action`` is not the node's own action.
    private(set) var actionFallbackProblem: Problem?
    /// Set when the core does not read `action` on this component at all.
    private(set) var actionRemovedProblem: Problem?
    /// Set when the core does not read `validation` on this component at all.
    private(set) var validationRemovedProblem: Problem?
    /// Template properties the core cannot resolve, served as the template's `fallback` text.
    private(set) var templateFallbacks: [(name: String, text: String, problem: Problem)] = []

    /// Assesses a node. A static function, not an `init`: initialisers take
    /// their arguments owned, which would copy the whole node on every call.
    static func of(_ node: Node, parent: ComponentType?, capabilities: CapabilitySet) -> Assessment {
        var assessment = Assessment()
        assessment.assess(node, parent: parent, capabilities: capabilities)
        return assessment
    }

    private init() {}

    private mutating func assess(_ node: Node, parent: ComponentType?, capabilities: CapabilitySet) {
        guard let ordinal = node.type.registryOrdinal else {
            problem = .unlisted(.component(node.type))
            return
        }
        let componentRow = CapabilityLookup.componentBits[ordinal]
        guard capabilities.bits.contains(componentRow) else {
            problem = .lacks(row: componentRow)
            return
        }
        if let condition = node.visibleWhen {
            let row =
                capabilities.bits.contains(CapabilityLookup.visibleWhenBit)
                ? capabilities.missingRow(for: condition) : CapabilityLookup.visibleWhenBit
            if let row {
                problem = .visibility(.lacks(row: row))
                return
            }
        }
        let slots = CapabilityLookup.propertySlots[ordinal]
        let childSlots = parent?.registryOrdinal.map { CapabilityLookup.childPropertySlots[$0] } ?? []
        // Indexing reads each key in place; iterating members would copy every value.
        let members = node.properties.members
        for position in members.indices {
            let key = members[position].key
            guard let slot = CapabilityLookup.slot(key, in: slots) ?? CapabilityLookup.slot(key, in: childSlots) else {
                strippedProperties.append((key, .unknownProperty(key, of: node.type, parent: parent)))
                continue
            }
            if capabilities.bits.contains(slot.bit) {
                guard case .object(let object) = members[position].value, object.contains("template") else { continue }
                // A template the core cannot resolve: its fallback text, else the node cannot be
                // served as authored (docs/expressions.md "Templates": rule 4 applies).
                let template = try? Template(json: members[position].value, at: .root)
                guard let row = template.map(capabilities.missingRow(for:)) ?? CapabilityLookup.templateBit else {
                    continue
                }
                if let fallback = template?.fallback {
                    templateFallbacks.append((key, fallback, .lacks(row: row)))
                    continue
                }
                problem = .unresolvedTemplate(key, .lacks(row: row))
                return
            }
            if slot.essential {
                problem = .essential(.lacks(row: slot.bit))
                return
            }
            strippedProperties.append((key, .lacks(row: slot.bit)))
        }
        if !node.validation.isEmpty, let missing = Self.missing("validation", node, slots, parent, capabilities) {
            validationRemovedProblem = missing.problem
        }
        guard let own = node.action else { return }
        if let missing = Self.missing("action", node, slots, parent, capabilities) {
            if missing.essential {
                problem = .essential(missing.problem)
            } else {
                actionRemovedProblem = missing.problem
            }
            return
        }
        var candidate: Action? = own
        var isOwn = true
        while let current = candidate {
            if capabilities.supports(actionKind: current.kind) {
                action = current
                if !isOwn { actionFallbackProblem = Self.lacks(own.kind) }
                return
            }
            candidate = current.fallback
            isOwn = false
        }
        problem = .noSupportedAction(Self.lacks(own.kind))
    }

    /// Why the core does not read a typed property (`action`, `validation`) of the node, or `nil` when it does.
    private static func missing(
        _ name: String, _ node: Node, _ slots: [CapabilityLookup.PropertySlot], _ parent: ComponentType?,
        _ capabilities: CapabilitySet
    ) -> (problem: Problem, essential: Bool)? {
        guard let slot = CapabilityLookup.slot(name, in: slots) else {
            return (.unknownProperty(name, of: node.type, parent: parent), false)
        }
        return capabilities.bits.contains(slot.bit) ? nil : (.lacks(row: slot.bit), slot.essential)
    }

    private static func lacks(_ kind: Action.Kind) -> Problem {
        if let row = CapabilityLookup.bit(of: kind) { return .lacks(row: row) }
        return .unlisted(.action(Action(kind).typeName))
    }
}
