import Glibc

/// A `parley_sessions` notification's payload (issue 27): `"<hex key>:<rev>"`, or a
/// group-committed batch's list of them, comma-separated.
enum SessionChangeNotice {
    /// The changes a payload names; malformed items are skipped. Read as bytes: every answer of
    /// every replica arrives here, and splitting by `Character` cost more than the answer's own
    /// bookkeeping.
    static func changes(_ payload: String) -> [(keyHex: String, rev: Int)] {
        var changes: [(keyHex: String, rev: Int)] = []
        forEachItem(of: payload) { item in
            if let change = change(item) { changes.append(change) }
        }
        return changes
    }

    /// Calls `body` with each change the payload names whose key is a session key's 64 hex digits
    /// (as the snapshot cache finds them, ``SessionKey``), read where the payload lies: what the
    /// listener hands the snapshot cache for every notification, without a `String` per key or
    /// an array of them.
    static func forEachKey(in payload: String, _ body: (SessionKey, Int) -> Void) {
        forEachItem(of: payload) { item in
            if let (colon, rev) = parts(item), let key = SessionKey(hex: UnsafeBufferPointer(rebasing: item[..<colon]))
            {
                body(key, rev)
            }
        }
    }

    /// Calls `body` with each comma-separated item of `payload`'s bytes (empty ones too).
    private static func forEachItem(of payload: String, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        var payload = payload
        payload.withUTF8 { bytes in
            var start = 0
            while start <= bytes.count {
                var end = start
                while end < bytes.count, bytes[end] != UInt8(ascii: ",") { end += 1 }
                body(UnsafeBufferPointer(rebasing: bytes[start..<end]))
                start = end + 1
            }
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
