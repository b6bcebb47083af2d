/// RFC 5321 §4.1.2 `Mailbox`, the definition JSON Schema's `format: email`
/// uses (docs/rules.md: quoted local parts and address
/// literals included). ASCII only; no length limits beyond the grammar.
///
/// `General-address-literal` (`[tag:content]`) is refused: IANA registers no
/// standardized tag other than `IPv6`, which has its own production.
enum MailboxSyntax {
    /// Whether `value` is a `Mailbox`.
    static func isValid(_ value: String) -> Bool {
        let bytes = Array(value.utf8)
        // The local part ends at the last '@' outside a quoted string; a
        // quoted local part is parsed first, so find the split by grammar.
        var index = 0
        if bytes.first == 0x22 {
            guard let end = quotedStringEnd(bytes) else { return false }
            index = end
        } else {
            guard let end = dotStringEnd(bytes) else { return false }
            index = end
        }
        guard index < bytes.count, bytes[index] == 0x40 else { return false }
        let domain = Array(bytes[(index + 1)...])
        if domain.first == 0x5B { return isAddressLiteral(domain) }
        return isDomain(domain)
    }

    private static func isAlpha(_ byte: UInt8) -> Bool { (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A }
    private static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    // atext = ALPHA / DIGIT / "!" / "#" / "$" / "%" / "&" / "'" / "*" / "+" / "-" / "/" / "=" / "?" / "^" / "_" / "`" / "{" / "|" / "}" / "~"
    private static func isAtext(_ byte: UInt8) -> Bool {
        if isAlpha(byte) || isDigit(byte) { return true }
        switch byte {
        case 0x21, 0x23, 0x24, 0x25, 0x26, 0x27, 0x2A, 0x2B, 0x2D, 0x2F, 0x3D, 0x3F, 0x5E, 0x5F, 0x60, 0x7B, 0x7C, 0x7D,
            0x7E:
            return true
        default:
            return false
        }
    }

    // Dot-string = Atom *("." Atom): returns the index after it.
    private static func dotStringEnd(_ bytes: [UInt8]) -> Int? {
        var index = 0
        while true {
            let start = index
            while index < bytes.count, isAtext(bytes[index]) { index += 1 }
            if index == start { return nil }
            guard index < bytes.count, bytes[index] == 0x2E else { return index }
            index += 1
        }
    }

    // Quoted-string = DQUOTE *QcontentSMTP DQUOTE; qtextSMTP = %d32-33 / %d35-91 / %d93-126; quoted-pairSMTP = "\" %d32-126
    private static func quotedStringEnd(_ bytes: [UInt8]) -> Int? {
        var index = 1
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x22 { return index + 1 }
            if byte == 0x5C {
                guard index + 1 < bytes.count, bytes[index + 1] >= 32, bytes[index + 1] <= 126 else { return nil }
                index += 2
            } else if byte >= 32, byte <= 126 {
                index += 1
            } else {
                return nil
            }
        }
        return nil
    }

    // Domain = sub-domain *("." sub-domain); sub-domain = Let-dig [Ldh-str]
    private static func isDomain(_ bytes: [UInt8]) -> Bool {
        let labels = bytes.split(separator: 0x2E, omittingEmptySubsequences: false)
        return labels.allSatisfy { label in
            guard let first = label.first, let last = label.last else { return false }
            return (isAlpha(first) || isDigit(first)) && (isAlpha(last) || isDigit(last))
                && label.allSatisfy { isAlpha($0) || isDigit($0) || $0 == 0x2D }
        }
    }

    // address-literal = "[" ( IPv4-address-literal / IPv6-address-literal / General-address-literal ) "]"
    private static func isAddressLiteral(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= 2, bytes.last == 0x5D else { return false }
        let inner = Array(bytes[1..<(bytes.count - 1)])
        let prefix = Array("IPv6:".utf8)
        if inner.starts(with: prefix) { return isIPv6(Array(inner[prefix.count...])) }
        return isIPv4(inner)
    }

    // IPv4-address-literal = Snum 3("." Snum); Snum = 1*3DIGIT, 0 through 255
    static func isIPv4(_ bytes: [UInt8]) -> Bool {
        let parts = bytes.split(separator: 0x2E, omittingEmptySubsequences: false)
        return parts.count == 4
            && parts.allSatisfy { part in
                guard (1...3).contains(part.count), part.allSatisfy(isDigit) else { return false }
                return part.reduce(0) { $0 * 10 + Int($1 - 0x30) } <= 255
            }
    }

    // IPv6-addr = IPv6-full / IPv6-comp / IPv6v4-full / IPv6v4-comp (RFC 5321 §4.1.3)
    static func isIPv6(_ bytes: [UInt8]) -> Bool {
        var hexPart = bytes[...]
        var embedded = 0
        // A trailing IPv4 address stands for two groups.
        if let lastColon = bytes.lastIndex(of: 0x3A), bytes[(lastColon + 1)...].contains(0x2E) {
            guard isIPv4(Array(bytes[(lastColon + 1)...])) else { return false }
            embedded = 2
            let keepsDoubleColon = lastColon > 0 && bytes[lastColon - 1] == 0x3A
            hexPart = keepsDoubleColon ? bytes[...lastColon] : bytes[..<lastColon]
        }
        guard let split = firstDoubleColon(in: hexPart) else {
            guard let count = hexGroupCount(hexPart) else { return false }
            return count + embedded == 8
        }
        let right = hexPart[(split + 2)...]
        guard right.first != 0x3A, firstDoubleColon(in: right) == nil,
            let leftCount = hexGroupCount(hexPart[..<split]), let rightCount = hexGroupCount(right)
        else { return false }
        // "::" stands for at least two zero groups: at most six others (four beside an IPv4 address).
        return leftCount + rightCount + embedded <= 6
    }

    private static func firstDoubleColon(in bytes: ArraySlice<UInt8>) -> Int? {
        var index = bytes.startIndex
        while index + 1 < bytes.endIndex {
            if bytes[index] == 0x3A, bytes[index + 1] == 0x3A { return index }
            index += 1
        }
        return nil
    }

    /// Number of `IPv6-hex` groups separated by ":" (0 for an empty slice), `nil` when malformed.
    private static func hexGroupCount(_ part: ArraySlice<UInt8>) -> Int? {
        if part.isEmpty { return 0 }
        let pieces = part.split(separator: 0x3A, omittingEmptySubsequences: false)
        for piece in pieces {
            guard (1...4).contains(piece.count),
                piece.allSatisfy({ isDigit($0) || (($0 | 0x20) >= 0x61 && ($0 | 0x20) <= 0x66) })
            else { return nil }
        }
        return pieces.count
    }
}
