import ParleyCore

/// The screen a client checks locally: the served (gated) screen without the
/// rules that name a field neither on the screen nor answered on this device.
/// Such a rule compares with an answer given elsewhere (before a resume), so
/// only the server can judge it — exactly like a deferred rule.
enum LocalScreen {
    static func checkable(_ screen: Screen, knowing answers: Answers) -> Screen {
        let onScreen = Set(screen.inputs.compactMap(\.fieldId))
        func known(_ field: String) -> Bool { onScreen.contains(field) || answers[field] != nil }
        func strip(_ node: Node) -> Node {
            var node = node
            node.validation.removeAll { rule in
                switch rule.check {
                case .equalsField(let field): return !known(field)
                case .requiredIf(let predicate): return !predicate.fields.allSatisfy(known)
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
}
