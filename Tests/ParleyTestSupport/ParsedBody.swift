import ParleyCore
import Synchronization

/// A response body's JSON, parsed at its first read and kept: a test reads `json` of one
/// response several times, and the run's recorders (``UsedSecrets``) read it too; parsing a
/// session snapshot again each time was a tenth of the suite's CPU time.
final class ParsedBody: Sendable {
    private let parsed = Mutex<JSONValue?>(nil)

    /// The JSON of `body` (`null` when it is not JSON); `body` is the same on every call.
    func json(of body: [UInt8]) -> JSONValue {
        if let json = parsed.withLock({ $0 }) { return json }
        let json = (try? JSONParser.parse(body)) ?? .null
        parsed.withLock { $0 = json }
        return json
    }
}
