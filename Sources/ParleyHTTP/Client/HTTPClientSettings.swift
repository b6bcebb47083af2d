/// Limits of one outgoing request; every wait is bounded.
public struct HTTPClientSettings: Sendable {
    /// Longest wait for the TCP connection, in seconds. Default 5.
    public var connectTimeout: Double = 5
    /// Longest wait for any single read, write or handshake step, in seconds. Default 10.
    public var ioTimeout: Double = 10
    /// Most body bytes kept from a response. Default 64 KiB.
    public var maxResponseBytes = 64 << 10
    /// Largest response head (status line and fields). Default 16 KiB.
    public var maxHeadBytes = 16 << 10
    /// PEM file of trusted certificates, replacing the system trust store (tests). Default nil.
    public var trustedCertificatesFile: String?

    /// The defaults documented on each property.
    public init() {}
}
