import ParleyCore
import ParleyHTTP

/// What `POST /v1/sessions/{id}/answers` reads from its request: the client's `rev`, the `step`
/// it answers, its `answers`, and the retry its `Idempotency-Key` makes it.
///
/// The body a client sends (`{"rev":1,"step":"country","answers":{"passportCountry":"FR"}}`) is
/// read in one pass straight into these (``plain(_:)``), with no ``JSONValue`` made and freed
/// between (issue 27: ~5,800 instructions an answer). Anything else (another member or kind of
/// value, an escape, a duplicate, a number the parser might read otherwise, malformed JSON, an
/// `Idempotency-Key`, whose fingerprint hashes the parsed body) is read as it always was: by
/// ``JSONBody`` and ``SessionRequest``, so every error, and the order they are found in, is theirs.
struct AnswerRequest {
    /// The rev of the snapshot the client shows.
    let rev: Int
    /// The id of the step it answers.
    let step: String
    /// The step's answers, each within the length limit.
    let answers: Answers
    /// Set when the request has an `Idempotency-Key`.
    let retry: IdempotentRequest?

    /// Reads the request; 415 for a non-JSON media type, 400 for a body without the three members
    /// or an answer over `maxLength` characters, as ``JSONBody`` and ``SessionRequest`` say.
    static func read(_ request: HTTPRequest, maxLength: Int) throws(HTTPError) -> AnswerRequest {
        try JSONBody.check(request)
        // Without the header, ``SessionRequest/idempotencyKey(_:)`` is nil and throws nothing.
        if !request.headers.contains("Idempotency-Key"), let plain = plain(request.body) {
            // An answer has no more characters than bytes, nor more bytes than the body.
            if request.body.count > maxLength {
                try SessionRequest.checkLengths(of: plain.answers, maxLength: maxLength)
            }
            return AnswerRequest(rev: plain.rev, step: plain.step, answers: plain.answers, retry: nil)
        }
        let body = try JSONBody.object(checked: request)
        let rev = try SessionRequest.rev(body)
        guard case .string(let step) = body["step"] else {
            throw ServiceProblem.malformedBody("\"step\" is required: the id of the step you answer")
        }
        let answers = try SessionRequest.answers(body, maxLength: maxLength)
        let retry = try SessionRequest.idempotencyKey(request).map {
            IdempotentRequest(key: $0, fingerprint: SessionRequest.fingerprint("answers", body))
        }
        return AnswerRequest(rev: rev, step: step, answers: answers, retry: retry)
    }

    /// The body's `rev`, `step` and `answers` when it is an object of exactly those three members,
    /// in any order: `rev` a positive integer, `step` a string, `answers` an object of strings and
    /// `null`s, every string plain (``PlainJSONReader``); otherwise nil. When not nil, these are
    /// what ``JSONParser`` and ``SessionRequest`` would read: the parser accepts the body (no
    /// U+0000 can be in it without an escape), its `rev` is that integer, above zero, and its
    /// answers are the same (``Answers/init(members:)``, nil for a duplicate id as the parser
    /// refuses one).
    static func plain(_ body: [UInt8]) -> (rev: Int, step: String, answers: Answers)? {
        PlainJSONReader.read(body) { reader in
            var rev: Int?
            var step: String?
            var answers: Answers?
            let read = reader.object { reader, name in
                if PlainJSONReader.isName(name, "rev") {
                    guard rev == nil, let value = reader.positiveInteger() else { return false }
                    rev = value
                } else if PlainJSONReader.isName(name, "step") {
                    guard step == nil, let value = reader.string() else { return false }
                    step = PlainJSONReader.text(value)
                } else if PlainJSONReader.isName(name, "answers") {
                    guard answers == nil, let value = plainAnswers(&reader) else { return false }
                    answers = value
                } else {
                    return false
                }
                return true
            }
            guard read, reader.isAtEnd(), let rev, let step, let answers else { return nil }
            return (rev, step, answers)
        }
    }

    /// Most members an answers object read on the fast path may have; one with more is parsed.
    /// Room for them is on the stack while it is read.
    static let maximumPlainMembers = 64

    /// An object of plain strings and `null`s, as ``Answers``.
    private static func plainAnswers(_ reader: inout PlainJSONReader) -> Answers? {
        // A member is at least 5 bytes (`"":""`) and a comma: no more than that many fit.
        let capacity = min(maximumPlainMembers, reader.inputCount / 6 + 1)
        return withUnsafeTemporaryAllocation(of: Answers.FoundMember.self, capacity: capacity) { members -> Answers? in
            guard let member = members.baseAddress else { return nil }
            var count = 0
            let read = reader.object { reader, id in
                guard count < capacity else { return false }
                let value: UnsafeBufferPointer<UInt8>?
                if reader.takeNull() {
                    value = nil
                } else {
                    guard let text = reader.string() else { return false }
                    value = text
                }
                // A trivial type (two buffer pointers): initialized in place, never deinitialized.
                (member + count).initialize(to: Answers.FoundMember(id: id, value: value))
                count += 1
                return true
            }
            guard read else { return nil }
            return Answers(members: UnsafeMutableBufferPointer(start: member, count: count))
        }
    }
}
