/// Why the gate changed a node, kept compact while gating and turned into a
/// sentence only when a report is read (a 200-node screen for an old core has
/// a hundred entries; building their sentences eagerly dominated gating time).
struct GatingReason: Sendable, Hashable {
    /// What the core cannot do.
    enum Problem: Sendable, Hashable {
        /// A registry row the core lacks.
        case lacks(row: Int)
        /// A component type, action type or rule kind no core supports.
        case unlisted(Capability)
        /// A property no core reads on this component (or from a child of `parent`).
        case unknownProperty(String, of: ComponentType, parent: ComponentType?)
        /// An essential property the core lacks (only the recursive cases are
        /// `indirect`, so the common ones are not boxed on the heap).
        indirect case essential(Problem)
        /// The node's action is unsupported and so is every action in its fallback chain.
        indirect case noSupportedAction(Problem)
        /// The core cannot evaluate the node's `visibleWhen` (docs/expressions.md "Gating").
        indirect case visibility(Problem)
        /// The core cannot resolve the template in property `name`, which has no `fallback` text.
        indirect case unresolvedTemplate(String, Problem)
    }

    /// What the gate did about it.
    enum Outcome: Sendable, Hashable {
        case substituted(fallbackId: String)
        case collectsAnswer
        case isRoot
        case decorative
        case anotherSubmitRemains
        case onlyWayForward
        case stripped
        case usingFallbackAction(String)
        case templateWithoutFallback
        case templateFallback
    }

    let problem: Problem
    let outcome: Outcome

    var sentence: String {
        let cause = Self.describe(problem)
        switch outcome {
        case .substituted(let id): return "\(cause); serving its fallback \"\(id)\""
        case .collectsAnswer: return "\(cause), and it collects an answer the step needs"
        case .isRoot: return "\(cause), and it is the screen's root"
        case .decorative: return "\(cause); it is decorative"
        case .anotherSubmitRemains: return "\(cause); another submit action remains on the screen, so it is not needed"
        case .onlyWayForward: return "\(cause), and it is the only way forward (no other submit action remains)"
        case .stripped: return cause
        case .usingFallbackAction(let type): return "\(cause); using its fallback \"\(type)\""
        case .templateWithoutFallback: return "\(cause), and the template has no fallback text"
        case .templateFallback: return "\(cause); serving the template's fallback text"
        }
    }

    private static func describe(_ problem: Problem) -> String {
        switch problem {
        case .lacks(let row):
            let entry = CapabilityRegistry.entries[row]
            return "the core lacks \(entry.capability) (introduced in core \(entry.introduced))"
        case .unlisted(let capability):
            return "no core supports \(capability)"
        case .unknownProperty(let name, let type, let parent):
            let owner = parent.map { " or of a child of \($0.name)" } ?? ""
            return "no core reads \"\(name)\": it is not a property of \(type.name)\(owner)"
        case .essential(let inner):
            return describe(inner) + ", an essential property"
        case .noSupportedAction(let inner):
            return describe(inner) + " and no action in its fallback chain is supported"
        case .visibility(let inner):
            return describe(inner) + ", which its \"visibleWhen\" needs"
        case .unresolvedTemplate(let name, let inner):
            return describe(inner) + ", which the template in \"\(name)\" needs"
        }
    }
}
