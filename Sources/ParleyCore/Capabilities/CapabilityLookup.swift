/// Registry rows indexed by the typed model, so the gate never builds a
/// ``Capability`` or hashes a string on its hot path.
enum CapabilityLookup {
    /// A property a component (or a container, for its children) understands.
    struct PropertySlot: Sendable {
        let name: String
        /// `name.utf8.count`, compared first: most names differ in length.
        let length: Int
        let bit: Int
        let essential: Bool
    }

    /// Registry row of each component, by ``ComponentType/registryOrdinal``.
    static let componentBits: [Int] = ComponentType.known.map { CapabilityRegistry.index(of: .component($0))! }

    /// Properties of each component, by ordinal.
    static let propertySlots: [[PropertySlot]] = ComponentType.known.map { type in
        slots { capability in
            if case .property(let name, let owner) = capability, owner == type { return name }
            return nil
        }
    }

    /// Per-child properties each container reads, by ordinal.
    static let childPropertySlots: [[PropertySlot]] = ComponentType.known.map { type in
        slots { capability in
            if case .childProperty(let name, let owner) = capability, owner == type { return name }
            return nil
        }
    }

    /// Registry row of each known action type, in ``Action/knownTypeNames`` order.
    static let actionBits: [Int] = Action.knownTypeNames.map { CapabilityRegistry.index(of: .action($0))! }

    /// Registry row of each known rule kind, in ``Rule/knownKinds`` order.
    static let ruleBits: [Int] = Rule.knownKinds.map { CapabilityRegistry.index(of: .rule($0))! }

    /// Registry row of each expression capability, in ``CapabilityRegistry/expressionNames`` order.
    static let expressionBits: [Int] = CapabilityRegistry.expressionNames.map {
        CapabilityRegistry.index(of: .expression($0))!
    }

    /// The row of the node member `visibleWhen`.
    static var visibleWhenBit: Int { expressionBits[0] }
    /// The row of `template` texts.
    static var templateBit: Int { expressionBits[1] }
    /// The row of reading `computed` values.
    static var computedBit: Int { expressionBits[2] }

    /// The row of a comparison predicate form.
    static func bit(of comparison: NumericComparison) -> Int {
        switch comparison {
        case .greaterThan: return expressionBits[3]
        case .atLeast: return expressionBits[4]
        case .lessThan: return expressionBits[5]
        case .atMost: return expressionBits[6]
        }
    }

    /// The row of the `matches` predicate form.
    static var matchesBit: Int { expressionBits[7] }
    /// The row of the `empty` predicate form.
    static var emptyBit: Int { expressionBits[8] }

    private static func slots(_ name: (Capability) -> String?) -> [PropertySlot] {
        CapabilityRegistry.entries.enumerated().compactMap { position, entry in
            name(entry.capability).map {
                PropertySlot(name: $0, length: $0.utf8.count, bit: position, essential: entry.essential)
            }
        }
    }

    /// The slot for a property name in a slot list (scalar-exact).
    ///
    /// Scalar-exact although it uses `String ==` (canonical equivalence), which
    /// is much faster here (identical small strings compare as two words):
    /// registry names are ASCII (checked in ``CapabilityRegistry/entries``), and a
    /// string canonically equivalent to an ASCII string but not identical must
    /// contain a non-ASCII scalar whose decomposition is one ASCII scalar
    /// (U+212A → K, U+037E → ;, U+1FEF → `), which takes two or more UTF-8
    /// bytes for one — so equal UTF-8 length and `==` imply identical scalars.
    static func slot(_ name: String, in slots: [PropertySlot]) -> PropertySlot? {
        let length = name.utf8.count
        for slot in slots where slot.length == length && slot.name == name { return slot }
        return nil
    }

    /// The registry row of a component, `nil` for an unknown type.
    static func bit(of type: ComponentType) -> Int? {
        type.registryOrdinal.map { componentBits[$0] }
    }

    /// The registry row of an action type, `nil` for an unknown type.
    static func bit(of kind: Action.Kind) -> Int? {
        kind.registryOrdinal.map { actionBits[$0] }
    }
}

extension ComponentType {
    /// Position in ``ComponentType/known``; `nil` for ``unknown(_:)``.
    var registryOrdinal: Int? {
        switch self {
        case .vstack: return 0
        case .hstack: return 1
        case .text: return 2
        case .image: return 3
        case .button: return 4
        case .textField: return 5
        case .picker: return 6
        case .spacer: return 7
        case .divider: return 8
        case .quickReplies: return 9
        case .card: return 10
        case .datePicker: return 11
        case .toggle: return 12
        case .carousel: return 13
        case .grid: return 14
        case .unknown: return nil
        }
    }
}

extension Action.Kind {
    /// Position in ``Action/knownTypeNames``; `nil` for an unknown type.
    var registryOrdinal: Int? {
        switch self {
        case .submit: return 0
        case .openURL: return 1
        case .subscribe: return 2
        case .network: return 3
        case .unknown: return nil
        }
    }
}

extension Rule.Check {
    /// Position in ``Rule/knownKinds``; `nil` for an unknown kind.
    var registryOrdinal: Int? {
        switch self {
        case .required: return 0
        case .requiredIf: return 1
        case .minLength: return 2
        case .maxLength: return 3
        case .pattern: return 4
        case .oneOf: return 5
        case .equalsField: return 6
        case .minimum: return 7
        case .maximum: return 8
        case .exclusiveMinimum: return 9
        case .exclusiveMaximum: return 10
        case .multipleOf: return 11
        case .integer: return 12
        case .email: return 13
        case .date: return 14
        case .unknown: return nil
        }
    }
}
