import COpenSSL

/// Why a cryptographic operation or input was refused (STYLE.md: a public
/// struct over a private enum, so cases can grow).
public struct CryptoError: Error, Sendable, Equatable, CustomStringConvertible {
    private enum Kind: Sendable, Equatable {
        case invalidKey
        case invalidEncoding
        case decryptionFailed
        case library
    }

    private let kind: Kind
    /// A sentence saying what is wrong.
    public let message: String

    private init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    /// A key that is not an Ed25519 key, or not readable as one.
    public static func invalidKey(_ message: String) -> Self { .init(.invalidKey, message) }
    /// Text that is not valid base64, hex or PEM.
    public static func invalidEncoding(_ message: String) -> Self { .init(.invalidEncoding, message) }
    /// A sealed box that does not open: another key or associated data, or altered bytes.
    public static func decryptionFailed(_ message: String) -> Self { .init(.decryptionFailed, message) }
    /// OpenSSL reported a failure; `message` includes its error queue.
    public static func library(_ operation: String) -> Self { .init(.library, "\(operation) failed: \(drainErrors())") }

    /// Stable code: `invalidKey`, `invalidEncoding`, `decryptionFailed` or `library`.
    public var code: String {
        switch kind {
        case .invalidKey: return "invalidKey"
        case .invalidEncoding: return "invalidEncoding"
        case .decryptionFailed: return "decryptionFailed"
        case .library: return "library"
        }
    }

    public var description: String { message }

    /// Empties OpenSSL's per-thread error queue into one line, so a failure
    /// never leaks into the next operation's report.
    static func drainErrors() -> String {
        var parts: [String] = []
        while true {
            let code = ERR_get_error()
            if code == 0 { break }
            var buffer = [CChar](repeating: 0, count: 256)
            ERR_error_string_n(code, &buffer, buffer.count)
            parts.append(String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        return parts.isEmpty ? "no OpenSSL error reported" : parts.joined(separator: "; ")
    }
}
