/// Validates a request head byte by byte as it arrives (RFC 9112 §2–§5), so the first byte
/// that cannot belong to a request (a TLS ClientHello on the plain port, binary garbage,
/// `G@T / HTTP/1.1`) is refused at once instead of after CRLF CRLF or the header timeout, and
/// so each read scans only its new bytes: the scanner resumes where it stopped. Once it has
/// seen the whole head, ``HTTPHeadParser`` builds the request from it in one pass.
struct HTTPHeadScanner: Sendable {
    /// Where in the head grammar the next byte falls.
    enum Position: Sendable, Hashable {
        /// Before the request line; `emptyLines` CRLFs seen (RFC 9112 §2.2 allows a few).
        case start(emptyLines: Int)
        /// Inside a CRLF before the request line.
        case emptyLineCR(emptyLines: Int)
        case method
        case targetStart
        case target
        /// `offset` bytes of `HTTP/d.d` seen.
        case version(offset: Int)
        case requestLineCR
        /// At the start of a field line or of the empty line that ends the head.
        case lineStart
        case name
        case value
        case valueCR
        case finalCR
        /// The head ended at the LF just scanned.
        case complete
    }

    let limits: HTTPParserLimits
    private(set) var position = Position.start(emptyLines: 0)
    /// Bytes of the input already scanned; the next call starts here.
    private(set) var scanned = 0
    /// Where the request line starts (after any leading empty lines) and the index of its LF.
    private(set) var requestLineStart = 0
    private(set) var requestLineEnd = -1
    /// The indices of the space after the method and of the space after the target: the parser
    /// slices the request line at them instead of scanning it again.
    private(set) var methodEnd = -1
    private(set) var targetEnd = -1

    init(limits: HTTPParserLimits = HTTPParserLimits()) { self.limits = limits }

    /// Scans the bytes after the last call; returns how many bytes the head takes once it is
    /// complete, nil while more are needed. Throws at the first byte no request can contain.
    mutating func scan(_ bytes: UnsafeBufferPointer<UInt8>) throws(HTTPParseError) -> Int? {
        var index = scanned
        defer { scanned = index }
        guard let base = bytes.baseAddress else { return nil }
        let count = bytes.count
        if index == 0, case .start(emptyLines: 0) = position, let length = scanWhole(base, count: count, bytes) {
            index = length
            return length
        }
        while index < count {
            // Inside a target, a field name or a field value every valid byte keeps the position:
            // those runs, most of a head, are skipped in a tight loop over the raw bytes (`index`
            // stays below `count`, so no subscript re-checks it). The byte that ends a run (or is
            // invalid) goes through `step` like any other.
            switch position {
            case .method: while index < count, ByteClass.isToken(base[index]) { index += 1 }
            case .version(offset: 0):
                // The whole `HTTP/d.d` CR at once when it has arrived (nearly always): nine steps saved.
                if index + 9 <= count, Self.isVersion(bytes, at: index) {
                    index += 9
                    position = .requestLineCR
                }
            case .target: while index < count, ByteClass.isTarget(base[index]) { index += 1 }
            case .name: while index < count, ByteClass.isToken(base[index]) { index += 1 }
            case .value: while index < count, ByteClass.isFieldValue(base[index]) { index += 1 }  // not CR
            default: break
            }
            guard index < count else { break }
            let byte = base[index]
            index += 1
            try step(byte, at: index - 1)
            if case .complete = position { return index }
        }
        try checkLimits(scannedTo: index)
        return nil
    }

    /// The usual case at once: the whole head has arrived, with no empty lines before it and
    /// nothing unusual in it. Walks it in straight loops, without the per-byte state of `step`,
    /// and returns its length with the positions recorded; nil when the head is incomplete or
    /// anything is out of the ordinary, and then the byte-by-byte scan starts over and reaches
    /// its own verdict, so this path accepts nothing the scan would refuse.
    private mutating func scanWhole(_ base: UnsafePointer<UInt8>, count: Int, _ bytes: UnsafeBufferPointer<UInt8>)
        -> Int?
    {
        var index = 0
        while index < count, ByteClass.isToken(base[index]) { index += 1 }
        guard index > 0, index < count, base[index] == ByteClass.sp else { return nil }
        let methodEnd = index
        index += 1
        let targetStart = index
        index = ByteClass.skipTarget(base, from: index, count: count)
        guard index > targetStart, index < count, base[index] == ByteClass.sp else { return nil }
        let targetEnd = index
        index += 1
        // `HTTP/d.d` CR, then LF.
        guard index + 10 <= count, Self.isVersion(bytes, at: index), base[index + 9] == ByteClass.lf else { return nil }
        let requestLineEnd = index + 9
        index += 10
        while true {
            guard index + 1 < count else { return nil }
            if base[index] == ByteClass.cr {
                guard base[index + 1] == ByteClass.lf else { return nil }
                index += 2
                break
            }
            let nameStart = index
            while index < count, ByteClass.isToken(base[index]) { index += 1 }
            guard index > nameStart, index < count, base[index] == ByteClass.colon else { return nil }
            index += 1
            index = ByteClass.skipFieldValue(base, from: index, count: count)
            guard index + 1 < count, base[index] == ByteClass.cr, base[index + 1] == ByteClass.lf else { return nil }
            index += 2
        }
        requestLineStart = 0
        self.methodEnd = methodEnd
        self.targetEnd = targetEnd
        self.requestLineEnd = requestLineEnd
        position = .complete
        return index
    }

    private mutating func checkLimits(scannedTo end: Int) throws(HTTPParseError) {
        if requestLineEnd < 0 {
            if end - requestLineStart > limits.maxRequestLineBytes + 1 { throw .uriTooLong }
        } else if end - requestLineEnd > limits.maxHeaderBytes {
            throw .headersTooLarge
        }
    }

    // swift-format-ignore: CyclomaticComplexity
    private mutating func step(_ byte: UInt8, at index: Int) throws(HTTPParseError) {
        switch position {
        case .start(let emptyLines):
            if byte == ByteClass.cr && emptyLines < 4 {
                position = .emptyLineCR(emptyLines: emptyLines)
            } else if ByteClass.isToken(byte) {
                requestLineStart = index
                position = .method
            } else {
                throw .badRequest("The request method is not a token.")
            }
        case .emptyLineCR(let emptyLines):
            guard byte == ByteClass.lf else { throw .badRequest("The request line must end in CRLF.") }
            position = .start(emptyLines: emptyLines + 1)
        case .method:
            if byte == ByteClass.sp {
                methodEnd = index
                position = .targetStart
            } else if !ByteClass.isToken(byte) {
                throw .badRequest("The request method is not a token.")
            }
        case .targetStart, .target:
            if ByteClass.isTarget(byte) {
                position = .target
            } else if byte == ByteClass.sp, case .target = position {
                targetEnd = index
                position = .version(offset: 0)
            } else {
                throw .badRequest("The request target is malformed.")
            }
        case .version(let offset):
            try stepVersion(byte, offset: offset)
        case .requestLineCR:
            guard byte == ByteClass.lf else { throw .badRequest("The request line must end in CRLF.") }
            requestLineEnd = index
            position = .lineStart
        case .lineStart:
            if byte == ByteClass.cr {
                position = .finalCR
            } else if ByteClass.isToken(byte) {
                position = .name
            } else if byte == ByteClass.sp || byte == ByteClass.htab {
                throw .badRequest("Obsolete line folding is not allowed.")
            } else {
                throw .badRequest("A header field name is malformed.")
            }
        case .name:
            if byte == ByteClass.colon {
                position = .value
            } else if !ByteClass.isToken(byte) {
                throw .badRequest("A header field name is malformed.")
            }
        case .value:
            if byte == ByteClass.cr {
                position = .valueCR
            } else if !ByteClass.isFieldValue(byte) {
                throw .badRequest("A header value contains a control character.")
            }
        case .valueCR, .finalCR:
            guard byte == ByteClass.lf else { throw .badRequest("Header lines must end in CRLF.") }
            if case .finalCR = position { position = .complete } else { position = .lineStart }
        case .complete:
            break
        }
    }

    /// HTTP-version = "HTTP/" DIGIT "." DIGIT (RFC 9112 §2.3), then CR. The major version is
    /// judged by the parser (505), not here.
    private mutating func stepVersion(_ byte: UInt8, offset: Int) throws(HTTPParseError) {
        let fits: Bool
        switch offset {
        case 0: fits = byte == UInt8(ascii: "H")
        case 1, 2: fits = byte == UInt8(ascii: "T")
        case 3: fits = byte == UInt8(ascii: "P")
        case 4: fits = byte == UInt8(ascii: "/")
        case 5, 7: fits = byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
        case 6: fits = byte == UInt8(ascii: ".")
        default: fits = byte == ByteClass.cr
        }
        guard fits else { throw .badRequest("The HTTP version is malformed.") }
        position = offset == 8 ? .requestLineCR : .version(offset: offset + 1)
    }

    /// Whether the nine bytes at `index` are `HTTP/` DIGIT `.` DIGIT CR, as ``stepVersion(_:offset:)``
    /// would accept them one by one.
    private static func isVersion(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Bool {
        let digits = UInt8(ascii: "0")...UInt8(ascii: "9")
        return bytes[index] == UInt8(ascii: "H") && bytes[index + 1] == UInt8(ascii: "T")
            && bytes[index + 2] == UInt8(ascii: "T") && bytes[index + 3] == UInt8(ascii: "P")
            && bytes[index + 4] == UInt8(ascii: "/") && digits.contains(bytes[index + 5])
            && bytes[index + 6] == UInt8(ascii: ".") && digits.contains(bytes[index + 7])
            && bytes[index + 8] == ByteClass.cr
    }
}
