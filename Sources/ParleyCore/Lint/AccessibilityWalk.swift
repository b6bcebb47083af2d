/// One pass of ``AccessibilityLint`` over a document in one locale; findings already reported
/// (same code and pointer, e.g. from the default locale) are not repeated.
struct AccessibilityWalk {
    let lint: AccessibilityLint
    let severity: LintSeverity
    /// The locale being walked, when not the default; named in messages.
    var locale: String?
    private(set) var problems: [LintProblem] = []
    private var reported: Set<String> = []
    /// Folded label → where it first appeared, for the screen being walked.
    private var labels: [String: JSONPointer] = [:]
    /// Folded button title → (where, the action's canonical JSON), for the screen being walked.
    private var buttons: [String: (pointer: JSONPointer, action: String)] = [:]

    init(lint: AccessibilityLint, severity: LintSeverity) {
        self.lint = lint
        self.severity = severity
    }

    mutating func flow(_ flow: JSONValue) {
        for (index, step) in (flow["steps"]?.arrayValue ?? []).enumerated() {
            guard let screen = step["screen"] else { continue }
            self.screen(screen, at: JSONPointer.root.appending("steps").appending(index).appending("screen"))
        }
        if let upgrade = flow["upgrade"], !upgrade.isNull { screen(upgrade, at: JSONPointer.root.appending("upgrade")) }
    }

    mutating func screen(_ screen: JSONValue, at pointer: JSONPointer) {
        guard screen.objectValue != nil else { return }
        if Self.isBlank(screen["title"]?.stringValue) {
            report(
                .screenWithoutTitle, pointer.appending("title"),
                "This screen has no \"title\"; people using a screen reader hear it first to know where they are.")
        }
        labels = [:]
        buttons = [:]
        if let root = screen["root"] { node(root, at: pointer.appending("root"), depth: 1, inFallback: false) }
    }

    private mutating func node(_ node: JSONValue, at pointer: JSONPointer, depth: Int, inFallback: Bool) {
        guard depth <= lint.maximumNodeDepth, let object = node.objectValue, let name = object["type"]?.stringValue
        else { return }
        let properties = object["properties"]?.objectValue ?? JSONObject()
        let at = pointer.appending("properties")
        let type = ComponentType(name: name)
        if type.isInput { input(type, properties, at: at, inFallback: inFallback) }
        switch type {
        case .image: image(properties, at: at)
        case .button: button(properties, at: at, inFallback: inFallback)
        default: break
        }
        for (index, child) in (object["children"]?.arrayValue ?? []).enumerated() {
            self.node(
                child, at: pointer.appending("children").appending(index), depth: depth + 1, inFallback: inFallback)
        }
        // A fallback stands in for its node: it may repeat the node's label and title.
        if let fallback = object["fallback"], !fallback.isNull {
            self.node(fallback, at: pointer.appending("fallback"), depth: depth + 1, inFallback: true)
        }
    }

    private mutating func input(
        _ type: ComponentType, _ properties: JSONObject, at pointer: JSONPointer, inFallback: Bool
    ) {
        let label = properties["label"]?.stringValue
        // quickReplies take no label (docs/wire-format.md vocabulary): the message before them asks the question.
        if Self.isBlank(label), type != .quickReplies {
            let placeholder =
                Self.isBlank(properties["placeholder"]?.stringValue)
                ? "" : " A placeholder is not one: it disappears once someone types."
            report(
                .inputWithoutLabel, pointer.appending("label"),
                "This input has no \"label\" for people to read and screen readers to announce.\(placeholder)")
        } else if let label, !Self.isBlank(label), !inFallback {
            let key = Self.folded(label)
            if let first = labels[key] {
                report(
                    .duplicateInputLabel, pointer.appending("label"),
                    "Another input of this screen (\(first)) is labelled \(Self.quoted(label)); give each a label that says what it asks."
                )
            } else {
                labels[key] = pointer.appending("label")
            }
        }
        var options: [String: String] = [:]
        for (index, option) in (properties["options"]?.arrayValue ?? []).enumerated() {
            guard let text = option.stringValue else { continue }
            let key = Self.folded(text)
            if let first = options[key], first != text {
                report(
                    .duplicateOptionLabel, pointer.appending("options").appending(index),
                    "\(Self.quoted(text)) reads the same as \(Self.quoted(first)); people cannot tell the options apart."
                )
            } else if options[key] == nil {
                options[key] = text
            }
        }
        rules(properties["validation"], at: pointer.appending("validation"))
    }

    private mutating func rules(_ validation: JSONValue?, at pointer: JSONPointer) {
        let message =
            "This rule has no \"message\"; say what is wrong and how to fix it, in words (e.g. \"Use the two-letter code.\")."
        switch validation {
        case .object(let short)?:
            if Self.isBlank(short["message"]?.stringValue) { report(.ruleWithoutMessage, pointer, message) }
        case .array(let rules)?:
            for (index, rule) in rules.enumerated()
            where rule.objectValue != nil && Self.isBlank(rule["message"]?.stringValue) {
                report(.ruleWithoutMessage, pointer.appending(index), message)
            }
        default:
            break
        }
    }

    private mutating func image(_ properties: JSONObject, at pointer: JSONPointer) {
        guard Self.isBlank(properties["alt"]?.stringValue), properties["decorative"]?.boolValue != true else { return }
        report(
            .imageWithoutAlt, pointer.appending("alt"),
            "This image has no \"alt\" text; describe what it shows, or mark it \"decorative\": true when it adds nothing."
        )
    }

    private mutating func button(_ properties: JSONObject, at pointer: JSONPointer, inFallback: Bool) {
        let title = properties["title"]?.stringValue ?? ""
        if Self.isBlank(title) {
            report(
                .buttonWithoutTitle, pointer.appending("title"),
                "This button has no \"title\"; say what it does (e.g. \"Continue\").")
            return
        }
        if !title.unicodeScalars.contains(where: Self.isLetterOrDigit) {
            report(
                .buttonWithoutTitle, pointer.appending("title"),
                "\(Self.quoted(title)) is only symbols; screen readers announce them inconsistently. Say what the button does in words."
            )
        }
        if title.unicodeScalars.count > lint.maximumButtonTitleLength {
            report(
                .buttonTitleTooLong, pointer.appending("title"),
                "This title is \(title.unicodeScalars.count) characters long, over \(lint.maximumButtonTitleLength); name the action in a few words and put the rest in a text."
            )
        }
        guard !inFallback else { return }
        let action = properties["action"].map { CanonicalJSON.string($0) } ?? ""
        let key = Self.folded(title)
        if let first = buttons[key] {
            if first.action != action {
                report(
                    .duplicateButtonTitle, pointer.appending("title"),
                    "Another button of this screen (\(first.pointer)) is titled \(Self.quoted(title)) but does something else; give each a title that tells them apart."
                )
            }
        } else {
            buttons[key] = (pointer.appending("title"), action)
        }
    }

    private mutating func report(_ code: LintCode, _ pointer: JSONPointer, _ message: String) {
        let key = "\(code.rawValue) \(pointer.description)"
        guard !reported.contains(key) else { return }
        reported.insert(key)
        let suffix = locale.map { " (in \"\($0)\")" } ?? ""
        problems.append(LintProblem(code, pointer: pointer, message: message + suffix, severity: severity))
    }

    static func isBlank(_ text: String?) -> Bool {
        guard let text else { return true }
        return text.unicodeScalars.allSatisfy { $0.properties.isWhitespace }
    }

    /// Lower-cased with runs of white space made one space and the ends trimmed: how alike two texts read.
    static func folded(_ text: String) -> String {
        text.lowercased().split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }

    static func isLetterOrDigit(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter, .decimalNumber,
            .letterNumber, .otherNumber:
            return true
        default:
            return false
        }
    }

    static func quoted(_ text: String) -> String { "\"\(text)\"" }
}
