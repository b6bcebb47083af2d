import Glibc

/// A port on 127.0.0.1 held by a socket that is bound but not listening: a connection to it is
/// refused, and no other socket of the machine is given the port until ``release()``.
///
/// Why not a receiver started and stopped to learn a free port: once stopped, its port is free
/// for the next `bind` to port 0, and a receiver another test started meanwhile took it and got
/// this test's deliveries (`WebhookDeliveryScenarioTests`, two suites' receivers on one port).
final class ReservedPort {
    let port: Int
    private var descriptor: Int32

    struct Failed: Error, CustomStringConvertible {
        let description: String
    }

    init() throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw Failed(description: "socket failed: errno \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                bind(descriptor, address, length) == 0 && getsockname(descriptor, address, &length) == 0
            }
        }
        guard bound else {
            let error = errno
            close(descriptor)
            throw Failed(description: "bind to 127.0.0.1:0 failed: errno \(error)")
        }
        self.descriptor = descriptor
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    /// Frees the port for whoever binds it next (the receiver that is to serve it).
    func release() {
        guard descriptor >= 0 else { return }
        close(descriptor)
        descriptor = -1
    }

    deinit { release() }
}
