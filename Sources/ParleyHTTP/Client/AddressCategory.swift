/// What kind of network an IP address belongs to (IANA special-purpose address registries,
/// RFC 6890), for deciding whether a server may connect to it on a user's behalf (SSRF).
public enum AddressCategory: String, Sendable, Hashable {
    /// Globally routable unicast.
    case global = "a public address"
    /// `127.0.0.0/8`, `::1`.
    case loopback = "a loopback address"
    /// RFC 1918 (`10/8`, `172.16/12`, `192.168/16`), IPv6 unique-local `fc00::/7` and site-local `fec0::/10`.
    case privateNetwork = "a private address"
    /// `169.254/16`, `fe80::/10` (cloud metadata services live here).
    case linkLocal = "a link-local address"
    /// Carrier-grade NAT `100.64/10` (RFC 6598).
    case sharedNAT = "a carrier-grade NAT address"
    /// `224/4`, `ff00::/8`.
    case multicast = "a multicast address"
    /// `0.0.0.0/8`, `::`.
    case unspecified = "an unspecified address"
    /// `192.0.2/24`, `198.51.100/24`, `203.0.113/24`, `2001:db8::/32`.
    case documentation = "a documentation address"
    /// Anything else set aside: benchmarking, IETF assignments, `240/4`, broadcast, non-`2000::/3` IPv6.
    case reserved = "a reserved address"

    /// The category of `address`; IPv6 forms that embed an IPv4 address take its category.
    public init(_ address: IPAddress) {
        if let inner = address.embeddedIPv4 {
            self = Self.v4(inner.bytes)
        } else {
            self = address.isIPv4 ? Self.v4(address.bytes) : Self.v6(address.bytes)
        }
    }

    private static func v4(_ b: [UInt8]) -> AddressCategory {
        switch (b[0], b[1], b[2]) {
        case (0, _, _): .unspecified
        case (10, _, _): .privateNetwork
        case (100, 64...127, _): .sharedNAT
        case (127, _, _): .loopback
        case (169, 254, _): .linkLocal
        case (172, 16...31, _): .privateNetwork
        case (192, 0, 0): .reserved
        case (192, 0, 2), (198, 51, 100), (203, 0, 113): .documentation
        case (192, 88, 99): .reserved
        case (192, 168, _): .privateNetwork
        case (198, 18...19, _): .reserved
        case (224...239, _, _): .multicast
        case (240...255, _, _): .reserved
        default: .global
        }
    }

    private static func v6(_ b: [UInt8]) -> AddressCategory {
        if b.allSatisfy({ $0 == 0 }) { return .unspecified }
        if b[0..<15].allSatisfy({ $0 == 0 }), b[15] == 1 { return .loopback }
        if b[0] == 0xFF { return .multicast }
        if b[0] & 0xFE == 0xFC { return .privateNetwork }
        if b[0] == 0xFE, b[1] & 0xC0 == 0x80 { return .linkLocal }
        if b[0] == 0xFE, b[1] & 0xC0 == 0xC0 { return .privateNetwork }
        if b[0] == 0x20, b[1] == 0x01, b[2] == 0x0D, b[3] == 0xB8 { return .documentation }
        // 2001::/23: IETF protocol assignments (Teredo, ORCHID, benchmarking …).
        if b[0] == 0x20, b[1] == 0x01, b[2] < 0x02 { return .reserved }
        // Only 2000::/3 is allocated as global unicast.
        return b[0] & 0xE0 == 0x20 ? .global : .reserved
    }
}
