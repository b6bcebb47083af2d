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

    /// Appends the status line and header section; returns whether a body follows.
    static func encodeHead(
        _ response: HTTPResponse, into output: inout [UInt8], date: [UInt8], keepAlive: Bool,
        announceKeepAlive: Bool, headOnly: Bool
    ) -> Bool {
        let status = response.status
        if status.code == 200 && status.reason == "OK" {
            output.append(contentsOf: okLine)
        } else {
            output.append(contentsOf: "HTTP/1.1 \(status.code) \(status.reason)\r\n".utf8)
        }
        output.append(contentsOf: date)
        appendFields(response.headers, to: &output)
        if !keepAlive {
            output.append(contentsOf: closeLine)
        } else if announceKeepAlive {
            output.append(contentsOf: keepAliveLine)
        }
        let forbidsBody = status.forbidsBody
        if !forbidsBody {
            output.append(contentsOf: contentLength)
            appendDecimal(response.body.count, to: &output)
            output.append(13)
            output.append(10)
        }
        output.append(13)
        output.append(10)
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

    /// `value` (not negative) in decimal: the digits are made last first into a word on the
    /// stack (a body length has at most 19), then appended at once.
    static func appendDecimal(_ value: Int, to output: inout [UInt8]) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var start = 20
            var rest = value
            repeat {
                start -= 1
                digits[start] = 48 + UInt8(rest % 10)
                rest /= 10
            } while rest > 0
            output.append(contentsOf: UnsafeBufferPointer(rebasing: digits[start..<20]))
        }
    }
}
