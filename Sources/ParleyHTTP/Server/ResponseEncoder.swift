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
        var sendsBody = false
        queue.appendOwned { output in
            sendsBody = encodeHead(
                response, into: &output, date: date, keepAlive: keepAlive, announceKeepAlive: announceKeepAlive,
                headOnly: headOnly)
        }
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

    /// Whether `name` is a field the server sets itself.
    static func isFraming(_ name: String) -> Bool {
        switch name.utf8.count {
        case 4: name.isASCIICaseInsensitiveEqual(to: "Date")
        case 10: name.isASCIICaseInsensitiveEqual(to: "Connection")
        case 14: name.isASCIICaseInsensitiveEqual(to: "Content-Length")
        case 17: name.isASCIICaseInsensitiveEqual(to: "Transfer-Encoding")
        default: false
        }
    }

    /// Every field but the framing ones as `name: value` CRLF: the bytes a shared part encoded
    /// once (``HTTPHeaders/sharingEncoding()``), then the fields after it.
    private static func appendFields(_ headers: HTTPHeaders, to output: inout [UInt8]) {
        let (encoded, rest) = headers.encodingParts
        if let encoded { output.append(contentsOf: encoded) }
        appendFields(rest, to: &output)
    }

    /// `fields` but the framing ones as `name: value` CRLF, assembled in scratch space and
    /// appended at once: one growth check and one copy instead of six appends per field.
    static func appendFields(_ fields: [HTTPField], to output: inout [UInt8]) {
        var total = 0
        for field in fields where !isFraming(field.name) {
            total += field.name.utf8.count + field.value.utf8.count + 4
        }
        guard total > 0 else { return }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: total) { scratch in
            var offset = 0
            for field in fields where !isFraming(field.name) {
                offset = copyUTF8(field.name, into: scratch, at: offset)
                scratch[offset] = 58
                scratch[offset + 1] = 32
                offset = copyUTF8(field.value, into: scratch, at: offset + 2)
                scratch[offset] = 13
                scratch[offset + 1] = 10
                offset += 2
            }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: scratch[0..<offset]))
        }
    }

    /// Copies `text`'s UTF-8 into `scratch` at `offset`; returns the offset after it.
    private static func copyUTF8(_ text: String, into scratch: UnsafeMutableBufferPointer<UInt8>, at offset: Int)
        -> Int
    {
        let copied = text.utf8.withContiguousStorageIfAvailable { bytes in
            if let source = bytes.baseAddress, bytes.count > 0 {
                (scratch.baseAddress! + offset).update(from: source, count: bytes.count)
            }
            return offset + bytes.count
        }
        if let copied { return copied }
        var next = offset
        for byte in text.utf8 {
            scratch[next] = byte
            next += 1
        }
        return next
    }

    /// `value` (not negative) in decimal, most significant digit first, without a scratch array.
    static func appendDecimal(_ value: Int, to output: inout [UInt8]) {
        var divisor = 1
        while divisor <= value / 10 { divisor *= 10 }
        var rest = value
        while divisor > 0 {
            output.append(48 + UInt8(rest / divisor))
            rest %= divisor
            divisor /= 10
        }
    }
}
