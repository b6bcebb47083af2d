public import ParleyCore
public import ParleyHTTP

/// The problem documents (RFC 9457) the service answers with. Each `type` is a
/// stable URN clients may switch on; `detail` says what to fix.
public enum ServiceProblem {
    static func make(
        _ status: HTTPStatus, _ name: String, _ title: String, _ detail: String?,
        _ members: [(name: String, value: HTTPError.Member)] = [], headers: HTTPHeaders = [:]
    ) -> HTTPError {
        HTTPError(
            status, type: "urn:parley:problem:\(name)", title: title, detail: detail, members: members, headers: headers
        )
    }

    /// 400: the body is not JSON (with line and column) or not the expected shape.
    public static func malformedBody(_ detail: String) -> HTTPError {
        make(.badRequest, "malformed-body", "The request body is not valid", detail)
    }

    /// 415: the body is not `application/json`.
    public static func unsupportedMediaType(_ found: String) -> HTTPError {
        make(
            .unsupportedMediaType, "unsupported-media-type", "Send JSON",
            "Content-Type is \"\(found)\"; send application/json.")
    }

    /// 400: a malformed `Parley-Core` header or query parameter.
    public static func badParameter(_ detail: String) -> HTTPError {
        make(.badRequest, "bad-parameter", "A request parameter is not valid", detail)
    }

    /// 422: the document has lint problems (every one of them, with pointers).
    public static func lintFailed(_ problems: [LintProblem]) -> HTTPError {
        make(
            .unprocessableContent, "lint-failed", "The flow has problems",
            "\(problems.count) problem\(problems.count == 1 ? "" : "s") found; fix them and post again.",
            [("problems", .rawJSON(CanonicalJSON.string(.array(problems.map(\.json)))))])
    }

    /// 422: the answers did not validate; `errors` is exactly the interpreter's list.
    public static func invalidAnswers(_ outcome: ValidationOutcome) -> HTTPError {
        guard case .object(let object) = outcome.json else { return internalMismatch }
        return make(
            .unprocessableContent, "invalid-answers", "The answers did not pass validation",
            "\(outcome.errors.count) field\(outcome.errors.count == 1 ? "" : "s") failed validation.",
            [
                ("errors", .rawJSON(CanonicalJSON.string(object["errors"] ?? []))),
                ("deferred", .rawJSON(CanonicalJSON.string(object["deferred"] ?? []))),
            ])
    }

    private static let internalMismatch = HTTPError(.internalServerError)

    /// 404 with a sentence naming what is missing.
    public static func notFound(_ detail: String) -> HTTPError {
        make(.notFound, "not-found", "Not found", detail)
    }

    /// 409: e.g. a submit for a version that was never released.
    public static func conflict(_ name: String, _ detail: String) -> HTTPError {
        make(.conflict, name, "The request conflicts with the current state", detail)
    }

    /// 412: `If-Match` does not name the latest version.
    public static func preconditionFailed(latest: Int?) -> HTTPError {
        make(
            .preconditionFailed, "version-conflict", "The flow changed since you read it",
            "If-Match does not name the latest version"
                + (latest.map { " (latest is \($0)); re-read it and merge your change." } ?? " (the flow has none)."),
            latest.map { [("latestVersion", .integer($0))] } ?? [])
    }

    /// 401: no or an unknown token.
    public static func unauthorized(_ detail: String) -> HTTPError {
        make(.unauthorized, "unauthorized", "Authentication required", detail, headers: ["WWW-Authenticate": "Bearer"])
    }

    /// 403: the token's scope does not allow the call.
    public static func forbidden(_ detail: String) -> HTTPError {
        make(.forbidden, "forbidden", "Not allowed", detail)
    }

    /// 422: a bundle whose signature or key is not trusted; nothing was stored.
    public static func untrustedBundle(_ detail: String) -> HTTPError {
        make(.unprocessableContent, "untrusted-bundle", "The bundle was refused; nothing was stored", detail)
    }

    /// 503: the database cannot be reached.
    public static func unavailable(_ detail: String) -> HTTPError {
        make(.serviceUnavailable, "unavailable", "Temporarily unavailable", detail, headers: ["Retry-After": "1"])
    }
}
