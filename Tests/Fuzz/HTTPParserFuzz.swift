// libFuzzer entry for ParleyHTTP's parser. Built by deploy/fuzz together with the parser's
// source files (Sources/ParleyHTTP/Parser), which depend on nothing but the standard library.

/// Feeds arbitrary bytes through everything the server does with untrusted input before a
/// responder sees it: head parsing, framing, target decoding and chunked decoding in pieces.
/// Any crash, trap or sanitizer report is a finding; the checks below are invariants.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHTTPParser(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    let limits = HTTPParserLimits(maxRequestLineBytes: 256, maxHeaderBytes: 1024, maxHeaderCount: 16, maxChunkLineBytes: 64)
    let result: HTTPHeadParser.Result
    do {
        result = try HTTPHeadParser(limits: limits).parse(bytes)
    } catch {
        precondition([400, 413, 414, 417, 431, 501, 505].contains(error.status), "unexpected status \(error.status)")
        return 0
    }
    guard case .complete(let head, let consumed) = result else { return 0 }
    precondition(consumed > 0 && consumed <= size, "consumed \(consumed) of \(size)")
    precondition(!head.method.isEmpty && !head.target.isEmpty)
    guard let framing = try? RequestFraming(head: head), (try? RequestTarget(head.target)) != nil else { return 0 }
    guard framing.body == .chunked else { return 0 }
    // Decode the rest as a chunked body, in pieces sized by the first byte, and check the result
    // does not depend on how the bytes were split.
    let rest = Array(bytes[consumed...])
    let step = max(1, Int(size > 0 ? bytes[0] % 16 : 1))
    let whole = decodeChunked(rest, step: rest.count + 1, limits: limits)
    let pieces = decodeChunked(rest, step: step, limits: limits)
    precondition(whole == pieces, "chunked decoding depends on read boundaries")
    return 0
}

func decodeChunked(_ input: [UInt8], step: Int, limits: HTTPParserLimits) -> [UInt8]? {
    var decoder = ChunkedDecoder(limits: limits, maxBodyBytes: 4096)
    var body: [UInt8] = []
    var pending: [UInt8] = []
    var offset = 0
    while !decoder.isComplete && offset < input.count {
        let end = min(input.count, offset + step)
        pending.append(contentsOf: input[offset..<end])
        offset = end
        do {
            let consumed = try pending.withUnsafeBufferPointer { buffer throws(HTTPParseError) in
                try decoder.decode(buffer, into: &body)
            }
            precondition(consumed <= pending.count)
            pending.removeFirst(consumed)
        } catch {
            return nil
        }
        precondition(body.count <= 4096, "body exceeded its limit")
    }
    return decoder.isComplete ? body : nil
}
