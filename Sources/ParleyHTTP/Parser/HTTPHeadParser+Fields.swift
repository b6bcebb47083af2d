extension HTTPHeadParser {
    /// field-line = field-name ":" OWS field-value OWS, each ending in CRLF (RFC 9112 §5).
    /// Rejects whitespace before the colon (§5.1), obs-fold (§5.2), bare CR, NUL and other
    /// control bytes (RFC 9110 §5.5). `end` is the LF of the empty line that ends the section.
    static func parseFields(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, end: Int, maxCount: Int)
        throws(HTTPParseError) -> HTTPHeaders
    {
        var fields: [HTTPField] = []
        fields.reserveCapacity(8)  // one allocation for a typical head instead of four growths
        guard let base = bytes.baseAddress else { throw .badRequest("The header section must end in an empty line.") }
        var lineStart = start
        while lineStart <= end {
            // `end` is an LF, so every line up to it ends in one.
            guard let lf = ByteClass.index(of: ByteClass.lf, in: base, from: lineStart, end: end + 1),
                lf > lineStart, bytes[lf - 1] == ByteClass.cr
            else {
                throw .badRequest("Header lines must end in CRLF.")
            }
            if lf - 1 == lineStart { return HTTPHeaders(fields) }  // the empty line
            if fields.count == maxCount { throw .tooManyHeaders }
            // The head scanner has refused every control byte already: the values are not checked twice.
            fields.append(try parseField(UnsafeBufferPointer(rebasing: bytes[lineStart..<(lf - 1)]), scanned: true))
            lineStart = lf + 1
        }
        throw .badRequest("The header section must end in an empty line.")
    }

    /// One field line without its CRLF; `scanned`: ``HTTPHeadScanner`` has validated its bytes (a
    /// head's fields), so its value is not checked again (a chunked trailer's is).
    static func parseField(_ line: UnsafeBufferPointer<UInt8>, scanned: Bool = false) throws(HTTPParseError)
        -> HTTPField
    {
        if line[0] == ByteClass.sp || line[0] == ByteClass.htab {
            throw .badRequest("Obsolete line folding is not allowed.")
        }
        var index = 0
        if scanned, let base = line.baseAddress {
            // The scanner has checked the name's bytes: it ends at the first colon.
            index = ByteClass.index(of: ByteClass.colon, in: base, from: 0, end: line.count) ?? line.count
        } else {
            while index < line.count, ByteClass.isToken(line[index]) { index += 1 }
        }
        guard index > 0, index < line.count, line[index] == ByteClass.colon else {
            throw .badRequest("A header field name is malformed.")
        }
        let nameBytes = UnsafeBufferPointer(rebasing: line[0..<index])
        let name = KnownTokens.fieldName(nameBytes) ?? String(decoding: nameBytes, as: UTF8.self)
        var valueStart = index + 1
        var valueEnd = line.count
        if !scanned {
            for position in valueStart..<valueEnd where !ByteClass.isFieldValue(line[position]) {
                throw .badRequest("The value of \(name) contains a control character.")
            }
        }
        while valueStart < valueEnd, line[valueStart] == ByteClass.sp || line[valueStart] == ByteClass.htab {
            valueStart += 1
        }
        while valueEnd > valueStart, line[valueEnd - 1] == ByteClass.sp || line[valueEnd - 1] == ByteClass.htab {
            valueEnd -= 1
        }
        let valueBytes = UnsafeBufferPointer(rebasing: line[valueStart..<valueEnd])
        let value = KnownTokens.fieldValue(valueBytes) ?? String(decoding: valueBytes, as: UTF8.self)
        return HTTPField(name: name, value: value)
    }
}
