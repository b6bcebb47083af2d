/// One field's answer, with what several rules need computed once.
struct FieldValue {
    /// The answer; `nil` when absent.
    let text: String?
    /// *empty* as docs/rules.md defines it.
    let isEmpty: Bool
    private var parsed: JSONNumber??

    init(_ text: String?) {
        self.text = text
        isEmpty = Answers.isEmpty(text)
    }

    /// The answer as an exact decimal, parsed on first use; `nil` when it is not the number grammar of docs/rules.md.
    mutating func number() -> JSONNumber? {
        if let parsed { return parsed }
        let number = text.flatMap { JSONNumber(parsing: $0) }
        parsed = .some(number)
        return number
    }
}
