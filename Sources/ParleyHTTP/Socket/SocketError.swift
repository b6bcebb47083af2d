import Glibc

/// A failure in the socket layer: a system call with its errno, an unusable address, or TLS
/// set-up. A public struct over a private enum so cases can grow (STYLE.md).
public struct SocketError: Error, Sendable, Hashable, CustomStringConvertible {
    private enum Kind: Sendable, Hashable {
        case system(call: String, errno: Int32)
        case address(String)
        case tls(String)
        case state(String)
    }

    private let kind: Kind

    private init(_ kind: Kind) { self.kind = kind }

    /// `call` failed with `errno`.
    static func system(_ call: String, errno: Int32 = Glibc.errno) -> SocketError {
        SocketError(.system(call: call, errno: errno))
    }

    /// The host or port cannot be bound.
    static func address(_ detail: String) -> SocketError { SocketError(.address(detail)) }

    /// OpenSSL refused the certificate, key or set-up.
    static func tls(_ detail: String) -> SocketError { SocketError(.tls(detail)) }

    /// The server was used out of order (e.g. started twice).
    static func state(_ detail: String) -> SocketError { SocketError(.state(detail)) }

    /// The errno of a failed system call, or nil.
    public var errno: Int32? {
        if case .system(_, let code) = kind { return code }
        return nil
    }

    /// A message for an operator.
    public var description: String {
        switch kind {
        case .system(let call, let code): "\(call) failed: \(String(cString: strerror(code))) (errno \(code))"
        case .address(let detail): "cannot bind: \(detail)"
        case .tls(let detail): "TLS: \(detail)"
        case .state(let detail): detail
        }
    }
}
