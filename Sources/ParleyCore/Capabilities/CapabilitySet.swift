/// What one client core understands (docs/gating.md).
///
/// Equality is by content: `1.1.0`, `1.1.7` and `1.2.0-beta` have the same set
/// and therefore the same ``fingerprintInput``, so gated screens cache once for
/// all of them. Anything the registry does not list (``ComponentType/unknown(_:)``,
/// unknown action types and rule kinds) is supported by no set.
public struct CapabilitySet: Sendable, Hashable, CustomStringConvertible {
    var bits: CapabilityBits

    init(bits: CapabilityBits) { self.bits = bits }

    /// Everything introduced at or before `core` (SemVer precedence: a
    /// pre-release lacks what its release introduced).
    public init(core: CoreVersion) {
        var bits = CapabilityBits()
        for (position, entry) in CapabilityRegistry.entries.enumerated() where entry.introduced <= core {
            bits.set(position, true)
        }
        self.bits = bits
    }

    /// The empty set: a core older than every registry row.
    public static let none = CapabilitySet(bits: CapabilityBits())

    /// Everything the registry lists.
    public static var all: CapabilitySet { CapabilitySet(core: CoreVersion.newest) }

    /// A core build that adds or lacks items relative to its version
    /// (`removing` wins over `adding`). Items the registry does not list have no
    /// effect: the server never serves what it does not know.
    public static func custom(
        core: CoreVersion, adding: [Capability] = [], removing: [Capability] = []
    ) -> CapabilitySet {
        CapabilitySet(core: core).adding(adding).removing(removing)
    }

    /// This set plus `capabilities`.
    public func adding(_ capabilities: [Capability]) -> CapabilitySet {
        var copy = self
        for capability in capabilities {
            if let index = CapabilityRegistry.index(of: capability) { copy.bits.set(index, true) }
        }
        return copy
    }

    /// This set without `capabilities`.
    public func removing(_ capabilities: [Capability]) -> CapabilitySet {
        var copy = self
        for capability in capabilities {
            if let index = CapabilityRegistry.index(of: capability) { copy.bits.set(index, false) }
        }
        return copy
    }

    /// Whether the set contains a registry item.
    public func contains(_ capability: Capability) -> Bool {
        CapabilityRegistry.index(of: capability).map(bits.contains) ?? false
    }

    /// The items in the set, in registry order.
    public var capabilities: [Capability] {
        CapabilityRegistry.entries.indices.filter(bits.contains).map { CapabilityRegistry.entries[$0].capability }
    }

    /// Whether the core renders nodes of this type.
    public func supports(component type: ComponentType) -> Bool {
        guard let ordinal = type.registryOrdinal else { return false }
        return bits.contains(CapabilityLookup.componentBits[ordinal])
    }

    /// Whether the core understands `property` on nodes of `type`.
    public func supports(property: String, of type: ComponentType) -> Bool {
        guard let ordinal = type.registryOrdinal,
            let slot = CapabilityLookup.slot(property, in: CapabilityLookup.propertySlots[ordinal])
        else { return false }
        return bits.contains(slot.bit)
    }

    /// Whether a container of type `parent` reads `property` from its children.
    public func supports(childProperty property: String, under parent: ComponentType) -> Bool {
        guard let ordinal = parent.registryOrdinal,
            let slot = CapabilityLookup.slot(property, in: CapabilityLookup.childPropertySlots[ordinal])
        else { return false }
        return bits.contains(slot.bit)
    }

    /// Whether the core performs the action's own type (its `fallback` is not considered).
    public func supports(action: Action) -> Bool {
        supports(actionKind: action.kind)
    }

    /// Whether the core performs actions of this kind.
    public func supports(actionKind kind: Action.Kind) -> Bool {
        guard let ordinal = kind.registryOrdinal else { return false }
        return bits.contains(CapabilityLookup.actionBits[ordinal])
    }

    /// Whether the core's interpreter runs this rule kind.
    public func supports(rule: Rule) -> Bool {
        supports(check: rule.check)
    }

    /// Whether the core's interpreter runs this check: its kind, and for `requiredIf` every
    /// predicate form its condition uses (a 2.1 comparison in a 1.2 core's `requiredIf` is
    /// deferred to the server like an unknown kind).
    public func supports(check: Rule.Check) -> Bool {
        guard let ordinal = check.registryOrdinal, bits.contains(CapabilityLookup.ruleBits[ordinal]) else {
            return false
        }
        if case .requiredIf(let condition) = check { return missingRow(for: condition) == nil }
        return true
    }

    public var description: String { fingerprintInput }
}
