import ParleyCore

extension AnswerSealing {
    /// A completion's JSON with its `answers` opened: sensitive answers are sealed at rest (in
    /// `completions` and in the outbox) and opened only on the way to their consumer.
    func openedCompletion(_ completion: JSONValue, session: [UInt8]) throws -> JSONValue {
        guard case .object(var object) = completion, let stored = object["answers"], stored.containsSealed else {
            return completion
        }
        object["answers"] = try open(stored, session: session).json
        return .object(object)
    }

    /// A `session.completed` payload with its `data.answers` opened, re-encoded canonically.
    func openedPayload(_ payload: [UInt8], session: [UInt8]) throws -> [UInt8] {
        guard payload.count >= 7, String(decoding: payload, as: UTF8.self).contains(Self.marker) else { return payload }
        guard case .object(var object) = try JSONParser.parse(payload), let data = object["data"] else {
            return payload
        }
        object["data"] = try openedCompletion(data, session: session)
        return CanonicalJSON.encode(.object(object))
    }
}

extension JSONValue {
    /// Whether an answers object holds a sealed value.
    fileprivate var containsSealed: Bool {
        guard case .object(let object) = self else { return false }
        return object.contains { $0.value[AnswerSealing.marker] != nil }
    }
}
