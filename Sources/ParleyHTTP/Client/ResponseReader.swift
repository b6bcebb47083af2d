/// Reads one HTTP/1.1 response from a stream: the head (interim 1xx responses skipped), then the
/// body framed by `Transfer-Encoding: chunked`, `Content-Length` or the end of the connection.
struct ResponseReader {
    let stream: ClientStream
    let settings: HTTPClientSettings
    private var buffer: [UInt8] = []
    private var ended = false

    init(stream: ClientStream, settings: HTTPClientSettings) {
        self.stream = stream
        self.settings = settings
    }

    /// The response to a request sent with `method`.
    mutating func read(method: String) throws(HTTPClientError) -> HTTPClientResponse {
        var (status, headers) = try readHead()
        while (100...199).contains(status) { (status, headers) = try readHead() }
        if method == "HEAD" || status == 204 || status == 304 {
            return HTTPClientResponse(status: status, headers: headers, body: [], truncated: false)
        }
        let cap = settings.maxResponseBytes
        if let coding = headers["Transfer-Encoding"], coding.lowercased().contains("chunked") {
            return try readChunked(status, headers, cap: cap)
        }
        if let lengthText = headers["Content-Length"] {
            guard let length = Int(Substring(lengthText).trimmingOWS()), length >= 0 else {
                throw .malformedResponse("Content-Length \"\(lengthText)\" is not a number")
            }
            while buffer.count < min(length, cap) {
                guard try fill() else { throw .io("the connection closed before the body ended") }
            }
            let body = Array(buffer.prefix(min(length, cap)))
            return HTTPClientResponse(status: status, headers: headers, body: body, truncated: length > cap)
        }
        while buffer.count <= cap, try fill() {}
        return HTTPClientResponse(
            status: status, headers: headers, body: Array(buffer.prefix(cap)), truncated: buffer.count > cap)
    }

    private mutating func readChunked(_ status: Int, _ headers: HTTPHeaders, cap: Int) throws(HTTPClientError)
        -> HTTPClientResponse
    {
        var decoder = ChunkedDecoder(limits: HTTPParserLimits(), maxBodyBytes: cap)
        var body: [UInt8] = []
        while true {
            do {
                let used = try buffer.withUnsafeBufferPointer { bytes throws(HTTPParseError) in
                    try decoder.decode(bytes, into: &body)
                }
                buffer.removeFirst(used)
            } catch {
                guard error == .bodyTooLarge else { throw .malformedResponse("chunked body: \(error.reason)") }
                return HTTPClientResponse(status: status, headers: headers, body: body, truncated: true)
            }
            if decoder.isComplete {
                return HTTPClientResponse(status: status, headers: headers, body: body, truncated: false)
            }
            guard try fill() else { throw .io("the connection closed inside a chunked body") }
        }
    }

    /// Status and fields of the next head; consumes it from the buffer.
    private mutating func readHead() throws(HTTPClientError) -> (Int, HTTPHeaders) {
        var end: Int?
        while end == nil {
            end = Self.headEnd(buffer)
            if end != nil { break }
            guard buffer.count <= settings.maxHeadBytes else { throw .malformedResponse("the head is too large") }
            guard try fill() else {
                throw .io(buffer.isEmpty ? "the server closed the connection without answering" : "truncated head")
            }
        }
        let headEnd = end ?? 0
        let text = String(decoding: buffer[..<headEnd], as: UTF8.self)
        buffer.removeFirst(headEnd + 4)
        var lines = text.split(separator: "\r\n", omittingEmptySubsequences: false)
        let statusLine = lines.removeFirst().split(separator: " ", maxSplits: 2)
        guard statusLine.count >= 2, statusLine[0].hasPrefix("HTTP/1."), statusLine[1].count == 3,
            let status = Int(statusLine[1]), (100...599).contains(status)
        else { throw .malformedResponse("the status line is not HTTP/1.x") }
        var headers = HTTPHeaders()
        for line in lines {
            guard let colon = line.firstIndex(of: ":"), colon != line.startIndex else {
                throw .malformedResponse("a header line has no name")
            }
            headers.add(String(line[..<colon]), String(line[line.index(after: colon)...].trimmingOWS()))
        }
        return (status, headers)
    }

    /// Index of the CRLFCRLF that ends a head.
    private static func headEnd(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for index in 0...(bytes.count - 4)
        where bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 && bytes[index + 3] == 10 {
            return index
        }
        return nil
    }

    /// Reads more bytes; false at end of stream.
    private mutating func fill() throws(HTTPClientError) -> Bool {
        if ended { return false }
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 16 << 10, alignment: 1)
        defer { chunk.deallocate() }
        let count = try stream.read(chunk)
        if count == 0 {
            ended = true
            return false
        }
        buffer.append(contentsOf: chunk.prefix(count))
        return true
    }
}
