/// The request of a `network` action (docs/wire-format.md "Actions"). Its constraints
/// (method set, relative path, no headers, `include` names flow fields) are
/// checked by the linter at publish time, not here.
public struct RequestSpec: Sendable, Equatable {
    /// HTTP method as written.
    public var method: String
    /// Relative path, e.g. `orders/reorder`.
    public var path: String
    /// Field ids whose answers the client includes.
    public var include: [String]

    /// Creates a request spec.
    public init(method: String, path: String, include: [String] = []) {
        self.method = method
        self.path = path
        self.include = include
    }

    /// Decodes a request spec.
    public init(json: JSONValue, at pointer: JSONPointer) throws(ModelDecodingError) {
        let reader = try JSONReader(json, at: pointer, what: "a network request")
        method = try reader.string("method")
        path = try reader.string("path")
        include = try reader.optionalStrings("include") ?? []
    }

    /// The wire JSON.
    public var json: JSONValue {
        var object = JSONObject()
        object["method"] = .string(method)
        object["path"] = .string(path)
        if !include.isEmpty { object["include"] = .array(include.map(JSONValue.string)) }
        return .object(object)
    }
}
