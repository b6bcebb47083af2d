import Glibc

/// Name resolution through `getaddrinfo` (blocking: call it off the event loops). Returns
/// numeric addresses, which the caller checks and then connects to directly.
public enum HostResolver {
    /// Every distinct address `host` resolves to, in resolver order; a numeric host resolves to itself.
    public static func resolve(_ host: String) throws(HTTPClientError) -> [IPAddress] {
        if let literal = IPAddress(host) { return [literal] }
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, nil, &hints, &list)
        guard status == 0 else { throw .resolution("\(host): \(String(cString: gai_strerror(status)))") }
        defer { freeaddrinfo(list) }
        var addresses: [IPAddress] = []
        var cursor = list
        while let info = cursor {
            if let address = Self.address(info.pointee), !addresses.contains(address) { addresses.append(address) }
            cursor = info.pointee.ai_next
        }
        guard !addresses.isEmpty else { throw .resolution("\(host) has no addresses") }
        return addresses
    }

    private static func address(_ info: addrinfo) -> IPAddress? {
        guard let socketAddress = info.ai_addr else { return nil }
        switch info.ai_family {
        case AF_INET:
            return socketAddress.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { pointer in
                var inner = pointer.pointee.sin_addr
                return IPAddress(bytes: withUnsafeBytes(of: &inner) { Array($0) })
            }
        case AF_INET6:
            return socketAddress.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { pointer in
                var inner = pointer.pointee.sin6_addr
                return IPAddress(bytes: withUnsafeBytes(of: &inner) { Array($0) })
            }
        default:
            return nil
        }
    }
}
