/// What one node needs from a capability set: whether it can be served at all
/// (``problem``), and if so which properties to strip and which action to use.
struct Assessment {
    /// Why the node is unsupported, or `nil` when it can be kept.
    private(set) var problem: String?
    /// Non-essential properties the core lacks: name and reason.
    private(set) var strippedProperties: [(name: String, reason: String)] = []
    /// The first action of the node's action chain the core supports.
    private(set) var action: Action?
    /// Set when ``action`` is not the node's own action.
    private(set) var actionFallbackReason: String?
    /// Set when the core does not read `action` on this component at all.
    private(set) var actionRemovedReason: String?
    /// Set when the core does not read `validation` on this component at all.
    private(set) var validationRemovedReason: String?

    init(_ node: Node, parent: ComponentType?, capabilities: CapabilitySet) {
        guard let ordinal = node.type.registryOrdinal, capabilities.supports(component: node.type) else {
            problem = Self.lacks(.component(node.type))
            return
        }
        let slots = CapabilityLookup.propertySlots[ordinal]
        let childSlots = parent?.registryOrdinal.map { CapabilityLookup.childPropertySlots[$0] } ?? []
        for member in node.properties {
            if let slot = CapabilityLookup.slot(member.key, in: slots)
                ?? CapabilityLookup.slot(member.key, in: childSlots)
            {
                if capabilities.bits.contains(slot.bit) { continue }
                let reason = Self.lacks(CapabilityRegistry.entries[slot.bit].capability)
                if slot.essential {
                    problem = reason + ", an essential property"
                    return
                }
                strippedProperties.append((member.key, reason))
            } else {
                strippedProperties.append((member.key, Self.unknownProperty(member.key, node: node, parent: parent)))
            }
        }
        if !node.validation.isEmpty, !Self.reads("validation", in: slots, capabilities) {
            validationRemovedReason = Self.typedProblem("validation", slots: slots, node: node, parent: parent)
        }
        guard let own = node.action else { return }
        guard Self.reads("action", in: slots, capabilities) else {
            let reason = Self.typedProblem("action", slots: slots, node: node, parent: parent)
            if CapabilityLookup.slot("action", in: slots)?.essential == true {
                problem = reason + ", an essential property"
            } else {
                actionRemovedReason = reason
            }
            return
        }
        var candidate: Action? = own
        var isOwn = true
        while let current = candidate {
            if capabilities.supports(actionKind: current.kind) {
                action = current
                if !isOwn {
                    actionFallbackReason =
                        "\(Self.lacks(.action(own.typeName))); using its fallback \"\(current.typeName)\""
                }
                return
            }
            candidate = current.fallback
            isOwn = false
        }
        problem = "\(Self.lacks(.action(own.typeName))) and no action in its fallback chain is supported"
    }

    private static func reads(_ name: String, in slots: [CapabilityLookup.PropertySlot], _ set: CapabilitySet) -> Bool {
        CapabilityLookup.slot(name, in: slots).map { set.bits.contains($0.bit) } ?? false
    }

    private static func typedProblem(
        _ name: String, slots: [CapabilityLookup.PropertySlot], node: Node, parent: ComponentType?
    ) -> String {
        if let slot = CapabilityLookup.slot(name, in: slots) {
            return lacks(CapabilityRegistry.entries[slot.bit].capability)
        }
        return unknownProperty(name, node: node, parent: parent)
    }

    private static func unknownProperty(_ name: String, node: Node, parent: ComponentType?) -> String {
        let owner = parent.map { " or of a child of \($0.name)" } ?? ""
        return "no core reads \"\(name)\": it is not a property of \(node.type.name)\(owner)"
    }

    /// A reason naming the capability and the version that introduced it.
    static func lacks(_ capability: Capability) -> String {
        if let version = CapabilityRegistry.introduced(capability) {
            return "the core lacks \(capability) (introduced in core \(version))"
        }
        return "no core supports \(capability)"
    }
}

/// What a subtree (the node and its children, not fallbacks) carries that the
/// flow needs: an answer to collect, or a `submit` action (the way forward).
struct Needs {
    private(set) var input = false
    private(set) var forward = false

    init(_ node: Node) {
        input = node.type.isInput || node.fieldId != nil
        forward = Self.isForward(node)
        for child in node.children where !(input && forward) {
            let needs = Needs(child)
            input = input || needs.input
            forward = forward || needs.forward
        }
    }

    /// Whether the node's action, or any action in its fallback chain, is a
    /// `submit`. Nodes of unknown type keep `action` raw in their properties.
    private static func isForward(_ node: Node) -> Bool {
        var candidate = node.action
        while let action = candidate {
            if case .submit = action.kind { return true }
            candidate = action.fallback
        }
        var raw = node.properties["action"]
        while let object = raw?.objectValue {
            if object["type"]?.stringValue?.isScalarEqual(to: "submit") == true { return true }
            raw = object["fallback"]
        }
        return false
    }
}
