import ParleyCore

/// One table-driven lint expectation: linting `document` reports `code` at `pointer`.
struct LintCase: CustomStringConvertible, Sendable {
    enum Kind: Sendable { case flow, screen, document }

    let name: String
    let document: String
    var kind: Kind = .flow
    var limits = DocumentLimits()
    let code: LintCode
    let pointer: String

    var description: String { name }

    /// Lints the document as its kind says.
    func problems() -> [LintProblem] {
        let value = Fixture.json(document)
        let linter = FlowLinter(limits: limits, includesWarnings: true)
        switch kind {
        case .flow: return linter.lint(flow: value)
        case .screen: return linter.lint(screen: value)
        case .document: return linter.lint(document: value)
        }
    }

    /// The pointer of the first node inside `Fixture.flow(nodes:)`.
    static let node0 = "/steps/0/screen/root/children/0"
    /// The pointer of the second node inside `Fixture.flow(nodes:)`.
    static let node1 = "/steps/0/screen/root/children/1"

    /// A textField named `field` with the given rules (JSON text).
    static func input(_ field: String, id: String? = nil, rules: String = "[]") -> String {
        #"{ "type": "textField", "id": "\#(id ?? field)", "properties": { "fieldId": "\#(field)", "validation": \#(rules) } }"#
    }

    /// A button running `action` (JSON text).
    static func button(_ action: String) -> String {
        #"{ "type": "button", "id": "b", "properties": { "title": "Go", "action": \#(action) } }"#
    }

    /// A button whose network request is `request` (JSON text), next to an input named `name`.
    static func network(_ request: String) -> String {
        Fixture.flow(nodes: input("name") + ", " + button(#"{ "type": "network", "request": \#(request) }"#))
    }
}
