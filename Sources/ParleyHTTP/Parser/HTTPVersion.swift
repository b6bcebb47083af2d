/// An HTTP/1.x protocol version (RFC 9112 §2.3).
public struct HTTPVersion: Sendable, Hashable, CustomStringConvertible {
    /// The major version; always 1 for requests the parser accepts.
    public var major: Int
    /// The minor version.
    public var minor: Int

    /// HTTP/1.0.
    public static let http1_0 = HTTPVersion(major: 1, minor: 0)
    /// HTTP/1.1.
    public static let http1_1 = HTTPVersion(major: 1, minor: 1)

    /// Creates a version.
    public init(major: Int, minor: Int) {
        self.major = major
        self.minor = minor
    }

    /// `HTTP/1.1` form.
    public var description: String { "HTTP/\(major).\(minor)" }
}
