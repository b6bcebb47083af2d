import COpenSSL

/// One connection's TLS state over a non-blocking socket. Used only on its loop's thread.
final class TLSSession {
    private let ssl: OpaquePointer

    /// A server-side session on `fd`; nil when OpenSSL cannot allocate one.
    init?(context: TLSContext, fd: Int32) {
        guard let ssl = SSL_new(context.pointer) else { return nil }
        self.ssl = ssl
        SSL_set_fd(ssl, fd)
        SSL_set_accept_state(ssl)
    }

    deinit { SSL_free(ssl) }

    /// Advances the handshake.
    func handshake() -> IOStatus {
        ERR_clear_error()
        let result = SSL_do_handshake(ssl)
        return result == 1 ? .done : status(result)
    }

    /// Reads decrypted bytes.
    func read(_ buffer: UnsafeMutableRawBufferPointer) -> IOStatus {
        ERR_clear_error()
        let result = SSL_read(ssl, buffer.baseAddress, Int32(clamping: buffer.count))
        return result > 0 ? .bytes(Int(result)) : status(result)
    }

    /// Encrypts and writes bytes; partial writes are enabled on the context.
    func write(_ buffer: UnsafeRawBufferPointer) -> IOStatus {
        ERR_clear_error()
        let result = SSL_write(ssl, buffer.baseAddress, Int32(clamping: buffer.count))
        return result > 0 ? .bytes(Int(result)) : status(result)
    }

    private func status(_ result: Int32) -> IOStatus {
        switch SSL_get_error(ssl, result) {
        case SSL_ERROR_WANT_READ: .wantRead
        case SSL_ERROR_WANT_WRITE: .wantWrite
        case SSL_ERROR_ZERO_RETURN: .closed
        default: .failed
        }
    }
}
