public import ParleyCore

// Rule modifiers append to the input's ordered `validation` list in call
// order (docs/rules.md: the first failing rule is reported).
// Each is declared only for the input kinds where it makes sense.

extension Component where Kind: InputKind {
    /// Marks the answer sensitive (a passport number, a date of birth): the server encrypts it at
    /// rest, and cores must not write it to disk or logs.
    public func sensitive() -> Self { with("sensitive", .bool(true)) }

    /// Appends a rule.
    public func rule(_ check: Rule.Check, _ message: String? = nil) -> Self {
        var copy = self
        copy.draft.validation.append(Rule(check, message: message))
        return copy
    }

    /// `required`: the answer must be non-empty.
    public func required(_ message: String? = nil) -> Self { rule(.required, message) }

    /// `requiredIf`: required when the predicate holds, e.g. `Field("purpose") == "work"`.
    public func requiredIf(_ when: Predicate, _ message: String? = nil) -> Self { rule(.requiredIf(when), message) }

    /// `equalsField`: the answer must equal another field's, scalar by scalar.
    public func equalsField(_ field: Field, _ message: String? = nil) -> Self {
        rule(.equalsField(field.name), message)
    }
}

extension Component where Kind: TextInputKind {
    /// `minLength`, in Unicode scalar values.
    public func minLength(_ count: Int, _ message: String? = nil) -> Self { rule(.minLength(count), message) }

    /// `maxLength`, in Unicode scalar values.
    public func maxLength(_ count: Int, _ message: String? = nil) -> Self { rule(.maxLength(count), message) }

    /// `pattern`: an I-Regexp (RFC 9485) matching the whole value.
    public func pattern(_ pattern: String, _ message: String? = nil) -> Self { rule(.pattern(pattern), message) }

    /// `email`: an RFC 5321 mailbox.
    public func email(_ message: String? = nil) -> Self { rule(.email, message) }

    /// `oneOf`: the answer must be one of `values`.
    public func oneOf(_ values: [String], _ message: String? = nil) -> Self { rule(.oneOf(values), message) }
}

extension Component where Kind: ChoiceInputKind {
    /// `oneOf`: the answer must be one of `values`.
    public func oneOf(_ values: [String], _ message: String? = nil) -> Self { rule(.oneOf(values), message) }
}

extension Component where Kind: NumericInputKind {
    /// `minimum` (inclusive, exact decimal comparison).
    public func minimum(_ value: DecimalValue, _ message: String? = nil) -> Self {
        rule(.minimum(value.number), message)
    }

    /// `maximum` (inclusive).
    public func maximum(_ value: DecimalValue, _ message: String? = nil) -> Self {
        rule(.maximum(value.number), message)
    }

    /// `exclusiveMinimum`.
    public func exclusiveMinimum(_ value: DecimalValue, _ message: String? = nil) -> Self {
        rule(.exclusiveMinimum(value.number), message)
    }

    /// `exclusiveMaximum`.
    public func exclusiveMaximum(_ value: DecimalValue, _ message: String? = nil) -> Self {
        rule(.exclusiveMaximum(value.number), message)
    }

    /// `multipleOf` (the value must be greater than 0).
    public func multipleOf(_ value: DecimalValue, _ message: String? = nil) -> Self {
        precondition(!value.number.isNegative && !value.number.isZero, "multipleOf needs a number greater than 0")
        return rule(.multipleOf(value.number), message)
    }

    /// `integer`: a whole number.
    public func integer(_ message: String? = nil) -> Self { rule(.integer, message) }
}

extension Component where Kind: DateInputKind {
    /// `date`: an RFC 3339 `full-date`, optionally within `min`…`max`.
    public func date(min: String? = nil, max: String? = nil, _ message: String? = nil) -> Self {
        rule(.date(min: min, max: max), message)
    }
}
