import ParleyClient
import ParleyCore
import Synchronization

/// A transport for a session on one step: `POST /v1/sessions` answers with a rev-1 snapshot
/// showing `screen` (with the flow's `computed` values), `POST …/answers` with rev 2 on the
/// terminal step. Records every request, so a test can read what left the device.
final class SessionTransport: ParleyTransport {
    private let screen: Screen
    private let computed: [ComputedValue]
    private let sent = Mutex<[ParleyRequest]>([])

    init(screen: Screen, computed: [ComputedValue]) {
        self.screen = screen
        self.computed = computed
    }

    /// The requests so far.
    var requests: [ParleyRequest] { sent.withLock { $0 } }

    /// The `answers` member of the last answers request, parsed.
    var lastSentAnswers: JSONValue? {
        guard let body = requests.last(where: { $0.path.hasSuffix("/answers") })?.body else { return nil }
        return (try? JSONParser.parse(body))?["answers"]
    }

    func send(_ request: ParleyRequest) async throws -> ParleyResponse {
        sent.withLock { $0.append(request) }
        let created = request.path == "/v1/sessions"
        let snapshot =
            created
            ? self.snapshot(rev: 1, step: screen.id, screen: screen)
            : self.snapshot(
                rev: 2, step: "done", screen: Screen(id: "done", root: Node(type: .vstack, id: "root")))
        return ParleyResponse(
            status: created ? 201 : 200, headers: ["content-type": "application/json"],
            body: CanonicalJSON.encode(snapshot))
    }

    private func snapshot(rev: Int, step: String, screen: Screen) -> JSONValue {
        var gated = JSONObject()
        gated["served"] = "step"
        gated["screen"] = screen.json
        var object = JSONObject()
        object["session"] = "s1"
        object["flow"] = "f"
        object["version"] = .number(JSONNumber(1))
        object["rev"] = .number(JSONNumber(rev))
        object["status"] = "active"
        object["step"] = .string(step)
        object["screen"] = .object(gated)
        object["values"] = .object(JSONObject())
        object["path"] = .array([])
        object["computed"] = ComputedValue.json(computed)
        return .object(object)
    }
}
