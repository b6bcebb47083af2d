/// Submitted answers: `fieldId → string` (docs/rules.md).
///
/// Keys compare scalar by scalar (``ScalarKey``), never with Swift's
/// canonical-equivalence `==`, so "ä" and "a\u{308}" are different fields.
/// `null` means absent: such a key is dropped, exactly as if it were missing.
public struct Answers: Sendable, Equatable {
    private var values: [ScalarKey: String]
    /// The field ids that have a (non-null) value, in Unicode scalar order.
    public private(set) var fieldIds: [String]

    /// No answers.
    public init() {
        values = [:]
        fieldIds = []
    }

    /// Answers from a dictionary (a later scalar-equal key cannot occur: keys are scalar-distinct).
    public init(_ values: [String: String]) {
        self.init()
        for (key, value) in values { self[key] = value }
    }

    /// Answers from a JSON object whose members are strings or `null`.
    public init(_ json: JSONValue) throws(AnswersError) {
        guard case .object(let object) = json else {
            throw AnswersError(pointer: .root, message: "answers must be an object, found \(json.kindDescription)")
        }
        self.init()
        for member in object {
            switch member.value {
            case .null: continue
            case .string(let value): self[member.key] = value
            default:
                throw AnswersError(
                    pointer: JSONPointer.root.appending(member.key),
                    message:
                        "the answer for \"\(member.key)\" must be a string or null, found \(member.value.kindDescription)"
                )
            }
        }
    }

    /// The answer for a field; `nil` when absent. Assigning `nil` removes it.
    public subscript(fieldId: String) -> String? {
        get { values[ScalarKey(fieldId)] }
        set {
            let key = ScalarKey(fieldId)
            let existed = values[key] != nil
            values[key] = newValue
            switch (existed, newValue) {
            case (false, .some):
                fieldIds.insert(fieldId, at: position(of: fieldId))
            case (true, .none):
                let index = position(of: fieldId)
                if index < fieldIds.count, fieldIds[index].isScalarEqual(to: fieldId) { fieldIds.remove(at: index) }
            default: break
            }
        }
    }

    /// Where `fieldId` is or belongs in ``fieldIds`` (the first id it does not follow), by binary
    /// search: the answers of a long path are merged field by field on every step.
    private func position(of fieldId: String) -> Int {
        var low = 0
        var high = fieldIds.count
        while low < high {
            let middle = (low + high) / 2
            if fieldIds[middle].scalarPrecedes(fieldId) { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// Whether the field's answer is *empty*: absent, or made only of U+0009,
    /// U+000A, U+000D and U+0020 (docs/rules.md: a fixed set, so every platform agrees).
    public func isEmpty(_ fieldId: String) -> Bool {
        Answers.isEmpty(self[fieldId])
    }

    /// Whether a value is *empty* in the sense of docs/rules.md.
    public static func isEmpty(_ value: String?) -> Bool {
        guard let value else { return true }
        return value.utf8.allSatisfy { $0 == 0x09 || $0 == 0x0A || $0 == 0x0D || $0 == 0x20 }
    }

    /// The answers as a JSON object of strings.
    public var json: JSONValue {
        var object = JSONObject()
        for fieldId in fieldIds { object[fieldId] = values[ScalarKey(fieldId)].map(JSONValue.string) }
        return .object(object)
    }

    /// Appends ``json``'s canonical bytes (``CanonicalJSON``) without building it: the fields are
    /// in scalar order already, as canonical JSON sorts them.
    public func writeCanonicalJSON(into output: inout [UInt8]) {
        output.append(UInt8(ascii: "{"))
        for (position, fieldId) in fieldIds.enumerated() {
            guard let value = values[ScalarKey(fieldId)] else { continue }
            if position > 0 { output.append(UInt8(ascii: ",")) }
            CanonicalJSON.writeString(fieldId, into: &output)
            output.append(UInt8(ascii: ":"))
            CanonicalJSON.writeString(value, into: &output)
        }
        output.append(UInt8(ascii: "}"))
    }

    public static func == (lhs: Answers, rhs: Answers) -> Bool {
        lhs.values.count == rhs.values.count
            && lhs.values.allSatisfy { rhs.values[$0.key]?.isScalarEqual(to: $0.value) == true }
    }
}

extension Answers: ExpressibleByDictionaryLiteral {
    /// Answers written as a literal, mostly for tests.
    public init(dictionaryLiteral elements: (String, String)...) {
        self.init()
        for (key, value) in elements { self[key] = value }
    }
}
