import ParleyCore

/// The screen a client checks locally: the served (gated) screen without the
/// rules that name a field neither on the screen nor answered on this device,
/// directly or through a computed value. Such a rule compares with an answer
/// given elsewhere (before a resume), so only the server can judge it —
/// exactly like a deferred rule.
enum LocalScreen {
    static func checkable(_ screen: Screen, knowing answers: Answers, computed: [ComputedValue] = []) -> Screen {
        let onScreen = Set(screen.inputs.compactMap(\.fieldId))
        func knownField(_ field: String) -> Bool { onScreen.contains(field) || answers[field] != nil }
        func known(_ reference: ValueReference) -> Bool {
            switch reference {
            case .field(let field): return knownField(field)
            case .computed(let name): return fieldsRead(byComputed: name, in: computed).allSatisfy(knownField)
            }
        }
        func strip(_ node: Node) -> Node {
            var node = node
            node.validation.removeAll { rule in
                switch rule.check {
                case .equalsField(let field): return !knownField(field)
                case .requiredIf(let predicate): return !predicate.references.allSatisfy(known)
                default: return false
                }
            }
            node.children = node.children.map(strip)
            return node
        }
        var checkable = screen
        checkable.root = strip(screen.root)
        return checkable
    }

    /// Every field a computed value reads, through the computed values it reads in turn (each
    /// visited once, so a cycle ends); a name the flow does not declare reads nothing.
    static func fieldsRead(byComputed name: String, in computed: [ComputedValue]) -> [String] {
        var fields: [String] = []
        var visited: Set<String> = []
        var pending = [name]
        while let next = pending.popLast() {
            guard visited.insert(next).inserted, let value = computed.first(where: { $0.name.isScalarEqual(to: next) })
            else { continue }
            for reference in value.expression.references {
                switch reference {
                case .field(let field): fields.append(field)
                case .computed(let other): pending.append(other)
                }
            }
        }
        return fields
    }
}
