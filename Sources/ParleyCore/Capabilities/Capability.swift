/// One thing a client core may understand: a component type, a property of a
/// component, a per-child property a container reads from its children, an
/// action type, a rule kind or something expressions add (docs/gating.md, docs/expressions.md).
///
/// Action types and rule kinds are named by their wire names (`"network"`,
/// `"email"`); a name the registry does not list is supported by no core.
public enum Capability: Sendable, Hashable, CustomStringConvertible {
    /// A component type.
    case component(ComponentType)
    /// A property of a component type (including `action` and `validation`).
    case property(String, of: ComponentType)
    /// A property a container reads from each of its children (`size` in a stack).
    case childProperty(String, under: ComponentType)
    /// An action type, by wire name.
    case action(String)
    /// A rule kind, by wire name.
    case rule(String)
    /// Something expressions add (docs/expressions.md "Gating and lint"): the node member
    /// `visibleWhen`, `template` texts, reading `computed` values, and the predicate forms
    /// `greaterThan`, `atLeast`, `lessThan`, `atMost`, `matches` and `empty`.
    case expression(String)

    /// Stable text used in fingerprints and reports:
    /// `component:card`, `property:textField.keyboard`, `childProperty:vstack.size`,
    /// `action:network`, `rule:email`, `expression:visibleWhen`.
    public var description: String {
        switch self {
        case .component(let type): return "component:\(type.name)"
        case .property(let name, let type): return "property:\(type.name).\(name)"
        case .childProperty(let name, let parent): return "childProperty:\(parent.name).\(name)"
        case .action(let name): return "action:\(name)"
        case .rule(let name): return "rule:\(name)"
        case .expression(let name): return "expression:\(name)"
        }
    }

    public static func == (lhs: Capability, rhs: Capability) -> Bool {
        switch (lhs, rhs) {
        case (.component(let a), .component(let b)): return a == b
        case (.property(let a, let x), .property(let b, let y)),
            (.childProperty(let a, let x), .childProperty(let b, let y)):
            return a.isScalarEqual(to: b) && x == y
        case (.action(let a), .action(let b)), (.rule(let a), .rule(let b)), (.expression(let a), .expression(let b)):
            return a.isScalarEqual(to: b)
        default: return false
        }
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(ScalarKey(description))
    }
}

extension Capability {
    /// Parses a ``description`` (`component:card`, `property:textField.keyboard`,
    /// `childProperty:vstack.size`, `action:network`, `rule:email`, `expression:template`); `nil`
    /// when malformed.
    public init?(parsing text: String) {
        guard let colon = text.firstIndex(of: ":") else { return nil }
        let kind = text[..<colon]
        let rest = String(text[text.index(after: colon)...])
        guard !rest.isEmpty else { return nil }
        func split() -> (ComponentType, String)? {
            guard let dot = rest.firstIndex(of: "."), dot != rest.startIndex, rest.index(after: dot) != rest.endIndex
            else { return nil }
            return (ComponentType(name: String(rest[..<dot])), String(rest[rest.index(after: dot)...]))
        }
        switch kind {
        case "component": self = .component(ComponentType(name: rest))
        case "property":
            guard let (type, name) = split() else { return nil }
            self = .property(name, of: type)
        case "childProperty":
            guard let (type, name) = split() else { return nil }
            self = .childProperty(name, under: type)
        case "action": self = .action(rest)
        case "rule": self = .rule(rest)
        case "expression": self = .expression(rest)
        default: return nil
        }
    }
}
