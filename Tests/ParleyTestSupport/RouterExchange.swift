import ParleyHTTP
import ParleyServer

/// One exchange with an application without a socket: the request a client would send becomes
/// an `HTTPRequest` value, and the application's response becomes the ``RawResponse`` a client
/// would have read, framed as the server frames it on the wire.
enum RouterExchange {
    /// Answers one request through `application`'s whole responder chain.
    static func respond(
        _ application: ParleyApplication, _ method: String, _ target: String, headers: [(String, String)],
        body: [UInt8]?
    ) async -> RawResponse {
        // The fields RawHTTPClient sends on the wire, so the chain sees the same head.
        var fields: HTTPHeaders = ["Host": "127.0.0.1", "Connection": "close"]
        for (name, value) in headers { fields.add(name, value) }
        if let body { fields.add("Content-Length", String(body.count)) }
        let response: HTTPResponse
        do {
            let request = try HTTPRequest(method: method, target: target, headers: fields, body: body ?? [])
            response = await application.respond(to: request)
        } catch {
            response = error.response  // a target the parser refuses: the connection's 400
        }
        return raw(response, method: method)
    }

    /// The response as it would come off the wire: framing fields the server sets itself
    /// replaced by its `Content-Length`, no body for HEAD or a bodiless status (RFC 9110 §6.4.1).
    static func raw(_ response: HTTPResponse, method: String) -> RawResponse {
        let framing: Set = ["date", "connection", "content-length", "transfer-encoding"]
        var headers = response.headers.fields.filter { !framing.contains($0.name.lowercased()) }.map {
            (name: $0.name, value: $0.value)
        }
        let bodiless = response.status.forbidsBody
        if !bodiless { headers.append((name: "Content-Length", value: String(response.body.count))) }
        return RawResponse(
            status: response.status.code, headers: headers, body: bodiless || method == "HEAD" ? [] : response.body)
    }
}
