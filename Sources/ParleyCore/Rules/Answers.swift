/// Submitted answers: `fieldId → string` (docs/rules.md).
///
/// Keys compare scalar by scalar (``ScalarKey``), never with Swift's
/// canonical-equivalence `==`, so "ä" and "a\u{308}" are different fields.
/// `null` means absent: such a key is dropped, exactly as if it were missing.
public struct Answers: Sendable, Equatable {
    /// The field ids that have a (non-null) value, in Unicode scalar order.
    public private(set) var fieldIds: [String]
    /// Each field's value, at its id's index in ``fieldIds``. Found by binary search: a step's
    /// answers are a handful and a path's a few dozen, where hashing each id (a dictionary
    /// beside the sorted ids) cost more than the search, on every lookup of every rule.
    private var values: [String]

    /// No answers.
    public init() {
        values = []
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
        fieldIds.reserveCapacity(object.count)
        values.reserveCapacity(object.count)
        // An object's members are sorted by key in scalar order and unique already (``JSONObject``):
        // appended as they come, with no search for each one's place.
        for member in object {
            switch member.value {
            case .null: continue
            case .string(let value):
                fieldIds.append(member.key)
                values.append(value)
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
        get {
            let index = position(of: fieldId)
            guard index < fieldIds.count, fieldIds[index].isScalarEqual(to: fieldId) else { return nil }
            return values[index]
        }
        set {
            let index = position(of: fieldId)
            let existed = index < fieldIds.count && fieldIds[index].isScalarEqual(to: fieldId)
            switch (existed, newValue) {
            case (true, .some(let value)):
                values[index] = value
            case (false, .some(let value)) where index == fieldIds.count:
                // In order (a JSON object's members are): an append, not the generic insert.
                fieldIds.append(fieldId)
                values.append(value)
            case (false, .some(let value)):
                fieldIds.insert(fieldId, at: index)
                values.insert(value, at: index)
            case (true, .none):
                fieldIds.remove(at: index)
                values.remove(at: index)
            case (false, .none): break
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

    /// The first field (in ``fieldIds`` order) whose answer has more than `maxLength` Unicode
    /// scalars. Scalars are never more than UTF-8 bytes, so only an answer of more bytes than
    /// that is counted: a field looked up and its scalars counted cost ~500 instructions an answer.
    public func firstField(longerThan maxLength: Int) -> String? {
        for index in values.indices
        where values[index].utf8.count > maxLength && values[index].unicodeScalars.count > maxLength {
            return fieldIds[index]
        }
        return nil
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
        for (fieldId, value) in zip(fieldIds, values) { object[fieldId] = .string(value) }
        return .object(object)
    }

    /// Appends ``json``'s canonical bytes (``CanonicalJSON``) without building it: the fields are
    /// in scalar order already, as canonical JSON sorts them.
    public func writeCanonicalJSON(into output: inout [UInt8]) {
        output.append(UInt8(ascii: "{"))
        for (position, (fieldId, value)) in zip(fieldIds, values).enumerated() {
            if position > 0 { output.append(UInt8(ascii: ",")) }
            CanonicalJSON.writeString(fieldId, into: &output)
            output.append(UInt8(ascii: ":"))
            CanonicalJSON.writeString(value, into: &output)
        }
        output.append(UInt8(ascii: "}"))
    }

    public static func == (lhs: Answers, rhs: Answers) -> Bool {
        // Both sorted the same way: equal sets of fields with equal values pair up in order.
        lhs.fieldIds.count == rhs.fieldIds.count
            && lhs.fieldIds.indices.allSatisfy {
                lhs.fieldIds[$0].isScalarEqual(to: rhs.fieldIds[$0]) && lhs.values[$0].isScalarEqual(to: rhs.values[$0])
            }
    }
}

extension Answers: ExpressibleByDictionaryLiteral {
    /// Answers written as a literal, mostly for tests.
    public init(dictionaryLiteral elements: (String, String)...) {
        self.init()
        for (key, value) in elements { self[key] = value }
    }
}
