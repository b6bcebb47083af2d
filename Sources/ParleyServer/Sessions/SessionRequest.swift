import ParleyCore
import ParleyCrypto
import ParleyHTTP

/// What the session endpoints read from a request, checked once with errors that say what to fix.
enum SessionRequest {
    /// The `{id}` path parameter. Anything up to 200 bytes is looked up (and is simply not found
    /// when malformed); longer is 404 too, never a 400 that would tell a guesser the shape.
    static func id(_ context: RequestContext) throws(HTTPError) -> SessionID {
        SessionID(try idText(context))
    }

    /// The session id's text from the path, not yet hashed into its key (a cached state holds
    /// the key already); 404 for an empty or overlong one, as ``id(_:)``.
    static func idText(_ context: RequestContext) throws(HTTPError) -> String {
        guard let text = context.parameters["id"], !text.isEmpty, text.utf8.count <= 200 else {
            throw ServiceProblem.notFound("no such session")
        }
        return text
    }

    /// The positive `rev` the client last saw; a body without one is a 400.
    static func rev(_ body: JSONObject) throws(HTTPError) -> Int {
        guard let rev = body["rev"]?.numberValue?.intValue, rev > 0 else {
            throw ServiceProblem.malformedBody("\"rev\" is required: the positive rev of the snapshot you show")
        }
        return rev
    }

    /// `answers`: an object of field id → string or null, each within the length limit.
    static func answers(_ body: JSONObject, maxLength: Int, member: String = "answers") throws(HTTPError) -> Answers {
        guard let value = body[member] else {
            throw ServiceProblem.malformedBody(
                "\"\(member)\" is required: an object of field id → string or null")
        }
        let answers: Answers
        do {
            answers = try Answers(value)
        } catch {
            throw ServiceProblem.malformedBody("\"\(member)\": \(error)")
        }
        try checkLengths(of: answers, maxLength: maxLength)
        return answers
    }

    /// 400 when an answer is longer than `maxLength` characters (the first such field's).
    static func checkLengths(of answers: Answers, maxLength: Int) throws(HTTPError) {
        if let field = answers.firstField(longerThan: maxLength) {
            throw ServiceProblem.malformedBody("the answer for \"\(field)\" is longer than \(maxLength) characters")
        }
    }

    /// The `Idempotency-Key` header (IETF httpapi draft): 1 to 255 visible ASCII characters.
    static func idempotencyKey(_ request: HTTPRequest) throws(HTTPError) -> String? {
        // One pass that builds no array (most writes carry no key).
        let (first, repeated) = request.headers.single("Idempotency-Key")
        guard let value = first else { return nil }
        guard !repeated, (1...255).contains(value.utf8.count),
            value.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F })
        else {
            throw ServiceProblem.badParameter("Idempotency-Key must be sent once, 1 to 255 visible ASCII characters")
        }
        return value
    }

    /// What identifies a request for idempotency: the operation and its body's canonical bytes.
    static func fingerprint(_ operation: String, _ body: JSONObject) -> [UInt8] {
        SHA256.hash(Array(operation.utf8) + [0] + CanonicalJSON.encode(.object(body)))
    }
}
