import Glibc

/// A `parley_sessions` notification's payload (issue 27): `"<hex key>:<rev>"`, or a
/// group-committed batch's list of them, comma-separated.
enum SessionChangeNotice {
    /// The changes a payload names; malformed items are skipped. Read as bytes: every answer of
    /// every replica arrives here, and splitting by `Character` cost more than the answer's own
    /// bookkeeping.
    static func changes(_ payload: String) -> [(keyHex: String, rev: Int)] {
        var payload = payload
        return payload.withUTF8 { changes($0) }
    }

    /// ``changes(_:)-(String)`` of a payload's bytes (``PostgresPayload``).
    static func changes(_ payload: UnsafeBufferPointer<UInt8>) -> [(keyHex: String, rev: Int)] {
        var changes: [(keyHex: String, rev: Int)] = []
        forEachItem(of: payload) { item in
            if let change = change(item) { changes.append(change) }
        }
        return changes
    }

    /// Calls `body` with each change the payload names whose key is a session key's 64 hex digits
    /// (as the snapshot cache finds them, ``SessionKey``), read where the payload lies (libpq's
    /// bytes, ``PostgresPayload``): what the listener hands the snapshot cache for every
    /// notification, without a `String` of the payload, of each key, or an array of them.
    static func forEachKey(in payload: UnsafeBufferPointer<UInt8>, _ body: (SessionKey, Int) -> Void) {
        forEachItem(of: payload) { item in
            if let (colon, rev) = parts(item), let key = SessionKey(hex: UnsafeBufferPointer(rebasing: item[..<colon]))
            {
                body(key, rev)
            }
        }
    }

    /// ``forEachKey(in:_:)-(UnsafeBufferPointer<UInt8>)`` of a payload as text.
    static func forEachKey(in payload: String, _ body: (SessionKey, Int) -> Void) {
        var payload = payload
        payload.withUTF8 { forEachKey(in: $0, body) }
    }

    /// Calls `body` with each comma-separated item of `payload` (empty ones too). The commas are
    /// found with `memchr`: a byte-by-byte search through each key's 64 digits cost ~330
    /// instructions a notification.
    private static func forEachItem(
        of payload: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) -> Void
    ) {
        guard let base = payload.baseAddress else { return body(payload) }
        var start = 0
        while true {
            let rest = payload.count - start
            guard let found = memchr(base + start, Int32(UInt8(ascii: ",")), rest) else {
                return body(UnsafeBufferPointer(start: base + start, count: rest))
            }
            let end = UnsafeRawPointer(found) - UnsafeRawPointer(base)
            body(UnsafeBufferPointer(start: base + start, count: end - start))
            start = end + 1
        }
    }

    /// One `"<hex key>:<rev>"`: exactly one colon, a non-empty key and a decimal rev.
    private static func change(_ item: UnsafeBufferPointer<UInt8>) -> (keyHex: String, rev: Int)? {
        guard let (colon, rev) = parts(item) else { return nil }
        return (String(decoding: UnsafeBufferPointer(rebasing: item[..<colon]), as: UTF8.self), rev)
    }

    /// Where an item's colon is and the rev after it; nil unless it is exactly one colon after a
    /// non-empty key, then a decimal rev.
    private static func parts(_ item: UnsafeBufferPointer<UInt8>) -> (colon: Int, rev: Int)? {
        // `memchr`: the search byte by byte through a key's 64 digits cost more than the rest.
        guard let base = item.baseAddress, let found = memchr(base, Int32(UInt8(ascii: ":")), item.count) else {
            return nil
        }
        let colon = UnsafeRawPointer(found) - UnsafeRawPointer(base)
        guard colon > 0, colon + 1 < item.count else { return nil }
        var rev = 0
        for byte in item[(colon + 1)...] {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            let (times, overflowTimes) = rev.multipliedReportingOverflow(by: 10)
            let (sum, overflowSum) = times.addingReportingOverflow(Int(byte - UInt8(ascii: "0")))
            guard !overflowTimes, !overflowSum else { return nil }
            rev = sum
        }
        return (colon, rev)
    }
}
