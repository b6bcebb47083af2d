import COpenSSL

/// An OpenSSL `EVP_MD` held for the life of the process: fetched implementations are immutable
/// and may be shared by threads (OpenSSL 3 threading rules), so the handle is `Sendable`.
struct DigestMethod: @unchecked Sendable {
    let pointer: OpaquePointer

    init(_ pointer: OpaquePointer) { self.pointer = pointer }
}
