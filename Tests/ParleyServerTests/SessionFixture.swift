import Foundation
import ParleyCore

@testable import ParleyServer

/// The flow and requests of the session scenarios (issue 11).
enum SessionFixture {
    /// Five steps: `email` → `purpose` → `employer` (work) or `holiday` (anything else) → `confirm`
    /// → `done`. `confirm` holds `emailAgain`, which must equal `email` from the first step: a
    /// cross-step `equalsField` (core 1.2; deferred on older cores, enforced by the server).
    static func signup(id: String, title: String = "Sign-up") -> String {
        func step(_ name: String, _ field: String, rules: String, next: String) -> String {
            """
            { "id": "\(name)", "screen": { "id": "\(name)", "root": { "type": "vstack", "id": "root", "children": [
                { "type": "textField", "id": "\(field)", "properties": { "fieldId": "\(field)", "label": "\(field)",
                  "validation": [\(rules)] } },
                { "type": "button", "id": "next", "properties": { "title": "Next", "action": { "type": "submit" } } }
              ] } }, "next": \(next) }
            """
        }
        let required = #"{ "rule": "required", "message": "Required." }"#
        return """
            { "schema": "parley.flow/1", "id": \(FlowFixture.quoted(id)), "title": \(FlowFixture.quoted(title)),
              "start": "email",
              "steps": [
                \(step("email", "email", rules: required + #", { "rule": "email", "message": "Not an e-mail." }"#,
                    next: #"[ { "goto": "purpose" } ]"#)),
                { "id": "purpose", "screen": { "id": "purpose", "root": { "type": "vstack", "id": "root", "children": [
                    { "type": "picker", "id": "purpose", "properties": { "fieldId": "purpose", "label": "Purpose",
                      "options": ["work", "holiday"],
                      "validation": [ \(required), { "rule": "oneOf", "values": ["work", "holiday"] } ] } },
                    { "type": "button", "id": "next", "properties": { "title": "Next", "action": { "type": "submit" } } }
                  ] } },
                  "next": [ { "when": { "field": "purpose", "equals": "work" }, "goto": "employer" },
                            { "goto": "holiday" } ] },
                \(step("employer", "employer", rules: required, next: #"[ { "goto": "confirm" } ]"#)),
                \(step("holiday", "destination", rules: required, next: #"[ { "goto": "confirm" } ]"#)),
                \(step("confirm", "emailAgain", rules: required
                    + #", { "rule": "equalsField", "field": "email", "message": "The e-mails differ." }"#,
                    next: #"[ { "goto": "done" } ]"#)),
                { "id": "done", "screen": { "id": "done",
                  "root": { "type": "text", "id": "thanks", "properties": { "text": "Thanks!" } } }, "next": [] } ],
              "upgrade": { "id": "upgrade",
                "root": { "type": "text", "id": "please", "properties": { "text": "Please update the app." } } } }
            """
    }

    /// Posts and releases `signup` under a fresh id; returns the id.
    static func released(_ service: ServiceHarness, prefix: String) throws -> String {
        let id = FlowFixture.uniqueId(prefix)
        let posted = try service.postFlow(signup(id: id))
        guard posted.status == 201 else { throw Failure(description: "post: \(posted)") }
        let released = try service.release(id, version: 1)
        guard released.status == 201 else { throw Failure(description: "release: \(released)") }
        return id
    }

    /// The `sessions.key` of an id, as the server computes it (``SessionID/key(of:)``).
    static func key(_ id: String) -> Data { Data(SessionID.key(of: id).bytes) }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }
}

extension ServiceHarness {
    /// `POST /v1/sessions` as a client with this core.
    func startSession(_ flow: String, core: String = "1.2.0", on client: RawHTTPClient? = nil) throws -> RawResponse {
        try (client ?? self.client).send(
            "POST", "/v1/sessions", headers: [("Content-Type", "application/json"), ("Parley-Core", core)],
            body: CanonicalJSON.encode(["flow": .string(flow)]))
    }

    /// `POST /v1/sessions/{id}/answers` for the snapshot's current step and rev unless overridden.
    func answer(
        _ snapshot: JSONValue, _ answers: Answers, step: String? = nil, rev: Int? = nil, key: String? = nil,
        on client: RawHTTPClient? = nil, timeout: Int = 30
    ) throws -> RawResponse {
        let body: JSONValue = [
            "rev": .number(JSONNumber(rev ?? snapshot.rev)), "step": .string(step ?? snapshot.step),
            "answers": answers.json,
        ]
        var headers = [("Content-Type", "application/json")]
        if let key { headers.append(("Idempotency-Key", key)) }
        return try (client ?? self.client).send(
            "POST", "/v1/sessions/\(snapshot.sessionId)/answers", headers: headers, body: CanonicalJSON.encode(body),
            timeout: timeout)
    }

    /// `POST /v1/sessions/{id}/back`.
    func back(_ snapshot: JSONValue, rev: Int? = nil) throws -> RawResponse {
        try client.send(
            "POST", "/v1/sessions/\(snapshot.sessionId)/back", headers: [("Content-Type", "application/json")],
            body: CanonicalJSON.encode(["rev": .number(JSONNumber(rev ?? snapshot.rev))]))
    }

    /// Answers the current step and requires a 200; returns the next snapshot.
    func advance(_ snapshot: JSONValue, _ answers: Answers) throws -> JSONValue {
        let response = try answer(snapshot, answers)
        guard response.status == 200 else { throw SessionFixture.Failure(description: "answer: \(response)") }
        return response.json
    }
}

extension JSONValue {
    /// A snapshot's session id.
    var sessionId: String { self["session"]?.stringValue ?? "" }
    /// A snapshot's rev.
    var rev: Int { self["rev"]?.numberValue?.intValue ?? 0 }
    /// A snapshot's current step.
    var step: String { self["step"]?.stringValue ?? "" }
    /// An answer response as the snapshot it carries: without the `cleared` member every answer
    /// response adds (docs/expressions.md).
    var snapshot: JSONValue {
        guard case .object(var object) = self else { return self }
        object["cleared"] = nil
        return .object(object)
    }
    /// An outcome with the `cleared` member the server's validate endpoint adds.
    func addingCleared(_ fields: [String]) -> JSONValue {
        guard case .object(var object) = self else { return self }
        object["cleared"] = .array(fields.map(JSONValue.string))
        return .object(object)
    }
}
