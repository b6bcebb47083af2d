import ParleyCore
import ParleyHTTP

/// What `POST /v1/sessions` reads from its body: the `flow` and `channel` members, as they are
/// (the handler checks them).
///
/// A body of plain strings and `null`s (`{"flow":"passport-intake"}`), with no other member, is
/// read in one pass (``plain(_:)``), with no ``JSONObject`` made and freed; any other goes through
/// ``JSONBody`` as before, so every error is its own.
enum StartRequest {
    /// The body's `flow` and `channel` (nil when absent); 415 for a non-JSON media type, 400 for
    /// a body that is not a JSON object, as ``JSONBody/object(_:)`` says.
    static func read(_ request: HTTPRequest) throws(HTTPError) -> (flow: JSONValue?, channel: JSONValue?) {
        try JSONBody.check(request)
        if let plain = plain(request.body) { return plain }
        let body = try JSONBody.object(checked: request)
        return (body["flow"], body["channel"])
    }

    /// The `flow` and `channel` of an object with no other member, each a plain string
    /// (``PlainJSONReader``) or `null`, in any order or absent; nil for any other body. When not
    /// nil, these are the members ``JSONParser`` would parse (it accepts the body; no U+0000 can
    /// be in it without an escape).
    static func plain(_ body: [UInt8]) -> (flow: JSONValue?, channel: JSONValue?)? {
        PlainJSONReader.read(body) { reader in
            var flow: JSONValue?
            var channel: JSONValue?
            let read = reader.object { reader, name in
                let value: JSONValue
                if reader.takeNull() {
                    value = .null
                } else {
                    guard let text = reader.string() else { return false }
                    value = .string(PlainJSONReader.text(text))
                }
                if PlainJSONReader.isName(name, "flow") {
                    guard case .none = flow else { return false }
                    flow = value
                } else if PlainJSONReader.isName(name, "channel") {
                    guard case .none = channel else { return false }
                    channel = value
                } else {
                    return false
                }
                return true
            }
            guard read, reader.isAtEnd() else { return nil }
            return (flow, channel)
        }
    }
}
