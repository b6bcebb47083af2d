/// An incremental decoder for the chunked transfer coding (RFC 9112 §7.1): feed it whatever
/// bytes have arrived; it appends chunk data to the body and reports how much it consumed.
/// Extensions are validated and ignored; trailer fields are validated and discarded (§7.1.2).
struct ChunkedDecoder: Sendable, Hashable {
    private enum State: Hashable {
        case size
        case data(remaining: Int)
        case dataEnd
        case trailer(bytes: Int)
        case done
    }

    private var state = State.size
    let limits: HTTPParserLimits
    /// The most body bytes accepted (→ 413).
    let maxBodyBytes: Int

    init(limits: HTTPParserLimits, maxBodyBytes: Int) {
        self.limits = limits
        self.maxBodyBytes = maxBodyBytes
    }

    /// Whether the last chunk and trailer section have been read.
    var isComplete: Bool { state == .done }

    /// Decodes from `bytes`, appending data to `body`; returns the bytes consumed.
    mutating func decode(_ bytes: UnsafeBufferPointer<UInt8>, into body: inout [UInt8]) throws(HTTPParseError) -> Int {
        var index = 0
        while index < bytes.count {
            switch state {
            case .size:
                guard let lf = try lineEnd(bytes, from: index, limit: limits.maxChunkLineBytes) else { return index }
                let size = try ChunkedDecoder.chunkSize(UnsafeBufferPointer(rebasing: bytes[index..<(lf - 1)]))
                if size > maxBodyBytes - body.count { throw .bodyTooLarge }
                state = size == 0 ? .trailer(bytes: 0) : .data(remaining: size)
                index = lf + 1
            case .data(let remaining):
                let take = min(remaining, bytes.count - index)
                body.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[index..<(index + take)]))
                index += take
                state = take == remaining ? .dataEnd : .data(remaining: remaining - take)
            case .dataEnd:
                guard bytes.count - index >= 2 else { return index }
                guard bytes[index] == ByteClass.cr, bytes[index + 1] == ByteClass.lf else {
                    throw .badRequest("Chunk data must be followed by CRLF.")
                }
                index += 2
                state = .size
            case .trailer(let total):
                let budget = limits.maxHeaderBytes - total
                guard let lf = try lineEnd(bytes, from: index, limit: budget) else {
                    if bytes.count - index > budget { throw .headersTooLarge }
                    return index
                }
                if lf - 1 == index {
                    state = .done
                    return lf + 1
                }
                _ = try HTTPHeadParser.parseField(UnsafeBufferPointer(rebasing: bytes[index..<(lf - 1)]))
                state = .trailer(bytes: total + lf + 1 - index)
                index = lf + 1
            case .done:
                return index
            }
        }
        return index
    }

    /// The LF ending a CRLF line that starts at `from`, or nil when incomplete; throws for a
    /// bare LF or a line longer than `limit`.
    private func lineEnd(_ bytes: UnsafeBufferPointer<UInt8>, from: Int, limit: Int) throws(HTTPParseError) -> Int? {
        var index = from
        while index < bytes.count {
            if bytes[index] == ByteClass.lf {
                guard index > from, bytes[index - 1] == ByteClass.cr else {
                    throw .badRequest("Chunk lines must end in CRLF.")
                }
                return index
            }
            index += 1
            if index - from > limit { throw .badRequest("A chunk line is too long.") }
        }
        return nil
    }

    /// chunk-size [chunk-ext], where chunk-ext = *( BWS ";" BWS ext-name [ BWS "=" BWS ext-val ] ).
    static func chunkSize(_ line: UnsafeBufferPointer<UInt8>) throws(HTTPParseError) -> Int {
        var size = 0
        var index = 0
        while index < line.count, let digit = ByteClass.hexValue(line[index]) {
            // 15 hex digits stay below Int.max; bigger chunks are over any body limit anyway.
            guard index < 15 else { throw .bodyTooLarge }
            size = size << 4 | Int(digit)
            index += 1
        }
        guard index > 0 else { throw .badRequest("A chunk size is malformed.") }
        try validateExtensions(UnsafeBufferPointer(rebasing: line[index...]))
        return size
    }

    private static func validateExtensions(_ text: UnsafeBufferPointer<UInt8>) throws(HTTPParseError) {
        var index = 0
        func skipBWS() {
            while index < text.count, text[index] == ByteClass.sp || text[index] == ByteClass.htab { index += 1 }
        }
        func token() -> Bool {
            let start = index
            while index < text.count, ByteClass.isToken(text[index]) { index += 1 }
            return index > start
        }
        while true {
            skipBWS()
            if index == text.count { return }
            guard text[index] == UInt8(ascii: ";") else { throw .badRequest("A chunk extension is malformed.") }
            index += 1
            skipBWS()
            guard token() else { throw .badRequest("A chunk extension name is malformed.") }
            skipBWS()
            guard index < text.count, text[index] == UInt8(ascii: "=") else { continue }
            index += 1
            skipBWS()
            if index < text.count, text[index] == UInt8(ascii: "\"") {
                try skipQuotedString()
            } else if !token() {
                throw .badRequest("A chunk extension value is malformed.")
            }
        }

        func skipQuotedString() throws(HTTPParseError) {
            index += 1
            while index < text.count {
                let byte = text[index]
                if byte == UInt8(ascii: "\"") {
                    index += 1
                    return
                }
                if byte == UInt8(ascii: "\\") { index += 1 }
                guard index < text.count, ByteClass.isFieldValue(text[index]) else { break }
                index += 1
            }
            throw .badRequest("A chunk extension quoted string is malformed.")
        }
    }
}
