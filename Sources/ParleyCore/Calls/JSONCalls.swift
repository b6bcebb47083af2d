/// ParleyCore's text interface (docs/webassembly.md): every
/// call takes JSON text and returns JSON text, exactly the documents the server
/// reads and writes, so a core compiled to WebAssembly (`parley-core.mjs`) and
/// the native build answer byte for byte alike.
///
/// Arguments and results are UTF-8 bytes; a call never throws: input it cannot
/// use gives `{"error": "<reason>"}`. ``call(_:_:)`` is the one dispatch table
/// the WebAssembly exports go through: a new call is one case there.
public enum JSONCalls {
    /// The core version this build implements (`core.version` in the ES module).
    public static var version: String { CoreVersion.newest.description }

    /// The names ``call(_:_:)`` answers, in the order the ES module lists them.
    public static let names = [
        "validate", "gate", "lint", "replay", "evaluate", "harness", "preview", "version",
    ]

    /// Runs the call `name` with its arguments (`nil` for an argument left out);
    /// `nil` when no call has that name.
    public static func call(_ name: String, _ arguments: [[UInt8]?]) -> [UInt8]? {
        func argument(_ index: Int) -> [UInt8]? { index < arguments.count ? arguments[index] : nil }
        switch name {
        case "validate":
            return validate(
                screen: argument(0) ?? [], answers: argument(1) ?? [], path: argument(2), options: argument(3))
        case "gate":
            return gate(document: argument(0) ?? [], core: argument(1), options: argument(2))
        case "lint":
            return lint(document: argument(0) ?? [], options: argument(1))
        case "replay":
            return replay(flow: argument(0) ?? [], path: argument(1) ?? [])
        case "evaluate":
            return evaluate(
                flow: argument(0) ?? [], step: argument(1), answers: argument(2) ?? [], path: argument(3),
                options: argument(4))
        case "harness":
            return harness(request: argument(0) ?? [])
        case "preview":
            return preview(request: argument(0) ?? [])
        case "version":
            return Array(version.utf8)
        default:
            return nil
        }
    }

    /// `{"error": reason}` as canonical bytes.
    static func failure(_ reason: String) -> [UInt8] {
        CanonicalJSON.encode(["error": .string(reason)])
    }

    /// Parses one argument, naming it in the reason when it is not JSON.
    static func parse(_ bytes: [UInt8], _ name: String) throws(CallProblem) -> JSONValue {
        do {
            return try JSONParser.parse(bytes)
        } catch {
            throw CallProblem("\(name) is not valid JSON: \(error.description)")
        }
    }

    /// An optional JSON object argument (`nil`, empty text and `null` are absent).
    static func options(_ bytes: [UInt8]?, _ name: String) throws(CallProblem) -> JSONObject {
        guard let bytes, !bytes.isEmpty else { return JSONObject() }
        switch try parse(bytes, name) {
        case .null: return JSONObject()
        case .object(let object): return object
        default: throw CallProblem("\(name) must be a JSON object")
        }
    }
}
