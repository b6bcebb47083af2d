import ParleyCore
import ParleyHTTP

/// A feature's handler type (``ScreenHandlers``, ``SessionHandlers``, …): a value holding only
/// the stores and caches its routes use, built once by ``ParleyService``. What they share is
/// how a JSON answer is written.
protocol ServiceHandler: Sendable {}

extension ServiceHandler {
    /// A JSON response from a value, canonically encoded.
    static func json(_ value: JSONValue, status: HTTPStatus = .ok, headers: HTTPHeaders = [:]) -> HTTPResponse {
        .json(CanonicalJSON.encode(value), status: status, headers: headers)
    }

    /// A list page: `{"items": […], "next": cursor?}`.
    static func page(_ items: [JSONValue], next: String?) -> JSONValue {
        var object = JSONObject()
        object["items"] = .array(items)
        if let next { object["next"] = .string(next) }
        return .object(object)
    }
}
