import Glibc

/// One outgoing TCP connection on a non-blocking socket, every wait bounded by `poll(2)` with a
/// deadline, so a peer that never answers costs a timeout, never a stuck thread.
final class ClientSocket {
    let fd: Int32

    /// Connects to `address:port`, waiting at most `timeout` seconds.
    init(address: IPAddress, port: Int, timeout: Double) throws(HTTPClientError) {
        let family = address.isIPv4 ? AF_INET : AF_INET6
        let raw = socket(family, Int32(SOCK_STREAM.rawValue | SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue), 0)
        guard raw >= 0 else { throw .connect(HTTPClientError.system("socket")) }
        fd = raw
        var one: Int32 = 1
        _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        let result = Self.withSocketAddress(address, port) { pointer, length in Glibc.connect(raw, pointer, length) }
        if result != 0 {
            guard errno == EINPROGRESS else {
                throw .connect(HTTPClientError.system("\(address) port \(port)"))
            }
            guard try wait(for: Int16(POLLOUT), seconds: timeout) else {
                throw .connect("\(address) port \(port): no answer within \(timeout) s")
            }
            var code: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            getsockopt(fd, SOL_SOCKET, SO_ERROR, &code, &length)
            guard code == 0 else { throw .connect(HTTPClientError.system("\(address) port \(port)", code)) }
        }
    }

    deinit { close(fd) }

    /// Waits until the socket is ready for `events`; false on timeout.
    func wait(for events: Int16, seconds: Double) throws(HTTPClientError) -> Bool {
        let deadline = Self.now() + max(0, seconds)
        while true {
            var descriptor = pollfd(fd: fd, events: events, revents: 0)
            let remaining = Int32(clamping: Int(((deadline - Self.now()) * 1000).rounded(.up)))
            let ready = poll(&descriptor, 1, max(0, remaining))
            if ready > 0 { return true }
            if ready == 0 { return false }
            guard errno == EINTR else { throw .io(HTTPClientError.system("poll")) }
        }
    }

    /// Monotonic seconds.
    static func now() -> Double { Double(Syscall.monotonicNanoseconds()) / 1e9 }

    private static func withSocketAddress<T>(
        _ address: IPAddress, _ port: Int, _ body: (UnsafePointer<sockaddr>, socklen_t) -> T
    ) -> T {
        if address.isIPv4 {
            var storage = sockaddr_in()
            storage.sin_family = sa_family_t(AF_INET)
            storage.sin_port = in_port_t(UInt16(port).bigEndian)
            withUnsafeMutableBytes(of: &storage.sin_addr) { $0.copyBytes(from: address.bytes) }
            return withUnsafePointer(to: &storage) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    body($0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        }
        var storage = sockaddr_in6()
        storage.sin6_family = sa_family_t(AF_INET6)
        storage.sin6_port = in_port_t(UInt16(port).bigEndian)
        withUnsafeMutableBytes(of: &storage.sin6_addr) { $0.copyBytes(from: address.bytes) }
        return withUnsafePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                body($0, socklen_t(MemoryLayout<sockaddr_in6>.size))
            }
        }
    }
}
