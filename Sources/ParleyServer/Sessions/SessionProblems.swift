import ParleyCore
import ParleyHTTP

/// The problem documents of the session endpoints (DESIGN.md "Sessions"); conflicts and
/// rejections carry the current snapshot so a client can redraw without another request.
extension ServiceProblem {
    /// 410: the session was idle past its TTL.
    static func sessionExpired() -> HTTPError {
        make(
            HTTPStatus(code: 410), "session-expired", "The session has expired",
            "The session was idle longer than its time to live; start a new one.")
    }

    /// 410: the session was erased on request; nothing of its answers is left.
    static func sessionErased() -> HTTPError {
        make(
            HTTPStatus(code: 410), "session-erased", "The session was erased",
            "The session's answers were erased on request; start a new one.")
    }

    /// 409 with the current snapshot: `step-mismatch`, `stale-rev`, `session-completed`, `at-start`.
    static func sessionConflict(_ name: String, _ detail: String, _ snapshot: SessionSnapshot) -> HTTPError {
        make(
            .conflict, name, "The request conflicts with the session's current state", detail,
            [("snapshot", .rawJSON(String(decoding: snapshot.body, as: UTF8.self)))])
    }

    /// 422: the step's answers did not validate; the interpreter's errors and the unchanged snapshot.
    /// `cleared`: the submitted fields whose input is hidden (DESIGN.md "Expressions"), never validated.
    static func invalidAnswers(_ outcome: ValidationOutcome, snapshot: SessionSnapshot, cleared: [String] = [])
        -> HTTPError
    {
        guard case .object(let object) = outcome.json else { return HTTPError(.internalServerError) }
        return make(
            .unprocessableContent, "invalid-answers", "The answers did not pass validation",
            "\(outcome.errors.count) field\(outcome.errors.count == 1 ? "" : "s") failed validation.",
            [
                ("cleared", .rawJSON(CanonicalJSON.string(.array(cleared.map(JSONValue.string))))),
                ("errors", .rawJSON(CanonicalJSON.string(object["errors"] ?? []))),
                ("deferred", .rawJSON(CanonicalJSON.string(object["deferred"] ?? []))),
                ("snapshot", .rawJSON(String(decoding: snapshot.body, as: UTF8.self))),
            ])
    }

    /// 422: an `Idempotency-Key` reused with another request body.
    static func idempotencyKeyReused() -> HTTPError {
        make(
            .unprocessableContent, "idempotency-key-reused", "The Idempotency-Key was used for another request",
            "This Idempotency-Key was already used with a different body; use a new key for a new request.")
    }

    /// 409: the first request with this `Idempotency-Key` is still being processed.
    static func idempotencyInFlight() -> HTTPError {
        make(
            .conflict, "idempotency-in-flight", "A request with this Idempotency-Key is in progress",
            "The first request with this Idempotency-Key has not finished; retry shortly.",
            headers: ["Retry-After": "1"])
    }
}
