/// One generated answer set for a step, labelled with what it is for
/// (`parley samples`, `GET /v1/flows/{id}/versions/{n}/samples`).
///
/// `answers` holds every input of the step (so the sample can be sent as is);
/// `field` is the input the sample is about and `rule` the rule it sits at the
/// boundary of. A `fail` sample fails exactly that rule of that field and
/// nothing else on the step; a `pass` sample passes every rule.
public struct Sample: Sendable, Equatable {
    /// What the interpreter must say about the sample.
    public enum Expectation: String, Sendable {
        /// The sample passes every rule of the step.
        case pass
        /// The sample fails exactly the targeted rule and nothing else on the step.
        case fail
    }

    /// The input the sample is about.
    public let field: String
    /// The rule kind the sample targets (`nil` for the step's plain passing answers).
    public let rule: String?
    /// Position of the targeted rule in the field's `validation` array.
    public let ruleIndex: Int?
    /// Pass or fail.
    public let expectation: Expectation
    /// Every answer of the step, with `field`'s value chosen for this sample.
    public let answers: Answers
    /// Whether the client core asked about cannot check the rule (the server still does).
    public let isDeferred: Bool

    /// Creates a sample.
    public init(
        field: String, rule: String?, ruleIndex: Int?, expectation: Expectation, answers: Answers,
        isDeferred: Bool = false
    ) {
        self.field = field
        self.rule = rule
        self.ruleIndex = ruleIndex
        self.expectation = expectation
        self.answers = answers
        self.isDeferred = isDeferred
    }

    /// The sampled field's value.
    public var value: String { answers[field] ?? "" }

    /// Wire form: `{"field", "rule"?, "ruleIndex"?, "expect", "value", "answers", "deferred"?}`.
    public var json: JSONValue {
        var object = JSONObject()
        object["field"] = .string(field)
        if let rule { object["rule"] = .string(rule) }
        if let ruleIndex { object["ruleIndex"] = .number(JSONNumber(ruleIndex)) }
        object["expect"] = .string(expectation.rawValue)
        object["value"] = .string(value)
        object["answers"] = answers.json
        if isDeferred { object["deferred"] = .bool(true) }
        return .object(object)
    }
}

/// A sample the generator looked for and could not build (e.g. failing only
/// `minLength: 1`, which the empty answer passes), so gaps are visible, not silent.
public struct SampleGap: Sendable, Equatable {
    /// The input.
    public let field: String
    /// The rule kind.
    public let rule: String
    /// Position of the rule in the field's `validation` array.
    public let ruleIndex: Int
    /// What could not be built.
    public let expectation: Sample.Expectation

    /// Wire form: `{"field", "rule", "ruleIndex", "expect"}`.
    public var json: JSONValue {
        [
            "field": .string(field), "rule": .string(rule), "ruleIndex": .number(JSONNumber(ruleIndex)),
            "expect": .string(expectation.rawValue),
        ]
    }
}
