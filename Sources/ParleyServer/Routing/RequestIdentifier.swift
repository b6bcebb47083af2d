public import ParleyHTTP

/// Gives every request an id that ties a client's report to the server's log line
/// (DESIGN.md "Operations"): a well-formed `X-Request-Id` from the client (a proxy's or the
/// app's own) is kept, anything else is replaced by a fresh one. The id is echoed in the
/// `X-Request-Id` response header, as `requestId` in every problem document, in the access-log
/// line (ParleyHTTP reads the response header) and in the metadata of the log lines about the request (`RequestContext.requestLogger`).
public struct RequestIdentifier: HTTPMiddleware {
    let maxLength: Int

    /// Client ids longer than `maxLength` are replaced.
    public init(maxLength: Int) {
        self.maxLength = maxLength
    }

    /// Tags whatever the router answers, on the loop or off it; every layer below finds the id
    /// in its context (`requestLogger` logs with it).
    public func respond(to request: HTTPRequest, context: RequestContext, next: HTTPNext<RequestContext>)
        -> HTTPReply
    {
        let id = requestId(for: request, loop: context.loopIndex)
        var context = context
        context.requestId = id
        return next(request, context).map(with: id) { Self.tag(&$0, $1) }
    }

    /// Its off-loop work only tags the rest of the chain's response, and that work renders
    /// every error.
    public var addsNoOffLoopErrors: Bool { true }

    /// The client's id when it is 1…`maxLength` safe characters, else a generated one.
    /// `loop`: the request's event loop, whose own counter numbers it.
    func requestId(for request: HTTPRequest, loop: Int = 0) -> String {
        if let given = request.headers["X-Request-Id"], Self.isWellFormed(given, maxLength: maxLength) { return given }
        return RequestIdSource.shared.next(loop: loop)
    }

    /// Letters, digits and `-_.:`, so the id is safe in a header, a JSON string and a log
    /// line without escaping (no spaces, quotes, control characters or log-injection newlines).
    static func isWellFormed(_ id: String, maxLength: Int) -> Bool {
        var count = 0
        for byte in id.utf8 {
            count += 1
            guard count <= maxLength else { return false }
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."),
                UInt8(ascii: ":"):
                continue
            default: return false
            }
        }
        return count > 0
    }

    /// Puts the id in `response`'s header and, for a problem document, in it as `requestId`.
    static func tag(_ response: inout HTTPResponse, _ id: String) {
        response.headers.set("X-Request-Id", id)
        // Problem documents are errors: a success is never searched for one.
        if response.status.code >= 400,
            response.headers["Content-Type"]?.hasPrefix("application/problem+json") == true,
            response.body.last == UInt8(ascii: "}"), response.body.count > 2
        {
            // Our problem documents are one JSON object; the id needs no escaping (isWellFormed).
            response.body.removeLast()
            response.body.append(contentsOf: Array(",\"requestId\":\"\(id)\"}".utf8))
        }
    }
}

/// Fresh request ids: a random per-process prefix (so replicas do not collide) and a number
/// (so ids are cheap: no random-number syscall), as `k3Zq9T-0000002a`. Fifteen bytes, so the
/// first 2³² ids of a process are small strings, held inline: no allocation per request. Each
/// event loop counts on its own (``LoopCounter``) and its number's low four bits are its part:
/// two loops never write one counter, and never hand out the same id.
final class RequestIdSource: Sendable {
    static let shared = RequestIdSource()
    private let prefix: [UInt8]
    private let counter = LoopCounter()

    init() {
        // Six of 62 letters and digits: about 36 random bits.
        let alphabet = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".utf8)
        var generator = SystemRandomNumberGenerator()
        prefix =
            (0..<6).map { _ in alphabet[Int(generator.next(upperBound: UInt64(alphabet.count)))] } + [UInt8(ascii: "-")]
    }

    /// A fresh id from loop `loop`'s counter.
    func next(loop: Int = 0) -> String {
        let part = UInt64(loop & (LoopShards<Int>.count - 1))
        let value = counter.add(1, loop: loop) << 4 | part
        let digits = value >> 32 == 0 ? 8 : 16
        return String(unsafeUninitializedCapacity: prefix.count + digits) { buffer in
            _ = buffer.initialize(fromContentsOf: prefix)
            var rest = value
            for index in stride(from: prefix.count + digits - 1, through: prefix.count, by: -1) {
                let digit = UInt8(truncatingIfNeeded: rest & 0xF)
                buffer[index] = digit < 10 ? UInt8(ascii: "0") + digit : UInt8(ascii: "a") - 10 + digit
                rest >>= 4
            }
            return prefix.count + digits
        }
    }
}
