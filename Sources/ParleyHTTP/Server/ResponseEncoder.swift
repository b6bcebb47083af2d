/// Writes a response head and body into a connection's output buffer, so head and body leave
/// in one write. The server owns framing (RFC 9112 §6): `Content-Length`, `Date` and
/// `Connection` come from here, never from the responder.
enum ResponseEncoder {
    private static let okLine = Array("HTTP/1.1 200 OK\r\n".utf8)
    private static let contentLength = Array("Content-Length: ".utf8)
    private static let closeLine = Array("Connection: close\r\n".utf8)
    private static let keepAliveLine = Array("Connection: keep-alive\r\n".utf8)
    static let continueLine = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)

    /// Queues the encoded response; returns the number of body bytes sent.
    @discardableResult
    static func encode(
        _ response: HTTPResponse, into queue: inout OutputQueue, date: [UInt8], keepAlive: Bool,
        announceKeepAlive: Bool, headOnly: Bool
    ) -> Int {
        let sendsBody = queue.appendHead(
            response, date: date, keepAlive: keepAlive, announceKeepAlive: announceKeepAlive, headOnly: headOnly)
        guard sendsBody else { return 0 }
        queue.appendBody(response.body)
        return response.body.count
    }

    /// Appends the status line and header section; returns whether a body follows. The head is
    /// sized first and written into scratch space, then appended in one copy.
    static func encodeHead(
        _ response: HTTPResponse, into output: inout [UInt8], date: [UInt8], keepAlive: Bool,
        announceKeepAlive: Bool, headOnly: Bool
    ) -> Bool {
        let status = response.status
        let statusLine =
            status.code == 200 && status.reason == "OK"
            ? okLine : Array("HTTP/1.1 \(status.code) \(status.reason)\r\n".utf8)
        let connection = !keepAlive ? closeLine : announceKeepAlive ? keepAliveLine : []
        let (encoded, rest) = response.headers.encodingParts
        let forbidsBody = status.forbidsBody
        var total = statusLine.count + date.count + connection.count + 2
        total += (encoded?.count ?? 0) + HTTPFieldEncoding.encodedCount(rest)
        if !forbidsBody { total += contentLength.count + 20 + 2 }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: total) { scratch in
            var head = ByteWriter(scratch)
            head.write(statusLine)
            head.write(date)
            if let encoded { head.write(encoded) }
            HTTPFieldEncoding.write(rest, to: &head)
            head.write(connection)
            if !forbidsBody {
                head.write(contentLength)
                head.writeDecimal(response.body.count)
                head.write(13)
                head.write(10)
            }
            head.write(13)
            head.write(10)
            output.append(contentsOf: head.written)
        }
        return !forbidsBody && !headOnly
    }

    /// Appends the head of a streaming response: no `Content-Length`, `Connection: close`, so
    /// the body runs until the server closes the connection (RFC 9112 §6.3, rule 8).
    static func encodeStreamHead(_ response: HTTPResponse, into output: inout [UInt8], date: [UInt8]) {
        output.append(contentsOf: "HTTP/1.1 \(response.status.code) \(response.status.reason)\r\n".utf8)
        output.append(contentsOf: date)
        appendFields(response.headers, to: &output)
        output.append(contentsOf: closeLine)
        output.append(13)
        output.append(10)
    }

    /// Every field but the framing ones as `name: value` CRLF: the bytes a shared part encoded
    /// once (``HTTPHeaders/sharingEncoding()``), then the fields after it.
    private static func appendFields(_ headers: HTTPHeaders, to output: inout [UInt8]) {
        let (encoded, rest) = headers.encodingParts
        if let encoded { output.append(contentsOf: encoded) }
        HTTPFieldEncoding.appendFields(rest, to: &output)
    }
}
