/// What a button or card does (docs/wire-format.md "Actions").
///
/// Any action may carry a `fallback` action for cores that lack its type.
/// Unknown action types keep their raw JSON and re-encode it unchanged.
public struct Action: Sendable, Equatable {
    /// The action's type and parameters.
    public enum Kind: Sendable, Equatable {
        /// Submit the current step's answers.
        case submit
        /// Open an `https` URL.
        case openURL(String)
        /// Subscribe to a channel.
        case subscribe(channel: String)
        /// A constrained network request the client performs.
        case network(RequestSpec)
        /// A type this core does not know: its wire name and the raw object.
        case unknown(type: String, raw: JSONObject)
    }

    /// The known action type names, in capability order.
    public static let knownTypeNames = ["submit", "openUrl", "subscribe", "network"]

    /// Type and parameters.
    public var kind: Kind
    private var fallbackStorage: [Action]

    /// The action used by cores that lack this one's type.
    public var fallback: Action? {
        get { fallbackStorage.first }
        set { fallbackStorage = newValue.map { [$0] } ?? [] }
    }

    /// Creates an action.
    public init(_ kind: Kind, fallback: Action? = nil) {
        self.kind = kind
        self.fallbackStorage = fallback.map { [$0] } ?? []
    }

    /// `{"type": "submit"}`.
    public static let submit = Action(.submit)

    /// The wire type name.
    public var typeName: String {
        switch kind {
        case .submit: return "submit"
        case .openURL: return "openUrl"
        case .subscribe: return "subscribe"
        case .network: return "network"
        case .unknown(let type, _): return type
        }
    }

    /// Decodes an action; unknown types are kept raw.
    public init(json: JSONValue, at pointer: JSONPointer) throws(ModelDecodingError) {
        let reader = try JSONReader(json, at: pointer, what: "an action")
        let type = try reader.string("type")
        switch type {
        case "submit": kind = .submit
        case "openUrl": kind = .openURL(try reader.string("url"))
        case "subscribe": kind = .subscribe(channel: try reader.string("channel"))
        case "network":
            guard let request = reader.value("request") else {
                throw .missing(pointer.appending("request"), "\"request\" is required for a network action")
            }
            kind = .network(try RequestSpec(json: request, at: pointer.appending("request")))
        default:
            var raw = reader.object
            raw["fallback"] = nil
            kind = .unknown(type: type, raw: raw)
        }
        fallbackStorage = []
        if let fallbackValue = reader.value("fallback"), !fallbackValue.isNull {
            fallbackStorage = [try Action(json: fallbackValue, at: pointer.appending("fallback"))]
        }
    }

    /// The wire JSON.
    public var json: JSONValue {
        var object: JSONObject
        switch kind {
        case .submit:
            object = JSONObject()
        case .openURL(let url):
            object = JSONObject()
            object["url"] = .string(url)
        case .subscribe(let channel):
            object = JSONObject()
            object["channel"] = .string(channel)
        case .network(let request):
            object = JSONObject()
            object["request"] = request.json
        case .unknown(_, let raw):
            object = raw
        }
        object["type"] = .string(typeName)
        if let fallback { object["fallback"] = fallback.json }
        return .object(object)
    }
}

extension Action {
    /// Whether the action has a fallback, without copying it (gating's hot path).
    var hasFallback: Bool { !fallbackStorage.isEmpty }
}
