import COpenSSL

/// An OpenSSL server context loaded with a certificate chain and key, TLS 1.2 or later.
///
/// `@unchecked Sendable` is safe: the `SSL_CTX` is fully configured in `init` and never mutated
/// afterwards; OpenSSL documents `SSL_new` on a shared, unmodified context as thread-safe.
final class TLSContext: @unchecked Sendable {
    let pointer: OpaquePointer

    /// Loads `configuration`'s PEM files; throws with OpenSSL's reason when they are unusable.
    init(_ configuration: TLSConfiguration) throws(SocketError) {
        guard let context = SSL_CTX_new(TLS_server_method()) else { throw .tls("SSL_CTX_new failed") }
        pointer = context
        // SSL_CTX_set_min_proto_version is a macro over SSL_CTX_ctrl.
        SSL_CTX_ctrl(context, SSL_CTRL_SET_MIN_PROTO_VERSION, Int(TLS1_2_VERSION), nil)
        // Partial writes let a non-blocking SSL_write report progress like write(2) does.
        SSL_CTX_ctrl(
            context, SSL_CTRL_MODE, Int(SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER), nil)
        guard SSL_CTX_use_certificate_chain_file(context, configuration.certificatePath) == 1 else {
            throw .tls("cannot load certificate \(configuration.certificatePath): \(TLSContext.lastError())")
        }
        guard SSL_CTX_use_PrivateKey_file(context, configuration.privateKeyPath, SSL_FILETYPE_PEM) == 1 else {
            throw .tls("cannot load private key \(configuration.privateKeyPath): \(TLSContext.lastError())")
        }
        guard SSL_CTX_check_private_key(context) == 1 else {
            throw .tls("the private key does not match the certificate")
        }
    }

    deinit { SSL_CTX_free(pointer) }

    /// OpenSSL's most recent error as text, clearing the queue.
    static func lastError() -> String {
        let code = ERR_get_error()
        ERR_clear_error()
        guard code != 0 else { return "unknown error" }
        var buffer = [CChar](repeating: 0, count: 256)
        ERR_error_string_n(code, &buffer, buffer.count)
        return Syscall.cString(buffer)
    }
}
