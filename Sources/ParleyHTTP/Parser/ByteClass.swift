/// Byte classes from the ABNF of RFC 9110 §5.6 and RFC 9112, as lookup tables so the
/// parser's inner loops do one load per byte.
enum ByteClass {
    static let cr: UInt8 = 13
    static let lf: UInt8 = 10
    static let sp: UInt8 = 32
    static let htab: UInt8 = 9
    static let colon: UInt8 = 58

    /// tchar (RFC 9110 §5.6.2): "!#$%&'*+-.^_`|~", DIGIT, ALPHA.
    static let token: [Bool] = (0..<256).map { byte in
        switch UInt8(byte) {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "A")...UInt8(ascii: "Z"):
            return true
        default: return "!#$%&'*+-.^_`|~".utf8.contains(UInt8(byte))
        }
    }

    /// field-vchar / SP / HTAB (RFC 9110 §5.5): VCHAR, obs-text, SP, HTAB. Excludes CR, LF, NUL and other CTLs.
    static let fieldValue: [Bool] = (0..<256).map { byte in
        byte == 9 || byte == 32 || (byte >= 0x21 && byte != 0x7F)
    }

    /// Bytes allowed in a request-target: visible ASCII only (RFC 9112 §3.2, RFC 3986 §2).
    static let target: [Bool] = (0..<256).map { byte in byte >= 0x21 && byte <= 0x7E }

    /// The tables' classes as bit masks over ASCII (bit n of `low`/`high` is byte n / n + 64):
    /// constants need no lazy initialisation, so the parser's per-byte checks cost no `swift_once`
    /// and no table load. `ByteClassTests` proves them equal to the tables above.
    static func isToken(_ byte: UInt8) -> Bool {
        inMask(byte, low: 0x03FF_6CFA_0000_0000, high: 0x57FF_FFFF_C7FF_FFFE)
    }

    /// A field-value byte (``fieldValue``): SP, HTAB, visible ASCII and obs-text (0x80 and up);
    /// not CR, LF, DEL or another control byte. One or two compares, no table.
    static func isFieldValue(_ byte: UInt8) -> Bool {
        byte >= 0x20 ? byte != 0x7F : byte == htab
    }

    /// A request-target byte (``target``): 0x21–0x7E, one compare.
    static func isTarget(_ byte: UInt8) -> Bool { byte &- 0x21 < 0x5E }

    /// The index of the first byte at or after `index` (below `count`) that ends a run of
    /// request-target bytes (``isTarget(_:)``), or `count`: eight bytes at a time while all
    /// eight are target bytes, then byte by byte.
    static func skipTarget(_ base: UnsafePointer<UInt8>, from index: Int, count: Int) -> Int {
        var index = index
        while index + 8 <= count {
            let word = UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
            // Any byte below 0x21, any from 0x7F up (0x7F itself: zero after the XOR).
            let below = (word &- 0x2121_2121_2121_2121) & ~word
            let delete = word ^ 0x7F7F_7F7F_7F7F_7F7F
            guard (below | word | ((delete &- 0x0101_0101_0101_0101) & ~delete)) & 0x8080_8080_8080_8080 == 0
            else { break }
            index += 8
        }
        while index < count, isTarget(base[index]) { index += 1 }
        return index
    }

    /// The index of the first byte at or after `index` (below `count`) that ends a run of
    /// field-value bytes (``isFieldValue(_:)``: a CR, or a byte no value may hold), or `count`:
    /// eight bytes at a time while none of the eight is a control byte or DEL, then byte by byte
    /// (an HTAB ends only the fast steps).
    static func skipFieldValue(_ base: UnsafePointer<UInt8>, from index: Int, count: Int) -> Int {
        var index = index
        while index + 8 <= count {
            let word = UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
            // Any byte below 0x20 (obs-text from 0x80 up is a value byte), or 0x7F.
            let below = (word &- 0x2020_2020_2020_2020) & ~word
            let delete = word ^ 0x7F7F_7F7F_7F7F_7F7F
            guard (below | ((delete &- 0x0101_0101_0101_0101) & ~delete)) & 0x8080_8080_8080_8080 == 0 else { break }
            index += 8
        }
        while index < count, isFieldValue(base[index]) { index += 1 }
        return index
    }

    /// The index of the first `byte` at or after `index` and below `end`, or nil: eight bytes at a
    /// time (a word with no such byte has no zero byte after XOR with eight copies of it).
    static func index(of byte: UInt8, in base: UnsafePointer<UInt8>, from index: Int, end: Int) -> Int? {
        var index = index
        let pattern = 0x0101_0101_0101_0101 &* UInt64(byte)
        while index + 8 <= end {
            let word = UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)) ^ pattern
            if (word &- 0x0101_0101_0101_0101) & ~word & 0x8080_8080_8080_8080 != 0 { break }
            index += 8
        }
        while index < end {
            if base[index] == byte { return index }
            index += 1
        }
        return nil
    }

    private static func inMask(_ byte: UInt8, low: UInt64, high: UInt64) -> Bool {
        if byte < 64 { return (low >> UInt64(byte)) & 1 == 1 }
        if byte < 128 { return (high >> UInt64(byte &- 64)) & 1 == 1 }
        return false
    }

    static func lowercased(_ byte: UInt8) -> UInt8 {
        byte >= 65 && byte <= 90 ? byte | 0x20 : byte
    }

    /// The value of a hex digit, or nil.
    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
