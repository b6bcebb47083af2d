import ParleyCore

/// Sensitive answers at rest (issue 18): in every stored answers object a sensitive field's value
/// is `{"$sealed": "<key id>:<base64 AES-256-GCM box>"}`, bound to the session (its key, the
/// SHA-256 of its id) and the field id, so a ciphertext copied to another row or field does not
/// open. Answer values are always strings, so the object form cannot be mistaken for an answer.
struct AnswerSealing: Sendable {
    static let marker = "$sealed"

    let keyring: DataKeyring

    /// Stored JSON for `answers`: the fields in `sensitive` sealed.
    func seal(_ answers: Answers, sensitive: Set<String>, session: [UInt8]) throws(DataKeyring.Failure) -> JSONValue {
        guard !sensitive.isEmpty else { return answers.json }
        var object = JSONObject()
        for field in answers.fieldIds {
            guard let value = answers[field] else { continue }
            if sensitive.contains(field) {
                let sealed = try keyring.seal(Array(value.utf8), context: Self.context(session, field))
                object[field] = .object(JSONObject([(Self.marker, .string(sealed))]))
            } else {
                object[field] = .string(value)
            }
        }
        return .object(object)
    }

    /// Answers from stored JSON, sealed values opened.
    func open(_ stored: JSONValue, session: [UInt8]) throws -> Answers {
        guard case .object(let object) = stored, object.contains(where: { $0.value.isSealed }) else {
            return try Answers(stored)
        }
        var opened = JSONObject()
        for member in object {
            guard case .object(let box) = member.value, let sealed = box[Self.marker]?.stringValue else {
                opened[member.key] = member.value
                continue
            }
            let plaintext = try keyring.open(sealed, context: Self.context(session, member.key))
            opened[member.key] = .string(String(decoding: plaintext, as: UTF8.self))
        }
        return try Answers(.object(opened))
    }

    /// Re-seals every sealed value of stored JSON with the current key (rotation); nil when nothing
    /// needed it.
    func resealed(_ stored: JSONValue, session: [UInt8]) throws(DataKeyring.Failure) -> JSONValue? {
        guard case .object(let object) = stored, let current = keyring.currentId else { return nil }
        var changed = false
        var result = JSONObject()
        for member in object {
            guard case .object(let box) = member.value, let sealed = box[Self.marker]?.stringValue,
                DataKeyring.keyId(of: sealed) != current
            else {
                result[member.key] = member.value
                continue
            }
            let context = Self.context(session, member.key)
            let plaintext = try keyring.open(sealed, context: context)
            result[member.key] = .object(
                JSONObject([(Self.marker, .string(try keyring.seal(plaintext, context: context)))]))
            changed = true
        }
        return changed ? .object(result) : nil
    }

    /// Associated data: the session's key, a NUL, the field id.
    static func context(_ session: [UInt8], _ field: String) -> [UInt8] { session + [0] + Array(field.utf8) }
}

extension JSONValue {
    /// Whether this is a sealed answer.
    var isSealed: Bool {
        guard case .object(let object) = self else { return false }
        return object[AnswerSealing.marker] != nil
    }
}
