import ParleyCore
import ParleyHTTP

/// The route handlers, sharing one ``ServiceContext``. Split by area into
/// `Handlers+<Area>.swift`.
struct Handlers: Sendable {
    let context: ServiceContext

    /// A JSON response from a value, canonically encoded.
    static func json(_ value: JSONValue, status: HTTPStatus = .ok, headers: HTTPHeaders = [:]) -> HTTPResponse {
        .json(CanonicalJSON.encode(value), status: status, headers: headers)
    }

    /// A required path parameter (the router guarantees it is present).
    static func parameter(_ name: String, _ context: RequestContext) throws(HTTPError) -> String {
        guard let value = context.parameters[name], !value.isEmpty, value.utf8.count <= 200,
            !value.utf8.contains(0)
        else {
            throw ServiceProblem.badParameter("\(name) must be 1 to 200 bytes without U+0000")
        }
        return value
    }

    /// A positive integer path parameter.
    static func number(_ name: String, _ context: RequestContext) throws(HTTPError) -> Int {
        guard let text = context.parameters[name], let value = Int(text), value > 0, String(value) == text else {
            throw ServiceProblem.badParameter("\(name) must be a positive integer")
        }
        return value
    }

    /// A list page: `{"items": […], "next": cursor?}`.
    static func page(_ items: [JSONValue], next: String?) -> JSONValue {
        var object = JSONObject()
        object["items"] = .array(items)
        if let next { object["next"] = .string(next) }
        return .object(object)
    }
}
