#if canImport(Glibc)
    import Glibc
#endif

/// A TCP port on 127.0.0.1 held by a socket of the test's own, until ``close()``: no other socket
/// of the machine is given the port meanwhile.
///
/// - Listening, it accepts connections into its backlog and never answers them: a server that
///   hangs (the fail-fast and failover tests' unreachable database).
/// - Bound but not listening, every connection to it is refused: a receiver that is down, whose
///   port a later receiver of the same test takes once this one is closed. A receiver started and
///   stopped to learn a free port left that port to the next `bind` to port 0, and a receiver
///   another test started meanwhile got it, and this test's deliveries (`WebhookDeliveryScenarioTests`).
public final class LoopbackPort {
    public let port: Int
    private var descriptor: Int32

    public struct Failed: Error, CustomStringConvertible {
        public let description: String
    }

    public init(listening: Bool) throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw Failed(description: "socket failed: errno \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                bind(descriptor, address, length) == 0 && (!listening || listen(descriptor, 16) == 0)
                    && getsockname(descriptor, address, &length) == 0
            }
        }
        guard bound else {
            let error = errno
            Glibc.close(descriptor)
            throw Failed(description: "binding 127.0.0.1:0 failed: errno \(error)")
        }
        self.descriptor = descriptor
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    /// Frees the port (for the receiver that is to serve it, or for anyone).
    public func close() {
        guard descriptor >= 0 else { return }
        Glibc.close(descriptor)
        descriptor = -1
    }

    deinit { close() }
}
